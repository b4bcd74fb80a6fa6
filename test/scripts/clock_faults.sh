#!/usr/bin/env bash
# clock_faults.sh: the generators while the server's clock steps back 5 s and forward again.
#
# A cluster whose server runs under libfaketime (LD_PRELOAD; Debian package libfaketime), its
# offset read from a file the script rewrites: +0, then -5 s, then +0 again. Two sessions
# generate IDs of every kind the whole time, in small batches, each batch under one advisory lock
# and numbered by one sequence (the generation order across sessions). The README (Generators)
# says what each generator does: a monotonic generator treats a clock that went back as the last
# time unit it saw (micros + 1 for TID), so afterwards, for each kind:
#   - no ID occurs twice;
#   - the monotonic generators (xid, tid, ulidflake, ulidflake(sid), ulid_monotonic, euid,
#     euid(ext)) are strictly increasing in generation order: per session where the state is per
#     backend, across both sessions where idtypes_generator_scope() is 'cluster';
#   - the sessions did see the clock go back (clock_timestamp() just before each call), so the
#     checks above are not vacuous.
# Two rounds: without preload (scope 'backend' on 15-16, 'cluster' on 17+) and preloaded
# ('cluster'). Exit status 77 when libfaketime is not installed.
#
# Run by test/run_tests.sh (PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set). Port PGPORT+57.
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/nodes.sh"
. "$here/../lib/kinds.sh"
. "$here/../lib/report.sh"
. "$here/../lib/faketime.sh"

faketime_required

BATCH=10
STEP=5
nodes_workdir
major=$(server_major)
dir=$work/n port=$((PGPORT + 57))
offset_file=$work/faketime.rc
Q() { node_psql "$dir" "$port" -d clock "$@"; }
set_offset() { faketime_set "$offset_file" "$1"; }
# server_lag: how many seconds the server's clock is behind this shell's (not faked).
server_lag() {
	local server
	server=$(Q -c "SELECT extract(epoch FROM clock_timestamp())")
	awk -v s="$server" -v c="$(date +%s.%N)" 'BEGIN { printf "%.1f", c - s }'
}

# start <postgres options...>: (re)start the cluster under libfaketime.
start() {
	node_stop "$dir" "$port"
	rm -f "$offset_file"
	faketime_start "$dir" "$port" "$offset_file" "$@"
}

# session <number>: generate batches of every kind until ctl.stop, under one advisory lock each.
# No pg_sleep between them: it measures its time on the faked clock, and a step back would
# stretch one sleep by the whole step.
session() {
	local k inserts=
	for k in $KINDS; do
		# clock_timestamp() before the generator: what the session's clock said when the call
		# began, even if the call then waits out an overflow until the clock is back.
		inserts+="INSERT INTO c_$k (t, id, s, g) SELECT clock_timestamp(), $(gen_of "$k"), $1, nextval('g') FROM generate_series(1, $BATCH);"$'\n'
	done
	Q >"$work/session-$1.log" 2>&1 <<SQL
DO \$\$
BEGIN
	LOOP
		EXIT WHEN (SELECT stop FROM ctl);
		PERFORM pg_advisory_lock(4242);
		$inserts
		PERFORM pg_advisory_unlock(4242);
	END LOOP;
END \$\$;
SQL
}

# round <label> [postgres options...]
round() {
	local label=$1 scope want k p1 p2 lag got status=0
	shift
	start "$@"
	node_psql "$dir" "$port" -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS clock" \
		-c "CREATE DATABASE clock"
	Q -c "CREATE EXTENSION idtypes" -c "CREATE TABLE ctl (stop bool NOT NULL)" \
		-c "INSERT INTO ctl VALUES (false)" -c "CREATE SEQUENCE g"
	for k in $KINDS; do
		Q -c "CREATE TABLE c_$k (t timestamptz NOT NULL, id $(type_of "$k") NOT NULL, s int NOT NULL, g bigint NOT NULL)"
	done
	scope=$(Q -c "SELECT idtypes_generator_scope()")
	if [ "$major" -ge 17 ] || [ $# -gt 0 ]; then want=cluster; else want=backend; fi
	if [ "$scope" = "$want" ]; then ok "$label: generator scope is $scope"; else bad "$label: scope '$scope', want '$want'"; fi

	session 1 &
	p1=$!
	session 2 &
	p2=$!
	sleep 2
	set_offset "-$STEP"
	lag=$(server_lag)
	if awk -v l="$lag" -v s="$STEP" 'BEGIN { exit !(l > s - 1 && l < s + 1) }'; then
		ok "$label: the server's clock stepped back $STEP s (now ${lag} s behind)"
	else
		bad "$label: the server's clock is $lag s behind, not $STEP"
	fi
	sleep 2
	set_offset "+0"
	lag=$(server_lag)
	if awk -v l="$lag" 'BEGIN { exit !(l > -1 && l < 1) }'; then
		ok "$label: the server's clock stepped forward again (${lag} s behind)"
	else
		bad "$label: after the step forward the server's clock is $lag s behind"
	fi
	sleep 2
	Q -c "UPDATE ctl SET stop = true"
	wait "$p1" || status=1
	wait "$p2" || status=1
	if [ "$status" -ne 0 ]; then
		cat "$work"/session-*.log
		bad "$label: a generating session failed"
	fi

	# A call that began at least STEP - 1 s before (on the server's clock) one that began earlier.
	got=$(Q -c "SELECT coalesce(extract(epoch FROM max(before - t)), 0) FROM (
		SELECT t, max(t) OVER (ORDER BY g ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) before
		FROM ($(for k in $KINDS; do printf 'SELECT t, g FROM c_%s UNION ALL ' "$k"; done | sed 's/ UNION ALL $//')) a) s")
	if awk -v b="$got" -v s="$STEP" 'BEGIN { exit !(b > s - 1) }'; then
		ok "$label: the sessions saw their clock go back $got s"
	else
		bad "$label: the sessions' clock went back at most $got s, not $STEP"
	fi

	# The order that must be increasing: per session, or across sessions for a cluster-wide state.
	local part=
	[ "$scope" = cluster ] || part="PARTITION BY s"
	for k in $KINDS; do
		got=$(Q -c "SELECT count(*) > 0 AND count(*) = count(DISTINCT id) FROM c_$k")
		if [ "$got" = t ]; then ok "$label: $k: $(Q -c "SELECT count(*) FROM c_$k") IDs, none twice"; else bad "$label: $k: duplicates ($got)"; fi
		[ "$k" != ulid ] || continue # generate_ulid() follows the spec: not monotonic
		got=$(Q -c "SELECT coalesce(bool_and(id > p), false) FROM (SELECT id, lag(id) OVER ($part ORDER BY g) p FROM c_$k) s WHERE p IS NOT NULL")
		if [ "$got" = t ]; then
			ok "$label: $k: strictly increasing $([ "$scope" = cluster ] && echo "across both sessions" || echo "in each session") through both steps"
		else
			bad "$label: $k: not strictly increasing ($scope scope)"
		fi
	done
}

start=$SECONDS
round "no preload"
round "preloaded" -c "$(preload_setting)"
echo "clock_faults.sh on PostgreSQL $major: $((SECONDS - start)) s"
# Per round: the scope, the two steps, the sessions' step, 8 kinds without a duplicate, 7 increasing.
finish $((2 * (1 + 2 + 8 + 7 + 1)))
