#!/usr/bin/env bash
# sql_edition_tle.sh: the SQL edition through pg_tle, as on Amazon RDS/Aurora and Supabase: a
# server with pg_tle preloaded (pg_tle built by scripts/vendor-build.sh from the vendored source the
# first time), then every check of sql_edition.sh with the pg_tle package installed by a role with
# pgtle_admin and no superuser, and the package's update path and uninstall.
#
# Run by test/run_tests.sh (PG_CONFIG, PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set). Exit
# status 77 where pg_tle's source is not at hand, and where pg_tle is not installed and this user
# cannot install it.
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/nodes.sh"
. "$here/../lib/vendor.sh"

vendor_require pg_tle pg_tle "pg_tle-1.5.2.tar.gz (2f4b7b3 for 19)"

nodes_workdir
port=$((PGPORT + 40))
node_start "$work/tle" "$port" -c shared_preload_libraries=pg_tle
PGHOST=$work/tle PGPORT=$port PGUSER=postgres IDTYPES_SQL_EDITION_VIA=pg_tle bash "$here/sql_edition.sh"
