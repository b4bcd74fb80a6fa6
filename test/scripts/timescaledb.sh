#!/usr/bin/env bash
# timescaledb.sh: a TimescaleDB hypertable on each of the five ID types (the release's
# postgresql-<major>-timescaledb), chunked by day through partition_func = the ID's time: rows of
# six days make six chunks, and constant id <@ <type>_time_range(one day) and id ^@ <prefix of a
# row> scan one chunk and count what a filter on the ID's time (or text) counts: the checks are
# timescaledb.sql beside this script. Then docs/reference.md's TimescaleDB block runs as written
# (test/lib/docblocks.sh's doc_run) and must print what the doc shows.
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
out=$work/checks.out
q -v skew="${IDTYPES_TIMESCALEDB_SKEW:-0}" -f "$here/timescaledb.sql" >"$out" 2>&1 || echo "FAILED: timescaledb.sql stopped" >>"$out"
cat "$out"
tally "$out"

# docs/reference.md's TimescaleDB block, as written, in a database of its own.
q -c "CREATE DATABASE idt_timescaledb_doc"
node_psql "$work/ts" "$port" -d idt_timescaledb_doc -c "CREATE EXTENSION idtypes" \
	-c "CREATE EXTENSION timescaledb" 2>&1 | grep -v WARNING || true
doc_run "$here/../../docs/reference.md" timescaledb.sh -h "$work/ts" -p "$port" -U postgres -d idt_timescaledb_doc

finish 11
