#!/usr/bin/env bash
# physical_replica.sh: the five types on a streaming hot standby.
#
# A primary with a table of all five types (the ulid the primary key, a btree index on each other
# ID column, a ulidrange column, column defaults), PHYS_ROWS (default 20,000) rows spread over
# hours; a standby made from it by `pg_basebackup -R` while it holds those rows; then inserts
# (defaults), updates (of ID columns too) and deletes on the primary while the standby streams.
# Once the standby has replayed the primary's WAL position (polled, with a timeout):
#   - the standby's rows are the primary's (md5 of the ordered rows);
#   - per type, on the standby, `id ^@ 'prefix'` and `id <@ <type>_time_range(...)` plan an index
#     scan on that column's btree index and return the primary's rows, which are also the rows
#     whose text starts with the prefix / whose timestamp lies in the window;
#   - on the standby the monotonic generators refuse (their IDs could equal the primary's), the
#     random ones run (read-only queries).
#
# Run by test/run_tests.sh (PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set). Ports PGPORT+52
# (primary) and PGPORT+53 (standby).
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/nodes.sh"
. "$(dirname "$0")/../lib/ids_table.sh"

ROWS=${PHYS_ROWS:-20000}
TIMEOUT=${PHYS_TIMEOUT:-60}
nodes_workdir
major=$(server_major)
pdir=$work/primary pport=$((PGPORT + 52))
sdir=$work/standby sport=$((PGPORT + 53))
P() { node_psql "$pdir" "$pport" -d phys "$@"; }
S() { node_psql "$sdir" "$sport" -d phys "$@"; }

. "$(dirname "$0")/../lib/report.sh"

start=$SECONDS
node_start "$pdir" "$pport"
node_psql "$pdir" "$pport" -d postgres -c "CREATE DATABASE phys"
P <<SQL
CREATE EXTENSION idtypes;
$(ids_table_sql ids)
INSERT INTO ids (u, x, t, f, e, r, n)
SELECT generate_ulid_at(ts), generate_xid_at(ts), generate_tid_at(ts), generate_ulidflake_at(ts),
       generate_euid_at(ts),
       CASE g % 3 WHEN 0 THEN NULL WHEN 1 THEN ulid_time_range(tstzrange(ts, ts + interval '1 minute'))
                  ELSE 'empty' END,
       g
FROM generate_series(1, $ROWS) g,
     LATERAL (SELECT now() - g * interval '1 second' - random() * interval '900 ms' AS ts) s;
SQL

# The standby: a base backup of the running primary, with primary_conninfo and standby.signal.
if ! node_basebackup "$pdir" "$pport" "$sdir"; then
	echo "FAILED: pg_basebackup"
	exit 1
fi
node_start "$sdir" "$sport"
if [ "$(S -c "SELECT pg_is_in_recovery()")" = t ]; then ok "the standby is in recovery (hot standby)"; else bad "the standby is not in recovery"; fi

# Changes while the standby streams: inserts from the defaults, updates of ID columns (the primary
# key too), deletes; then ANALYZE and VACUUM (statistics and visibility map reach the standby too).
P <<SQL
INSERT INTO ids (n, r) SELECT g, ulid_prefix_range(left(generate_ulid()::text, 5))
FROM generate_series($ROWS + 1, $ROWS + 2000) g;
UPDATE ids SET x = generate_xid_at(xid_timestamp(x)), e = generate_euid_at(euid_timestamp(e)) WHERE n % 7 = 0;
UPDATE ids SET u = generate_ulid_at(ulid_timestamp(u)) WHERE n % 11 = 0;
UPDATE ids SET t = generate_tid_at(timeid_timestamp(t), 7), f = generate_ulidflake_at(ulidflake_timestamp(f), 3) WHERE n % 13 = 0;
DELETE FROM ids WHERE n % 17 = 0;
ANALYZE ids;
VACUUM ids;
SQL

# wait_replay: the standby has replayed the primary's current WAL position.
wait_replay() {
	local target deadline=$((SECONDS + TIMEOUT))
	target=$(P -c "SELECT pg_current_wal_lsn()")
	while :; do
		if [ "$(S -c "SELECT pg_last_wal_replay_lsn() >= '$target'::pg_lsn")" = t ]; then
			ok "the standby replayed the primary's WAL up to $target"
			return 0
		fi
		if [ $SECONDS -ge $deadline ]; then
			bad "the standby did not replay up to $target in $TIMEOUT s (at $(S -c "SELECT pg_last_wal_replay_lsn()"))"
			return 1
		fi
		sleep 0.2
	done
}
wait_replay || true
echo "primary and standby ready in $((SECONDS - start)) s ($(P -c "SELECT count(*) FROM ids") rows)"

digest() { echo "SELECT md5(coalesce(string_agg(q::text, ',' ORDER BY q::text), '')) || ':' || count(*) FROM ($1) q"; }
want=$(P -c "$(digest "SELECT * FROM ids")")
got=$(S -c "$(digest "SELECT * FROM ids")")
if [ "$want" = "$got" ]; then ok "the standby has the primary's ${want#*:} rows"; else bad "standby rows '$got', primary '$want'"; fi

# indexed <what> <index> <query>: the standby's plan reads the index, and no Seq Scan.
indexed() {
	local plan
	plan=$(S -c "EXPLAIN (COSTS OFF) $3")
	if grep -qE "(Index Scan|Index Only Scan) using $2 |Bitmap Index Scan on $2\$" <<<"$plan" &&
		! grep -q 'Seq Scan' <<<"$plan"; then
		ok "$1: the standby plans $(grep -oE '(Index Scan|Index Only Scan|Bitmap Index Scan)' <<<"$plan" | head -1) on $2"
	else
		bad "$1: the standby's plan does not use $2:"
		sed 's/^/    /' <<<"$plan"
	fi
}
# same <what> <query> <reference query on the primary>: the standby's rows are the primary's and
# the reference's (at least one row).
same() {
	local p s r
	p=$(P -c "$(digest "$2")")
	s=$(S -c "$(digest "$2")")
	r=$(P -c "$(digest "$3")")
	if [ "$p" = "$s" ] && [ "$p" = "$r" ] && [ "${p#*:}" != 0 ]; then
		ok "$1: ${p#*:} rows on the standby, as on the primary"
	else
		bad "$1: standby '$s', primary '$p', reference '$r'"
	fi
}

for ct in "x uid11 ids_x" "t timeid ids_t" "f ulidflake ids_f" "u ulid ids_pkey" "e euid ids_e"; do
	read -r c ty idx <<<"$ct"
	tsf=${ty/uid11/xid}_timestamp
	# A value from the middle of the data, a prefix of it shared by ~1% of the rows at most, and a
	# 200-second window around its time.
	val=$(P -c "SELECT $c FROM ids ORDER BY $c OFFSET $((ROWS / 2)) LIMIT 1")
	prefix=$(P -c "SELECT p FROM generate_series(1, 12) len, LATERAL (SELECT left('$val', len) AS p) s
		WHERE (SELECT count(*) FROM ids WHERE left($c::text, len) = p) <= $ROWS / 100 ORDER BY len LIMIT 1")
	read -r lo hi <<<"$(P -F ' ' -c "SELECT floor(extract(epoch FROM $tsf('$val'::$ty)))::bigint - 100, floor(extract(epoch FROM $tsf('$val'::$ty)))::bigint + 100")"
	window="tstzrange(to_timestamp($lo), to_timestamp($hi))"

	q="SELECT * FROM ids WHERE $c ^@ '$prefix'"
	indexed "$ty: $c ^@ '$prefix'" "$idx" "$q"
	same "$ty: $c ^@ '$prefix'" "$q" "SELECT * FROM ids WHERE left($c::text, ${#prefix}) = '$prefix'"

	q="SELECT * FROM ids WHERE $c <@ ${ty}_time_range($window)"
	indexed "$ty: $c <@ ${ty}_time_range(200 s)" "$idx" "$q"
	same "$ty: $c <@ ${ty}_time_range(200 s)" "$q" \
		"SELECT * FROM ids WHERE $tsf($c) >= to_timestamp($lo) AND $tsf($c) < to_timestamp($hi)"
done

got=$(S -c "SELECT generate_ulid() IS NOT NULL AND generate_xid_at(now()) IS NOT NULL AND generate_tid_at(now()) IS NOT NULL
	AND generate_ulidflake_at(now()) IS NOT NULL AND generate_ulid_at(now()) IS NOT NULL AND generate_euid_at(now()) IS NOT NULL")
if [ "$got" = t ]; then ok "the random generators run on the standby"; else bad "random generators on the standby: '$got'"; fi
refused=0
for g in "generate_xid()" "generate_tid()" "generate_ulidflake()" "generate_ulid_monotonic()" "generate_euid()"; do
	got=$(S -v VERBOSITY=verbose -c "SELECT $g" 2>&1 || true)
	if grep -q "25006: cannot generate a monotonic .* during recovery" <<<"$got"; then
		refused=$((refused + 1))
	else
		bad "$g on the standby gave: $got"
	fi
done
[ "$refused" -ne 5 ] || ok "the standby refuses the 5 monotonic generators (25006)"
got=$(S -c "INSERT INTO ids (n) VALUES (-1)" 2>&1 || true)
if grep -q 'read-only transaction' <<<"$got"; then ok "the standby refuses writes"; else bad "an INSERT on the standby gave: $got"; fi

echo "physical_replica.sh on PostgreSQL $major: $((SECONDS - start)) s"
# Recovery, replay, rows, 4 per type, the random generators, the monotonic ones refused, writes refused.
finish $((3 + 4 * 5 + 3))
