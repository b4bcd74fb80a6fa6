#!/usr/bin/env bash
# timescaledb.sh: a TimescaleDB hypertable on each of the five ID types (the release's
# postgresql-<major>-timescaledb), chunked by day through partition_func = the ID's time: rows of
# six days make six chunks, and constant id <@ <type>_time_range(one day) and id ^@ <prefix of a
# row> scan one chunk and count what a filter on the ID's time (or text) counts. Then
# docs/reference.md's TimescaleDB block runs as written (test/lib/docblocks.sh's doc_run) and must
# print what the doc shows.
#
# Run by test/run_tests.sh (PGBIN, PGPORT, IDTYPES_TEST_START_CLUSTER set); starts its own cluster
# with timescaledb preloaded. Installs the package with scripts/install-deps.sh where the release
# has it; exit status 77 where it has none.
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/nodes.sh"
. "$here/../lib/report.sh"
. "$here/../lib/packages.sh"
. "$here/../lib/docblocks.sh"

major=$(server_major)
pkg=postgresql-$major-timescaledb
release_package "$pkg" timescaledb

nodes_workdir
export PGTZ=UTC
port=$((PGPORT + 40))
node_start "$work/ts" "$port" -c shared_preload_libraries=timescaledb -c timescaledb.telemetry_level=off
q() { node_psql "$work/ts" "$port" -d postgres "$@"; }
q -c "CREATE EXTENSION idtypes" -c "CREATE EXTENSION timescaledb" 2>&1 | grep -v WARNING || true
echo "TimescaleDB $(q -c "SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'") ($pkg $(dpkg-query -W -f='${Version}' "$pkg"))"
# IDTYPES_TIMESCALEDB_SKEW shifts the partitioning function (to see the checks fail).
skew=${IDTYPES_TIMESCALEDB_SKEW:-0}
today=$(q -c "SELECT date_trunc('day', now())::date")

for t in uid11 timeid ulidflake ulid euid; do
	case $t in
	uid11) gen=generate_xid_at ;; timeid) gen=generate_tid_at ;; *) gen=generate_${t}_at ;;
	esac
	h=hy_$t
	q >/dev/null <<SQL
CREATE FUNCTION public.${t}_time(public.$t) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT public.${t}_timestamp(\$1) + interval ''$skew''';
CREATE TABLE $h (id $t NOT NULL, day date NOT NULL);
SELECT create_hypertable('$h', by_range('id', interval '1 day', partition_func => 'public.${t}_time'));
INSERT INTO $h SELECT $gen(d + random() * interval '1 day'), d FROM generate_series(-5, 0) k,
	LATERAL (SELECT (date '$today' + k)::timestamptz AS d) s, generate_series(1, 40);
ANALYZE $h;
SQL
	d=$(q -c "SELECT date '$today' - 1")
	chunks=$(q -c "SELECT count(*) FROM show_chunks('$h')")
	plan=$(q -c "EXPLAIN (COSTS OFF) SELECT count(*) FROM $h WHERE id <@ ${t}_time_range('[$d, $d 24:00)')")
	scanned=$(printf '%s\n' "$plan" | grep -cE 'Scan on _hyper_' || true)
	got=$(q -c "SELECT count(*) FROM $h WHERE id <@ ${t}_time_range('[$d, $d 24:00)')")
	want=$(q -c "SELECT count(*) FROM $h WHERE day = '$d'")
	if [ "$chunks" = 6 ] && [ "$scanned" = 1 ] && [ "$got" = "$want" ] && [ "$got" = 40 ]; then
		ok "$t: 6 daily chunks; id <@ ${t}_time_range(one day) scans one chunk, $got rows as that day has"
	else
		bad "$t: $chunks chunks (want 6); <@ one day: $scanned chunks scanned (want 1), $got rows (that day: $want, want 40); plan: $plan"
	fi

	prefix=$(q -c "SELECT left(id::text, length(id::text) - 4) FROM $h
		WHERE day = '$d' AND ${t}_timestamp(id) BETWEEN '$d 01:00' AND '$d 23:00' ORDER BY id LIMIT 1")
	plan=$(q -c "EXPLAIN (COSTS OFF) SELECT count(*) FROM $h WHERE id ^@ '$prefix'")
	scanned=$(printf '%s\n' "$plan" | grep -cE 'Scan on _hyper_' || true)
	got=$(q -c "SELECT count(*) FROM $h WHERE id ^@ '$prefix'")
	want=$(q -c "SELECT count(*) FROM $h WHERE left(id::text, length('$prefix')) = '$prefix'")
	if [ "$scanned" = 1 ] && [ "$got" = "$want" ] && [ "$got" -ge 1 ]; then
		ok "$t: id ^@ '$prefix' scans one chunk, $got rows as a filter on the text"
	else
		bad "$t: ^@ '$prefix': $scanned chunks scanned (want 1), $got rows (text filter: $want); plan: $plan"
	fi
done

# docs/reference.md's TimescaleDB block, as written, in a database of its own.
q -c "CREATE DATABASE idt_timescaledb_doc"
node_psql "$work/ts" "$port" -d idt_timescaledb_doc -c "CREATE EXTENSION idtypes" \
	-c "CREATE EXTENSION timescaledb" 2>&1 | grep -v WARNING || true
doc_run "$here/../../docs/reference.md" timescaledb.sh -h "$work/ts" -p "$port" -U postgres -d idt_timescaledb_doc

finish 11
