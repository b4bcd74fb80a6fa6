#!/usr/bin/env bash
# demo.sh (`make demo`): build idtypes in this tree and run demo/demo.sql on a throwaway cluster of
# the server of PG_CONFIG, with the extension installed into a stage inside that cluster's
# temporary directory (read through extension_destdir, or extension_control_path on 18+): nothing
# is written into the server's own directories, and its clusters are not touched. Packages it
# needs to build (scripts/install-deps.sh build: the compiler, the server and its headers) are
# installed only after a yes on the terminal (as root; otherwise it names the command to run).
set -euo pipefail
trap '' PIPE
cd "$(dirname "$0")/.."

IDTYPES_INSTALL_ASK=1 bash scripts/install-deps.sh build

PG_CONFIG=${PG_CONFIG:-pg_config}
export PGBIN=$("$PG_CONFIG" --bindir)
export PGPORT=${IDTYPES_TEST_PORT:-54329} PGUSER=postgres PGDATABASE=postgres

make --no-print-directory -s
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'bash test/cluster.sh stop "$tmp/pg" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
# Root or not, into a stage that the throwaway server reads (test/cluster.sh).
export IDTYPES_EXTENSION_DESTDIR=$tmp/stage
make --no-print-directory -s install DESTDIR="$IDTYPES_EXTENSION_DESTDIR" >/dev/null

bash test/cluster.sh start "$tmp/pg"
export PGHOST=$tmp/pg
"$PGBIN/psql" -X -a -v ON_ERROR_STOP=1 -f demo/demo.sql
