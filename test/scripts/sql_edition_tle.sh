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

status=0
bash "$here/../../scripts/vendor-build.sh" pg_tle "$PG_CONFIG" || status=$?
if [ "$status" -eq 3 ]; then
	# A clone has no pg_tle source (it is not ours to ship); CI's matrix still requires this test.
	echo "no pg_tle source: put pg_tle-1.5.2.tar.gz (2f4b7b3 for 19) and its SHA256SUMS line in a directory named by IDTYPES_VENDOR_DIR to run this test"
	exit 77
elif [ "$status" -eq 4 ]; then
	echo "pg_tle is not installed in this server and installing it needs root: run make test as root to run this test"
	exit 77
elif [ "$status" -ne 0 ]; then
	echo "FAILED: pg_tle did not build"
	exit 1
fi

nodes_workdir
port=$((PGPORT + 40))
node_start "$work/tle" "$port" -c shared_preload_libraries=pg_tle
PGHOST=$work/tle PGPORT=$port PGUSER=postgres IDTYPES_SQL_EDITION_VIA=pg_tle bash "$here/sql_edition.sh"
