#!/usr/bin/env bash
# demo.sh: `make demo` does what the README says: in a copy of the checkout (scripts/copy-checkout.sh,
# as a fresh clone would be) it builds idtypes and runs demo/demo.sql to its end on a throwaway
# cluster, and leaves the server alone: no idtypes file in the server's library or extension
# directories is added, changed or removed (as root too: it installed into them until November
# 2026), and no package is installed (the build's packages are there already: without a terminal
# to ask on, scripts/install-deps.sh would stop with the command to run instead).
#
# Run by test/run_tests.sh (PG_CONFIG, PGPORT set). Port PGPORT+72.
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/nodes.sh"
. "$here/../lib/report.sh"
. "$here/../lib/server_files.sh"
nodes_workdir
export PG_CONFIG=${PG_CONFIG:-$PGBIN/pg_config}
pkglibdir=$("$PG_CONFIG" --pkglibdir)
extdir=$("$PG_CONFIG" --sharedir)/extension

# The server's idtypes files (idtypes_files, test/lib/server_files.sh, the bitcode's directory
# gone through): path, size, modification time and checksum.
server_files() {
	local f
	idtypes_files | while read -r f; do
		find "$f" -type f -printf '%p %s %T@ ' -exec md5sum {} \;
	done | LC_ALL=C sort
}
server_files >"$work/before"
packages_before=$(dpkg-query -W -f='${Package}\n' 2>/dev/null | wc -l)

bash "$top/scripts/copy-checkout.sh" "$work/clone"
# Not make's job server of the run that called us, nor its UBSAN: the demo as a user types it.
if (cd "$work/clone" && env -u MAKEFLAGS -u MAKELEVEL -u UBSAN IDTYPES_TEST_PORT=$((PGPORT + 72)) \
	make --no-print-directory demo </dev/null >"$work/demo.log" 2>&1); then
	ok "make demo ran to its end ($(grep -c '^SELECT\|^INSERT\|^CREATE' "$work/demo.log") statements echoed)"
else
	tail -n 30 "$work/demo.log"
	bad "make demo (above)"
fi
last=$(grep -v '^ *$' "$work/clone/demo/demo.sql" | tail -n 1)
# psql runs it with ON_ERROR_STOP (the demo lifts it only around the errors it shows).
if grep -qF -- "$last" "$work/demo.log"; then
	ok "the demo's last statement ran"
else
	bad "the demo's output lacks its last statement ($last)"
fi

server_files >"$work/after"
if diff "$work/before" "$work/after" >"$work/diff"; then
	ok "the server's directories hold the same idtypes files as before ($(grep -c ' ' "$work/before") lines: none added, changed or removed)"
else
	cat "$work/diff"
	bad "make demo changed the server's idtypes files (above: < before, > after)"
fi
if [ "$(dpkg-query -W -f='${Package}\n' 2>/dev/null | wc -l)" = "$packages_before" ]; then
	ok "no package installed or removed"
else
	bad "make demo changed the installed packages"
fi
finish 4
