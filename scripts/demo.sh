#!/usr/bin/env bash
# demo.sh (`make demo`): build and install idtypes, then run demo/demo.sql on a throwaway cluster.
set -euo pipefail
trap '' PIPE
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh

PG_CONFIG=${PG_CONFIG:-pg_config}
export PGBIN=$("$PG_CONFIG" --bindir)
export PGPORT=${IDTYPES_TEST_PORT:-54329} PGUSER=postgres PGDATABASE=postgres

make --no-print-directory -s
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'bash test/cluster.sh stop "$tmp/pg" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
if [ "$(id -u)" -eq 0 ]; then
	make --no-print-directory -s install >/dev/null
else
	# Not root: install into a stage that the server reads through extension_destdir.
	export IDTYPES_EXTENSION_DESTDIR=$tmp/stage
	make --no-print-directory -s install DESTDIR="$IDTYPES_EXTENSION_DESTDIR" >/dev/null
fi

bash test/cluster.sh start "$tmp/pg"
export PGHOST=$tmp/pg
"$PGBIN/psql" -X -a -v ON_ERROR_STOP=1 -f demo/demo.sql
