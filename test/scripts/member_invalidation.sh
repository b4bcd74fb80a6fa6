#!/usr/bin/env bash
# member_invalidation.sh: an ALTER EXTENSION UPDATE committed while another session reads the
# extension's members (src/planner/members.cpp) is not lost. Session A plans a query whose
# rewrite needs the 1.1 helpers (a stable prefix on a partitioned table: ulidrange_lo/_hi) on a
# 1.0 catalog, which has none. Session B changes one member (so that A's next read of the list
# misses the catalog cache for it and takes a lock on pg_proc in the middle of its scan), takes
# pg_proc in ACCESS EXCLUSIVE mode, waits until A's read blocks there, updates the extension to
# 1.1 and commits. A's read, resumed, has seen the catalog as of before the update, and the
# update's invalidation arrived during it: A's next plan must see the helpers (before the fix of
# issue 33 the stale list was kept as valid, and A never rewrote).
#
# Run by test/run_tests.sh with PGHOST/PGPORT/PGUSER/PGBIN pointing at a running cluster with
# idtypes installed. Exit status 0 = pass.
set -euo pipefail
trap '' PIPE

: "${PGBIN:?PGBIN must point at the PostgreSQL bin directory}"
. "$(dirname "$0")/../lib/report.sh"
db=idt_meminval_$$
work=$(mktemp -d)
psql_q() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }
a_pid=
cleanup() {
	exec 3>&- 2>/dev/null || true
	[ -z "$a_pid" ] || kill "$a_pid" 2>/dev/null || true
	psql_q -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

psql_q -d postgres -c "CREATE DATABASE $db" -c "ALTER DATABASE $db SET idtypes_test.prefix = '4B'"
psql_q -d "$db" <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION idtypes VERSION '1.0';
CREATE TABLE p (id ulid) PARTITION BY RANGE (id);
CREATE TABLE p_0 PARTITION OF p FOR VALUES FROM (MINVALUE) TO ('40000000000000000000000000');
CREATE TABLE p_4 PARTITION OF p FOR VALUES FROM ('40000000000000000000000000') TO (MAXVALUE);
-- Whether the plan of a stable prefix on tbl has the pruning rewrite (which calls ulidrange_lo).
CREATE FUNCTION rewritten(tbl regclass) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE line text; found bool := false;
BEGIN
	FOR line IN EXECUTE format('EXPLAIN (COSTS OFF) SELECT * FROM %s WHERE id ^@ current_setting(''idtypes_test.prefix'')', tbl) LOOP
		found := found OR line LIKE '%ulidrange_lo%';
	END LOOP;
	RETURN found;
END $$;
SQL

# Session A: a psql reading from a fifo, its output in a.out; a_run <n> <sql> sends a statement
# and a marker, a_wait <n> waits for the marker (at most 60 s).
mkfifo "$work/a.in"
# (stdbuf: psql's output to a file waits in its buffer otherwise)
stdbuf -oL "$PGBIN/psql" -X -q -At -d "$db" <"$work/a.in" >"$work/a.out" 2>&1 &
a_pid=$!
exec 3>"$work/a.in"
a_run() { printf '%s\n\\echo done %s\n' "$2" "$1" >&3; }
a_wait() {
	local i
	for ((i = 0; i < 600; i++)); do
		grep -qx "done $1" "$work/a.out" && return 0
		sleep 0.1
	done
	return 1
}
# a_result <n>: the line before marker n.
a_result() { grep -x -B1 "done $1" "$work/a.out" | head -1; }

a_run 1 "SELECT rewritten('p');"
a_wait 1 || { bad "session A did not answer: $(cat "$work/a.out")"; finish 4; }
if [ "$(a_result 1)" = f ]; then ok "1.0 catalog: no rewrite (no helpers)"; else bad "1.0 catalog: $(a_result 1)"; fi

# B's change of a member: A's member list is invalid, and its cache entry for that function gone.
# A then plans the same query on a partition (no rewrite there, so the members are not read):
# every other catalog entry its planning needs (function name lists, dropped with any change to
# pg_proc) is back in its caches, and the next lock on pg_proc is taken inside the members' read.
psql_q -d "$db" -c "ALTER FUNCTION ulid_prefix_range(text) COST 2"
a_run 2 "SELECT rewritten('p_0');"
a_wait 2 || true

# B holds pg_proc; A plans (and blocks in its read of the members); B updates and commits. B
# watches A's own lock request (a new session would wait for pg_proc already to connect).
a_run 3 "SELECT 'pid ' || pg_backend_pid();"
a_wait 3 || true
a_backend=$(grep -x 'pid [0-9]*' "$work/a.out" | head -1 | cut -d' ' -f2)
stdbuf -oL "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At -d "$db" -v a="$a_backend" >"$work/b.out" 2>&1 <<'SQL' &
SELECT set_config('idtypes_test.a_pid', :'a', false) IS NOT NULL AS set;
BEGIN;
LOCK TABLE pg_catalog.pg_proc IN ACCESS EXCLUSIVE MODE;
SELECT 'locked';
DO $$
BEGIN
	FOR i IN 1 .. 600 LOOP
		EXIT WHEN EXISTS (SELECT FROM pg_locks WHERE pid = current_setting('idtypes_test.a_pid')::int
			AND relation = 'pg_catalog.pg_proc'::regclass AND NOT granted);
		PERFORM pg_sleep(0.05);
	END LOOP;
END $$;
SELECT 'a waited: ' || EXISTS (SELECT FROM pg_locks WHERE pid = current_setting('idtypes_test.a_pid')::int
	AND relation = 'pg_catalog.pg_proc'::regclass AND NOT granted);
ALTER EXTENSION idtypes UPDATE TO '1.1';
COMMIT;
SQL
b_pid=$!
for ((i = 0; i < 600; i++)); do
	grep -qx locked "$work/b.out" 2>/dev/null && break
	sleep 0.1
done
a_run 4 "SELECT rewritten('p');"
wait "$b_pid" || true
a_wait 4 || true
if grep -qx "a waited: true" "$work/b.out"; then
	ok "session A's read of the members waited for pg_proc while the update committed"
else
	bad "session A never waited on pg_proc: $(tr '\n' ' ' <"$work/b.out")"
fi
[ "$(psql_q -d "$db" -c "SELECT extversion FROM pg_extension WHERE extname = 'idtypes'")" = 1.1 ] ||
	bad "the update did not commit: $(tr '\n' ' ' <"$work/b.out")"

a_run 5 "SELECT rewritten('p');"
a_wait 5 || true
if [ "$(a_result 5)" = t ]; then
	ok "session A sees the 1.1 helpers after the update"
else
	bad "session A still plans without the 1.1 helpers (the update's invalidation was lost): '$(a_result 5)'"
fi
a_run 6 "SELECT rewritten('p');"
a_wait 6 || true
[ "$(a_result 6)" = t ] && ok "and keeps seeing them" || bad "then lost them: '$(a_result 6)'"
finish 4
