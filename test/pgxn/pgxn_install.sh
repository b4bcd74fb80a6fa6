#!/usr/bin/env bash
# pgxn_install.sh: the PGXN zip installs with PGXN's own client as a user of PGXN installs it:
# `make dist` makes idtypes-<version>.zip, `pgxn install ./idtypes-<version>.zip` (pgxnclient, the
# release's package) builds it and installs the files into the server's directories, `pgxn load`
# creates the extension in a database, `pgxn check` runs the zip's regression suite against the
# server, and `pgxn unload` and `pgxn uninstall` remove the extension and every file.
#
#   scripts/chroot.sh <major> bash test/pgxn/pgxn_install.sh
#
# Meant for a clean chroot of the release that packages <major> (it runs as root, installs
# packages, and first removes any idtypes files in the server's directories that no package owns,
# e.g. those a `make test` installed there). PG_CONFIG names the server to test.
set -euo pipefail
trap '' PIPE
cd "$(dirname "$0")/../.."
. test/lib/report.sh
. test/lib/server_files.sh
server_setup pgxn_install.sh "it installs packages and into the server's directories"
version=$(sed -n 's/^   "version": "\(.*\)",$/\1/p' META.json)
export PGBIN PGPORT=${IDTYPES_TEST_PORT:-54329}
unset IDTYPES_EXTENSION_DESTDIR PGSERVICE PGOPTIONS
work=$(mktemp -d)
chmod 755 "$work"
cluster=$work/pg
cleanup() {
	bash test/cluster.sh stop "$cluster" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
start=$SECONDS
echo "PostgreSQL $major ($("$PG_CONFIG" --version)), $(. /etc/os-release && echo "$PRETTY_NAME")"
IDTYPES_PG_MAJOR=$major bash scripts/install-deps.sh base pgxn
echo "pgxnclient $(dpkg-query -W -f='${Version}' pgxnclient)"
if ! remove_unpackaged_files; then
	bad "idtypes files in the server's directories that a package owns: $(idtypes_files | tr '\n' ' ')"
	exit 1
fi

# The zip, and pgxn install from it (as root: no sudo).
make -s dist DIST_DIR="$work" >/dev/null
# pgxn reads a local zip given with a '/' in its name; the release status (testing until a release)
# is accepted with --testing, as a user of a pre-release passes it.
pgxn_() { (cd "$work" && pgxn "$@" --pg_config "$PG_CONFIG" "./idtypes-$version.zip"); }
if pgxn_ install --testing --nosudo >"$work/install.log" 2>&1; then
	ok "pgxn install ./idtypes-$version.zip"
else
	tail -n 30 "$work/install.log"
	bad "pgxn install ./idtypes-$version.zip (above)"
	exit 1
fi
expect=("$pkglibdir/idtypes.so" "$extdir/idtypes.control")
for f in idtypes--*.sql; do expect+=("$extdir/$f"); done
missing=()
for f in "${expect[@]}"; do
	[ -f "$f" ] || missing+=("$f")
done
if [ ${#missing[@]} -eq 0 ]; then
	ok "the ${#expect[@]} files are in $pkglibdir and $extdir"
else
	bad "not installed: ${missing[*]}"
fi

# pgxn load into a database of a throwaway cluster, pgxn check against it.
bash test/cluster.sh start "$cluster" || { bad "the cluster did not start"; exit 1; }
conn=(-h "$cluster" -p "$PGPORT" -U postgres)
"$PGBIN/psql" -X -q "${conn[@]}" -d postgres -c "CREATE DATABASE idt_pgxn"
if pgxn_ load --testing "${conn[@]}" -d idt_pgxn >"$work/load.log" 2>&1 &&
	got=$("$PGBIN/psql" -X -At "${conn[@]}" -d idt_pgxn -c "SELECT extversion FROM pg_extension WHERE extname = 'idtypes'" \
		-c "SELECT length(generate_ulid()::text)") && [ "$got" = "$(printf '%s\n26' "${version%.*}")" ]; then
	ok "pgxn load -d idt_pgxn: idtypes ${version%.*}, generate_ulid() works"
else
	cat "$work/load.log"
	bad "pgxn load -d idt_pgxn: got '${got:-}'"
fi
# pgxn check runs the zip's `make installcheck`; here a part of the suite (MAKEFLAGS carries the
# REGRESS of a make command line): what this checks is that pgxn builds, runs and reports the
# suite, which every lane runs whole against the same sources (about 60 CPU seconds less).
pgxn_regress='init\ io\ casts\ generate\ prefix'
if (cd "$work" && PGHOST=$cluster PGUSER=postgres MAKEFLAGS="REGRESS=$pgxn_regress" \
	pgxn check --testing --pg_config "$PG_CONFIG" "./idtypes-$version.zip") >"$work/check.log" 2>&1; then
	ok "pgxn check: $(grep -cE '\.\.\. ok|^ok [0-9]+ ' "$work/check.log") regression tests passed"
else
	grep -E 'FAILED|failed|ERROR' "$work/check.log" | head -n 20
	bad "pgxn check (the zip's regression suite against the server)"
fi

# pgxn unload and uninstall: nothing left.
if pgxn_ unload --testing "${conn[@]}" -d idt_pgxn >"$work/unload.log" 2>&1 &&
	[ "$("$PGBIN/psql" -X -At "${conn[@]}" -d idt_pgxn -c "SELECT count(*) FROM pg_extension WHERE extname = 'idtypes'")" = 0 ] &&
	pgxn_ uninstall --testing --nosudo >"$work/uninstall.log" 2>&1 && [ -z "$(idtypes_files)" ]; then
	ok "pgxn unload and pgxn uninstall: no idtypes left in the database or the server's directories"
else
	cat "$work/unload.log" "$work/uninstall.log" 2>/dev/null | tail -n 20
	bad "pgxn unload/uninstall left: $(idtypes_files | tr '\n' ' ')"
fi
echo "pgxn_install.sh: PostgreSQL $major, $((SECONDS - start)) s"
finish 5
