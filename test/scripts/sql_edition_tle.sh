#!/usr/bin/env bash
# sql_edition_tle.sh: the SQL edition through pg_tle, as on Amazon RDS/Aurora and Supabase: a
# server with pg_tle preloaded (pg_tle built by scripts/vendor-build.sh from the vendored source the
# first time), then every check of sql_edition.sh with the pg_tle package installed by a role with
# pgtle_admin and no superuser, and the package's update path and uninstall. Twice on 15 and 16:
# pg_tle 1.5.2, and 1.4.0 (the oldest line services still run: no schema argument, so the
# extension is created with SCHEMA idtypes_sql); each time also sql_edition_dump.py's pg_dump and
# restores of the extension; once on 17 and later (1.5.2, or for 19 an upstream
# commit after it). Then, with pg_tle 1.3.4's catalog (1.4.0 updated back is not possible: a
# database whose pg_tle says 1.3.4), the package refuses with the minimum.
#
# Run by test/run_tests.sh (PG_CONFIG, PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set). Exit
# status 77 where pg_tle's source is not at hand, and where pg_tle is not installed and this user
# cannot install it.
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/nodes.sh"
. "$here/../lib/vendor.sh"

major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
versions=default
[ "$major" -le 16 ] && versions="default 1.4.0"

nodes_workdir
port=$((PGPORT + 40))
for v in $versions; do
	if [ "$v" = default ]; then
		unset IDTYPES_PG_TLE_VERSION
	else
		export IDTYPES_PG_TLE_VERSION=$v
	fi
	vendor_require pg_tle pg_tle "pg_tle-1.5.2.tar.gz and pg_tle-1.4.0.tar.gz (2f4b7b3 for 19)"
	node_start "$work/tle-$v" "$port" -c shared_preload_libraries=pg_tle
	echo "pg_tle $(PGHOST=$work/tle-$v PGPORT=$port "$PGBIN/psql" -X -At -U postgres -d postgres \
		-c "SELECT default_version FROM pg_available_extensions WHERE name = 'pg_tle'")"
	PGHOST=$work/tle-$v PGPORT=$port PGUSER=postgres IDTYPES_SQL_EDITION_VIA=pg_tle bash "$here/sql_edition.sh"
	PGHOST=$work/tle-$v PGPORT=$port PGUSER=postgres IDTYPES_SQL_EDITION_VIA=pg_tle "$here/sql_edition_dump.py"
	if [ "$v" = 1.4.0 ]; then
		# pg_tle's catalog at 1.3.4 (its library 1.4.0): the package refuses, naming the minimum.
		out=$(PGHOST=$work/tle-$v PGPORT=$port "$PGBIN/psql" -X -q -U postgres -d postgres -v ON_ERROR_STOP=1 \
			-c "CREATE DATABASE tle_old" 2>&1 &&
			PGHOST=$work/tle-$v PGPORT=$port "$PGBIN/psql" -X -q -U postgres -d tle_old -v ON_ERROR_STOP=1 \
				-c "CREATE EXTENSION pg_tle VERSION '1.3.4'" -f "$here/../../sql_edition/idtypes_sql.pg_tle.sql" 2>&1) || true
		if grep -q "ERROR:  idtypes_sql needs pg_tle 1.4.0 or later, not 1.3.4" <<<"$out"; then
			echo "ok   pg_tle 1.3.4's catalog: the package refuses, naming the minimum"
		else
			echo "FAIL pg_tle 1.3.4's catalog: the package said: $out"
			exit 1
		fi
	fi
	node_stop "$work/tle-$v" "$port"
done
