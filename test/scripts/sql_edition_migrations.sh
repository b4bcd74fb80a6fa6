#!/usr/bin/env bash
# sql_edition_migrations.sh: the SQL edition's migration applied the ways managed users apply SQL
# (psql -1 -f and psql -f, psycopg 3, Django's RunSQL, Alembic, node-postgres, node-pg-migrate, a
# Supabase migrations/ directory over 1.1's script), each leaving the psql script's objects: the
# checks are sql_edition_migrations.py beside it. Here: the packages they need (scripts/install-deps.sh
# orm-python, as root; not root and missing: exit status 77), and test/orm/node's packages from its
# lock file (in orm_node.sh's cache, test/lib/npm_cache.sh) where node 20.11+ and npm are; where
# they are not (the chroots of 17 and 18: the client's side is the same on every server, and the
# server's side is psycopg's one simple-query string), the node forms are a "skip:" line.
#
# Run by test/run_tests.sh with PGHOST/PGPORT/PGUSER (a superuser)/PGBIN pointing at a running
# cluster. Exit status 0 = pass.
set -uo pipefail
trap '' PIPE
: "${PGBIN:?PGBIN must point at the PostgreSQL bin directory}"
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/test/lib/packages.sh"
group_packages orm-python "psycopg 3, Django and Alembic"

export IDTYPES_MIGRATIONS_NODE_MODULES='' IDTYPES_MIGRATIONS_NODE_SKIP=''
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	IDTYPES_MIGRATIONS_NODE_SKIP="no node and npm here"
elif [ "$(printf '%s\n' 20.11 "$(node -p process.versions.node)" | sort -V | head -n 1)" != 20.11 ]; then
	IDTYPES_MIGRATIONS_NODE_SKIP="node-pg-migrate 8 needs Node.js 20.11 or later, this is $(node -p process.versions.node)"
else
	. "$here/test/lib/npm_cache.sh"
	cache=$(cache_dir orm-node IDTYPES_ORM_NODE_CACHE)
	if npm_ci_cached "$here/test/orm/node" "$cache" node-pg-migrate --ignore-scripts >"$work/npm.log" 2>&1; then
		IDTYPES_MIGRATIONS_NODE_MODULES=$cache/node_modules
	else
		cat "$work/npm.log"
		echo "FAILED: npm ci of test/orm/node failed (above)"
		exit 1
	fi
fi
/usr/bin/python3 "$here/test/scripts/sql_edition_migrations.py"
