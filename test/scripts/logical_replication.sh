#!/usr/bin/env bash
# logical_replication.sh: the five types through logical replication, in text and binary mode.
#
# A publisher (wal_level=logical) with two tables of all five types, column defaults from the
# generators, a btree index on every ID column and a ulidrange column: `ids` has the ulid as
# primary key (replica identity default), `ids_full` has no key (REPLICA IDENTITY FULL: the
# subscriber finds the old row by the types' equality, on 16+ through their btree indexes).
# A subscriber cluster has two databases with the same tables: sub_text subscribes in text mode,
# sub_bin with `binary = true` (PostgreSQL 14+; 13 has no such option: the script checks that 13
# rejects it and runs text mode only). On 14-15 binary mode applies to the streamed changes, on
# 16+ to the initial copy as well.
#
# After the initial copy (LR_ROWS rows per table, default 5,000) and again after 10,000 inserts
# plus thousands of updates (of ID columns, the primary key included) and deletes, made partly by two
# concurrent pgbench clients in small transactions, each subscriber database has exactly the
# publisher's rows (md5 of the ordered rows). Catch-up is awaited properly: every table of a
# subscription "ready" in pg_subscription_rel, then the publisher's pg_stat_replication shows the
# subscription's replay_lsn at or past the publisher's current WAL position (timeout LR_TIMEOUT,
# default 90 s). The subscriber's log must hold no ERROR once the subscriptions exist.
#
# Run by test/run_tests.sh (PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set). Ports PGPORT+50
# (publisher) and PGPORT+51 (subscriber).
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/nodes.sh"
. "$(dirname "$0")/../lib/ids_table.sh"

ROWS=${LR_ROWS:-5000}
TIMEOUT=${LR_TIMEOUT:-90}
nodes_workdir
major=$(server_major)
pdir=$work/pub pport=$((PGPORT + 50))
sdir=$work/sub sport=$((PGPORT + 51))
P() { node_psql "$pdir" "$pport" -d pub "$@"; }
S() { # S <database> [psql arguments...]
	local db=$1
	shift
	node_psql "$sdir" "$sport" -d "$db" "$@"
}

. "$(dirname "$0")/../lib/report.sh"

start=$SECONDS
node_start "$pdir" "$pport" -c wal_level=logical
node_start "$sdir" "$sport" -c max_logical_replication_workers=8 -c max_worker_processes=16 \
	-c wal_retrieve_retry_interval=200ms
node_psql "$pdir" "$pport" -d postgres -c "CREATE DATABASE pub"

SUBS=(sub_text)
if [ "$major" -ge 14 ]; then
	SUBS+=(sub_bin)
fi

SCHEMA="
CREATE EXTENSION idtypes;
$(ids_table_sql ids)
CREATE TABLE ids_full (
	x uid11 NOT NULL DEFAULT generate_xid(),
	t timeid NOT NULL DEFAULT generate_tid(),
	f ulidflake NOT NULL DEFAULT generate_ulidflake(),
	u ulid NOT NULL DEFAULT generate_ulid(),
	e euid DEFAULT generate_euid(77),
	r ulidrange,
	n int NOT NULL
);
ALTER TABLE ids_full REPLICA IDENTITY FULL;
CREATE INDEX ids_full_x ON ids_full (x);
CREATE INDEX ids_full_u ON ids_full (u);
CREATE INDEX ids_full_e ON ids_full (e);
"
P -c "$SCHEMA"
for db in "${SUBS[@]}"; do
	node_psql "$sdir" "$sport" -d postgres -c "CREATE DATABASE $db"
	S "$db" -c "$SCHEMA"
done

# The rows of the initial copy: defaults, times spread over hours, NULLs, empty ranges.
P <<SQL
INSERT INTO ids (n) SELECT g FROM generate_series(1, $ROWS / 2) g;
INSERT INTO ids (u, x, t, f, e, r, n)
SELECT generate_ulid_at(ts), generate_xid_at(ts), generate_tid_at(ts), generate_ulidflake_at(ts, 9),
       CASE WHEN g % 10 = 0 THEN NULL ELSE generate_euid_at(ts, g % 100) END,
       CASE g % 3 WHEN 0 THEN NULL WHEN 1 THEN ulid_time_range(tstzrange(ts, ts + interval '1 minute'))
                  ELSE 'empty' END,
       g
FROM generate_series($ROWS / 2 + 1, $ROWS) g,
     LATERAL (SELECT now() - g * interval '1 second' AS ts) s;
INSERT INTO ids_full (n, r) SELECT g, CASE WHEN g % 2 = 0 THEN ulid_prefix_range(left(generate_ulid()::text, 6)) END
FROM generate_series(1, $ROWS) g;
CREATE PUBLICATION idt_pub FOR TABLE ids, ids_full;
SQL

conn="host=$pdir port=$pport user=postgres dbname=pub"
if [ "$major" -lt 14 ]; then
	got=$(S sub_text -c "CREATE SUBSCRIPTION s_try CONNECTION '$conn' PUBLICATION idt_pub WITH (binary = true, connect = false)" 2>&1 || true)
	if grep -q 'unrecognized subscription parameter: "binary"' <<<"$got"; then
		ok "PostgreSQL $major has no binary subscription option (14+): $got; text mode only"
	else
		bad "CREATE SUBSCRIPTION ... (binary = true) on $major gave: $got"
	fi
fi
log_from=$(stat -c %s "$sdir/server.log")
S sub_text -c "SET client_min_messages = warning" -c "CREATE SUBSCRIPTION s_text CONNECTION '$conn' PUBLICATION idt_pub"
if [ "$major" -ge 14 ]; then
	S sub_bin -c "SET client_min_messages = warning" -c "CREATE SUBSCRIPTION s_bin CONNECTION '$conn' PUBLICATION idt_pub WITH (binary = true)"
	if [ "$(S sub_bin -c "SELECT subbinary FROM pg_subscription WHERE subname = 's_bin'")" = t ]; then
		ok "s_bin is a binary subscription"
	else
		bad "s_bin is not binary"
	fi
fi
sub_of() { [ "$1" = sub_text ] && echo s_text || echo s_bin; }

# wait_synced <db>: every table of the database's subscription has finished its initial copy.
wait_synced() {
	local db=$1 deadline=$((SECONDS + TIMEOUT))
	until [ "$(S "$db" -c "SELECT count(*) = 2 AND bool_and(srsubstate = 'r') FROM pg_subscription_rel")" = t ]; do
		if [ $SECONDS -ge $deadline ]; then
			bad "$db: initial copy not finished in $TIMEOUT s: $(S "$db" -c "SELECT string_agg(srrelid::regclass || '=' || srsubstate, ' ') FROM pg_subscription_rel")"
			return 1
		fi
		sleep 0.2
	done
}
# wait_caught_up <db>: the publisher's walsender for the subscription has replay_lsn (the
# position the subscriber reports applied and flushed) at or past the publisher's current WAL.
wait_caught_up() {
	local db=$1 sub target deadline=$((SECONDS + TIMEOUT))
	sub=$(sub_of "$db")
	target=$(P -c "SELECT pg_current_wal_lsn()")
	until [ "$(P -c "SELECT coalesce(bool_and(replay_lsn >= '$target'::pg_lsn AND state = 'streaming'), false)
		FROM pg_stat_replication WHERE application_name = '$sub'")" = t ]; do
		if [ $SECONDS -ge $deadline ]; then
			bad "$db: $sub did not reach $target in $TIMEOUT s: $(P -c "SELECT string_agg(application_name || ' ' || state || ' ' || coalesce(replay_lsn::text, '-'), '; ') FROM pg_stat_replication")"
			return 1
		fi
		sleep 0.2
	done
}

digest() { # digest <table> <order>
	echo "SELECT md5(coalesce(string_agg(q::text, ',' ORDER BY $2), '')) || ':' || count(*) FROM $1 q"
}
# compare <when>: every subscriber database has the publisher's rows in both tables.
compare() {
	local db tab want got
	for db in "${SUBS[@]}"; do
		for tab in "ids u" "ids_full q::text"; do
			read -r tab order <<<"$tab"
			want=$(P -c "$(digest "$tab" "$order")")
			got=$(S "$db" -c "$(digest "$tab" "$order")")
			if [ "$want" = "$got" ]; then
				ok "$1: $db.$tab has the publisher's ${want#*:} rows"
			else
				bad "$1: $db.$tab '$got', publisher '$want'"
			fi
		done
	done
}

for db in "${SUBS[@]}"; do
	if wait_synced "$db"; then wait_caught_up "$db" || true; fi
done
echo "initial copy done in $((SECONDS - start)) s"
compare "initial copy"

# 10,000 inserts, with updates and deletes: two pgbench clients in 2,000 small transactions (each
# two inserts, two updates and a delete), then bulk statements (6,000 inserts, updates of about
# 40% of the rows, deletes of about 20%).
cat >"$work/tx.sql" <<'SQL'
\set k random(1, 9000)
BEGIN;
INSERT INTO ids (n, r) VALUES (100000 + :k, ulid_time_range(tstzrange(now(), now() + interval '1 s')));
INSERT INTO ids_full (n) VALUES (100000 + :k);
UPDATE ids SET x = generate_xid(), t = generate_tid(), r = NULL WHERE n = :k;
UPDATE ids_full SET u = generate_ulid(), f = generate_ulidflake() WHERE n = :k + 1;
DELETE FROM ids_full WHERE n = :k + 2;
COMMIT;
SQL
lstart=$SECONDS
if ! "$PGBIN/pgbench" -n -h "$pdir" -p "$pport" -U postgres -c 2 -j 2 -t 1000 -f "$work/tx.sql" pub >"$work/pgbench.log" 2>&1; then
	bad "pgbench on the publisher failed:"
	tail -n 20 "$work/pgbench.log"
fi
P <<SQL
INSERT INTO ids (n) SELECT g FROM generate_series($ROWS + 1, $ROWS + 3000) g;
INSERT INTO ids_full (n, e) SELECT g, generate_euid(g % 300) FROM generate_series($ROWS + 1, $ROWS + 3000) g;
UPDATE ids SET u = generate_ulid_monotonic() WHERE n % 10 = 3;
UPDATE ids SET x = generate_xid(), t = generate_tid(), f = generate_ulidflake(), e = NULL WHERE n % 10 = 5;
UPDATE ids SET e = generate_euid(), r = ulid_prefix_range(left(u::text, 4)) WHERE n % 10 = 6;
UPDATE ids_full SET x = generate_xid(), e = NULL, r = 'empty' WHERE n % 10 = 7;
DELETE FROM ids WHERE n % 10 = 9;
DELETE FROM ids_full WHERE n % 10 = 1;
SQL
echo "workload on the publisher: $((SECONDS - lstart)) s; ids $(P -c "SELECT count(*) FROM ids") rows, ids_full $(P -c "SELECT count(*) FROM ids_full") rows"

for db in "${SUBS[@]}"; do
	wait_caught_up "$db" || true
done
echo "caught up $((SECONDS - lstart)) s after the workload began"
compare "after 10,000 inserts, updates and deletes"

# 16+: the apply worker finds REPLICA IDENTITY FULL rows through a btree index on an ID column.
if [ "$major" -ge 16 ]; then
	for db in "${SUBS[@]}"; do
		deadline=$((SECONDS + 15))
		until [ "$(S "$db" -c "SELECT coalesce(sum(idx_scan), 0) > 0 FROM pg_stat_user_indexes WHERE relname = 'ids_full'")" = t ]; do
			[ $SECONDS -ge $deadline ] && break
			sleep 0.5
		done
		got=$(S "$db" -c "SELECT string_agg(indexrelname || '=' || idx_scan, ' ' ORDER BY indexrelname) FROM pg_stat_user_indexes WHERE relname = 'ids_full'")
		if grep -qE '=[1-9]' <<<"$got"; then
			ok "$db: the apply worker looked up ids_full (replica identity full) rows through an ID index ($got)"
		else
			bad "$db: no index scan on ids_full's ID indexes ($got)"
		fi
	done
fi

# The subscriber's IDs are the publisher's, so its unique index holds; and no apply error.
for db in "${SUBS[@]}"; do
	got=$(S "$db" -c "SELECT count(*) = count(DISTINCT u) FROM ids")
	if [ "$got" = t ]; then ok "$db: primary key values distinct"; else bad "$db: duplicate primary key values"; fi
done
errs=$(tail -c +$((log_from + 1)) "$sdir/server.log" | grep -E 'ERROR|FATAL' | grep -v 'terminating logical replication worker due to administrator command' || true)
if [ -z "$errs" ]; then ok "the subscriber logged no error"; else bad "the subscriber logged errors:"; echo "$errs" | head -n 10; fi

echo "logical_replication.sh on PostgreSQL $major: $((SECONDS - start)) s"
# Per subscriber database: 2 tables compared twice, distinct keys, and (16+) the apply worker's
# index use; then no error logged, and s_bin binary (14+) or the option refused (13).
expected=$((5 * ${#SUBS[@]} + 2))
[ "$major" -lt 16 ] || expected=$((expected + ${#SUBS[@]}))
finish $expected
