#!/usr/bin/env bash
# minor_release.sh: the library loads, and every type works, on a server that lacks
# all_rows_selectable() (PostgreSQL 15.0-15.13, 16.0-16.9, 17.0-17.5), whatever headers it was
# built against; only the statistics hook that needs the function stays off. The library takes
# the function as a weak reference (src/compat.h): this build has it so (nm), and a copy built
# with that reference renamed to a symbol no server has (IDT_ALL_ROWS_SELECTABLE_SYMBOL), as a
# server without the function would leave it, loads on a cluster of its own: the types work,
# and the estimate of a window of rows added since ANALYZE is core's own (the hook is off),
# while this build's, on the test cluster, is the extended one.
#
# Run by test/run_tests.sh with PG_CONFIG, PGBIN, PGHOST/PGPORT/PGUSER (a cluster with this
# build) and IDTYPES_TEST_START_CLUSTER set, after the build. Exit status 0 = pass.
set -euo pipefail
trap '' PIPE
: "${PGBIN:?PGBIN must point at the PostgreSQL bin directory}"
: "${PG_CONFIG:?PG_CONFIG must name the pg_config of the server}"
. "$(dirname "$0")/../lib/report.sh"
. "$(dirname "$0")/../lib/nodes.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
nodes_workdir

if grep -qE '^ +w all_rows_selectable$' <<<"$(nm -D "$top/idtypes.so")"; then
	ok "idtypes.so takes all_rows_selectable as a weak reference"
else
	bad "idtypes.so does not take all_rows_selectable as a weak reference: $(nm -D "$top/idtypes.so" | grep all_rows_selectable || echo absent)"
fi

# The copy: this build's objects, stats_hook.o rebuilt with the reference renamed.
mkdir -p "$work/build/fuzz"
cp -a "$top/Makefile" "$top"/idtypes*.control "$top"/idtypes--*.sql "$top"/idtypes_uuidv7--*.sql "$top/src" "$top/core" "$work/build/"
# (and the build's stamps, so that only stats_hook.o is rebuilt)
cp -a "$top/.pg_config.stamp" "$top/.objects.list" "$work/build/" 2>/dev/null || true
cp -a "$top/fuzz/fuzz.mk" "$work/build/fuzz/"
cp -a "$top/mk" "$work/build/"
rm -f "$work/build/src/planner/stats_hook.o"
inc=$("$PG_CONFIG" --includedir-server)
if ! make -s -C "$work/build" PG_CONFIG="$PG_CONFIG" \
	PG_CPPFLAGS="-Icore/include -Isrc -isystem $inc -DIDT_ALL_ROWS_SELECTABLE_SYMBOL=\\\"idt_no_such_symbol\\\"" \
	all install DESTDIR="$work/stage" >"$work/build.log" 2>&1; then
	cat "$work/build.log"
	bad "the copy without all_rows_selectable did not build"
	finish 5
fi
copy_symbols=$(nm -D "$work/build/idtypes.so")
if grep -qE '^ +w idt_no_such_symbol$' <<<"$copy_symbols" && ! grep -q all_rows_selectable <<<"$copy_symbols"; then
	ok "the copy refers to idt_no_such_symbol instead (weak)"
else
	bad "the copy's reference: $(nm -D "$work/build/idtypes.so" | grep -E 'all_rows|no_such' | tr '\n' ' ')"
fi

port=$((PGPORT + 25))
IDTYPES_EXTENSION_DESTDIR=$work/stage node_start "$work/pg" "$port"
q() { node_psql "$work/pg" "$port" "$@"; }

# The estimate of the last hour, by core's >=, on a table grown since ANALYZE: 19,900 rows over
# 20 days, ANALYZE, 2,000 rows in the last 10 minutes. Prints "<estimate> <rows>".
cat >"$work/estimate.sql" <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS idtypes;
DROP TABLE IF EXISTS minor_ids;
CREATE TABLE minor_ids (id ulid) WITH (autovacuum_enabled = off);
INSERT INTO minor_ids SELECT generate_ulid_at(now() - interval '20 days' + interval '20 days' * i / 19900)
FROM generate_series(1, 19900) i;
CREATE INDEX ON minor_ids (id);
ANALYZE minor_ids;
INSERT INTO minor_ids SELECT generate_ulid_at(now() - interval '10 minutes' + interval '10 minutes' * i / 2000)
FROM generate_series(1, 2000) i;
CREATE FUNCTION pg_temp.minor_estimate(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE plan json; n bigint;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
	EXECUTE 'SELECT count(*) FROM (' || q || ') s' INTO n;
	RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows') || ' ' || n;
END $$;
SELECT pg_temp.minor_estimate(format('SELECT * FROM minor_ids WHERE id >= %L',
	ulid_first_at(now() - interval '1 hour')));
DROP TABLE minor_ids;
SQL
types="SELECT generate_ulid() IS NOT NULL, '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid::ulid::text,
	'3kxn-lhr-3gxq-23'::timeid::text"
if out=$(q -c "CREATE EXTENSION idtypes" -c "$types" 2>&1) && [ "$out" = "t|01ARZ3NDEKTSV4RRFFQ69G5FAV|3kxnlhr3gxq23" ]; then
	ok "the copy loads and its types work"
else
	bad "the copy: $out"
fi
read -r est rows < <(q -f "$work/estimate.sql" | tail -1)
db=idt_minor_$$
"$PGBIN/psql" -X -q -d postgres -c "CREATE DATABASE $db"
read -r est_on rows_on < <("$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At -d "$db" -f "$work/estimate.sql" | tail -1)
"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE $db"
echo "the last hour, $rows rows: estimated $est without the hook, $est_on with it"
if awk -v e="$est" -v r="$rows" 'BEGIN { exit !(e * 10 < r) }'; then
	ok "without all_rows_selectable the statistics hook is off (core's estimate, $est for $rows rows)"
else
	bad "without all_rows_selectable the estimate is $est for $rows rows: the hook ran"
fi
if awk -v e="$est_on" -v r="$rows_on" 'BEGIN { exit !(e * 3 >= r && e <= 3 * r) }'; then
	ok "with it, the hook extends the statistics ($est_on for $rows_on rows)"
else
	bad "with all_rows_selectable the estimate is $est_on for $rows_on rows"
fi
finish 5
