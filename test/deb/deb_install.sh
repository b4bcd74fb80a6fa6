#!/usr/bin/env bash
# deb_install.sh: the Debian package, built and tested as a user gets it: `make deb` builds
# postgresql-<major>-idtypes with this release's tooling, apt installs it, its files are where the
# server looks and dpkg owns them, a database owner who is no superuser creates the (trusted)
# extension, the regression suite passes against the installed files, and apt-get purge leaves
# nothing behind that the server still finds.
#
#   scripts/chroot.sh <major> bash test/deb/deb_install.sh
#
# Meant for a clean chroot of the release that packages <major> (it runs as root, installs
# packages, and first removes any idtypes files in the server's directories that no package owns,
# e.g. those a `make test` installed there). PG_CONFIG names the server to test.
# IDTYPES_DEB_DIR: the package is not built here but taken from that directory. With
# IDTYPES_SYSROOT too (the script run in scripts/sysroot.sh, the package cross-built for the
# sysroot's architecture: test/run_matrix.py's deb_cross), dpkg --root installs it into the
# sysroot and purges it there instead of apt, on the host, the server run under qemu-user.
# The regression suite runs in two parts: as the non-superuser owner of pg_regress's database (made
# beforehand by postgres, as pg_regress would make it), every test but the thirteen that need a
# superuser, which run as postgres: amcheck and sort_order create amcheck (and amcheck
# pageinspect: not trusted), errors, hostile and io read data_directory and COPY through a file on
# the server, generate and overflow128 set the superuser-only test setting
# idtypes.test_counter_bits, members drops and adds a member of the extension (the functions'
# owner's right), schema creates a database, plan_hijack a database and a role, like, security
# and uuid_v7 a role.
set -euo pipefail
trap '' PIPE
cd "$(dirname "$0")/../.."
. test/lib/report.sh
. test/lib/server_files.sh

server_setup deb_install.sh "it installs and removes packages"
pkg=postgresql-$major-idtypes
version=$(sed -n 's/^   "version": "\(.*\)",$/\1/p' META.json)
role=idtypes_owner
export PGBIN PGPORT=${IDTYPES_TEST_PORT:-54329} PGUSER=postgres PGDATABASE=postgres
unset IDTYPES_EXTENSION_DESTDIR PGSERVICE PGOPTIONS
export DEBIAN_FRONTEND=noninteractive

work=$(mktemp -d)
chmod 755 "$work"
cluster=$work/pg
export PGHOST=$cluster
cleanup() {
	bash test/cluster.sh stop "$cluster" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

apt() { apt-get -y -q -o DPkg::Lock::Timeout=600 "$@" >>"$work/apt.log" 2>&1; }
psql_as() { # psql_as <role> <database> <sql>...
	local who=$1 db=$2
	shift 2
	local args=()
	for sql in "$@"; do args+=(-c "$sql"); done
	"$PGBIN/psql" -X -q -At -v ON_ERROR_STOP=1 -U "$who" -d "$db" "${args[@]}"
}
# In a sysroot (IDTYPES_SYSROOT, with IDTYPES_DEB_DIR: a package cross-built for its architecture,
# test/run_matrix.py's deb_cross): dpkg --root installs and purges it there, checking its Depends
# against the packages the sysroot holds (scripts/sysroot.sh registers them); no apt, no
# maintainer script of another package runs.
deb_arch=${IDTYPES_CROSS_ARCH:-$(dpkg --print-architecture)}
pkg_install() { if [ -n "$sysroot" ]; then dpkg_ -i "$1" >>"$work/apt.log" 2>&1; else apt install "$1"; fi; }
pkg_purge() { if [ -n "$sysroot" ]; then dpkg_ -P "$1" >>"$work/apt.log" 2>&1; else apt purge "$1"; fi; }
dpkg_query() { dpkg-query ${sysroot:+--admindir="$sysroot/var/lib/dpkg"} "$@"; }
installed() { [ "$(dpkg_query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]; }

start=$SECONDS
echo "PostgreSQL $major ($("$PG_CONFIG" --version)), $(. /etc/os-release && echo "$PRETTY_NAME")"
if [ -z "${IDTYPES_DEB_DIR:-}" ]; then
	bash scripts/install-deps.sh deb
fi

# A clean slate: no idtypes package, and no idtypes file that no package owns.
if installed "$pkg"; then
	pkg_purge "$pkg"
fi
if ! remove_unpackaged_files; then
	bad "idtypes files left in the server's directories before the install: $(idtypes_files | tr '\n' ' ')"
	exit 1
fi

# make deb, with this release's tooling (or the packages of IDTYPES_DEB_DIR).
if [ -n "${IDTYPES_DEB_DIR:-}" ]; then
	mkdir "$work/debs"
	cp "$IDTYPES_DEB_DIR"/*.deb "$work/debs/"
	echo "deb_install.sh: the packages of $IDTYPES_DEB_DIR: $(cd "$work/debs" && ls | tr '\n' ' ')"
elif make -s deb DEB_DIR="$work/debs" >"$work/deb.log" 2>&1; then
	ok "make deb: $(cd "$work/debs" && ls | tr '\n' ' ')"
else
	cat "$work/deb.log"
	bad "make deb"
	exit 1
fi
deb=$(ls "$work/debs/${pkg}_${version}"-*_"$deb_arch".deb 2>/dev/null | head -n 1) || true
if [ -z "$deb" ]; then
	bad "no ${pkg}_${version}-*_$deb_arch.deb among $(ls "$work/debs" | tr '\n' ' ')"
	exit 1
fi

# Install it as a user does.
how="apt-get install"
[ -z "$sysroot" ] || how="dpkg --root=<sysroot> -i"
if pkg_install "$deb" && installed "$pkg"; then
	ok "$how $(basename "$deb")"
else
	tail -n 30 "$work/apt.log"
	bad "$how $(basename "$deb")"
	exit 1
fi

# The files are where this server looks, owned by the package, as the package shipped them: the
# library (and its JIT bitcode, when the server has JIT), the control file and every SQL script of
# the checkout.
expect=("$pkglibdir/idtypes.so" "$extdir/idtypes.control")
for f in idtypes--*.sql; do expect+=("$extdir/$f"); done
[ ! -d "$pkglibdir/bitcode/postgres" ] || expect+=("$pkglibdir/bitcode/idtypes.index.bc")
missing=()
for f in "${expect[@]}"; do
	owner=$(dpkg_owner "$f") || true
	[ -f "$f" ] && [ "$owner" = "$pkg" ] || missing+=("$f${owner:+ (owned by $owner)}")
done
if [ ${#missing[@]} -eq 0 ]; then
	ok "$pkg owns the ${#expect[@]} files in $pkglibdir and $extdir"
else
	bad "not installed by $pkg: ${missing[*]}"
fi
if [ -n "$(dpkg_ -V "$pkg")" ]; then
	dpkg_ -V "$pkg"
	bad "dpkg -V $pkg: installed files differ from the package's"
else
	ok "dpkg -V $pkg: the installed files are the package's"
fi
others=$(idtypes_files | while read -r f; do
	[ "$(dpkg_owner "$f")" = "$pkg" ] || echo "$f"
done)
if [ -z "$others" ]; then
	ok "no idtypes file in the server's directories but the package's"
else
	bad "idtypes files not from $pkg: $others"
fi

# A throwaway cluster of this server (as postgres), which finds the packaged extension.
if ! bash test/cluster.sh start "$cluster"; then
	bad "the cluster did not start"
	exit 1
fi
avail=$(psql_as postgres postgres "SELECT default_version FROM pg_available_extensions WHERE name = 'idtypes'")
if [ "$avail" = "${version%.*}" ]; then
	ok "pg_available_extensions: idtypes $avail"
else
	bad "pg_available_extensions: idtypes '${avail}', expected ${version%.*}"
fi

# A database owner who is no superuser creates the extension (trusted) and uses it.
psql_as postgres postgres "CREATE ROLE $role LOGIN NOSUPERUSER" "CREATE DATABASE idtypes_owned OWNER $role"
if out=$(psql_as "$role" idtypes_owned "CREATE EXTENSION idtypes" \
	"SELECT rolsuper FROM pg_roles WHERE rolname = current_user" \
	"SELECT extowner::regrole FROM pg_extension WHERE extname = 'idtypes'" \
	"CREATE TABLE t (id ulid PRIMARY KEY DEFAULT generate_ulid(), x uid11 DEFAULT generate_uid11())" \
	"INSERT INTO t SELECT FROM generate_series(1, 1000)" \
	"SELECT count(DISTINCT id) + count(DISTINCT x) FROM t" 2>&1) &&
	[ "$(echo "$out" | tr '\n' ' ')" = "f $role 2000 " ]; then
	ok "as $role (owner of its database, no superuser): CREATE EXTENSION idtypes, a table of generated ids"
else
	echo "$out"
	bad "as $role: CREATE EXTENSION idtypes and a table of generated ids"
fi

# The regression suite against the installed package: the tests that need a superuser (see the
# top) as postgres, the rest as the owner. pg_regress counts its tests: "... ok" (<= 15) or TAP
# "ok N" (16+).
needs_superuser="amcheck errors generate hostile io like members overflow128 plan_hijack schema security sort_order uuid_v7"
# IDTYPES_DEB_REGRESS: only these tests (a lane that ran the whole suite against the same code).
regress=${IDTYPES_DEB_REGRESS:-$(make -s --no-print-directory --eval 'print-regress: ; @echo $(REGRESS)' print-regress)}
as_owner=() as_postgres=(init)
for t in $regress; do
	case " $needs_superuser " in
	*" $t "*) as_postgres+=("$t") ;;
	*) as_owner+=("$t") ;;
	esac
done
installcheck() { # installcheck <role> <pg_regress options> <tests...>
	local who=$1 opts=$2
	shift 2
	rm -f regression.diffs
	if make --no-print-directory installcheck PGUSER="$who" EXTRA_REGRESS_OPTS="$opts" REGRESS="$*" ISOLATION= \
		>"$work/check.log" 2>&1; then
		ok "make installcheck as $who: $(grep -cE '\.\.\. ok|^ok [0-9]+ ' "$work/check.log") tests passed"
	else
		tail -n 30 "$work/check.log"
		[ -f regression.diffs ] && head -n 80 regression.diffs
		bad "make installcheck as $who"
	fi
}
# pg_regress's own database, made as pg_regress makes it (the settings need a superuser), but
# owned by the role, which then runs every test in it.
psql_as postgres postgres "CREATE DATABASE contrib_regression OWNER $role TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"
for setting in "lc_messages TO 'C'" "lc_monetary TO 'C'" "lc_numeric TO 'C'" "lc_time TO 'C'" \
	"bytea_output TO 'hex'" "timezone_abbreviations TO 'Default'"; do
	psql_as postgres postgres "ALTER DATABASE contrib_regression SET $setting"
done
installcheck "$role" --use-existing "${as_owner[@]}"
installcheck postgres "" "${as_postgres[@]}"

# apt-get purge removes every file, and the server no longer finds the extension.
psql_as postgres postgres "DROP DATABASE idtypes_owned" "DROP DATABASE IF EXISTS contrib_regression" >/dev/null
purged=1
pkg_purge "$pkg" || purged=
status=$(dpkg_query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null | tr -d ' ') || true
if [ -n "$purged" ] && { [ -z "$status" ] || [ "$status" = un ]; }; then
	ok "$([ -n "$sysroot" ] && echo "dpkg --root=<sysroot> -P" || echo "apt-get purge") $pkg"
else
	tail -n 30 "$work/apt.log"
	bad "$([ -n "$sysroot" ] && echo "dpkg --root=<sysroot> -P" || echo "apt-get purge") $pkg (dpkg status: ${status:-none})"
fi
left=$(idtypes_files; ls -d "$sysroot/usr/share/doc/$pkg" 2>/dev/null || true)
if [ -z "$left" ]; then
	ok "no idtypes file left in $pkglibdir, $extdir or $sysroot/usr/share/doc"
else
	bad "left after the purge: $(echo "$left" | tr '\n' ' ')"
fi
avail=$(psql_as postgres postgres "SELECT count(*) FROM pg_available_extensions WHERE name = 'idtypes'")
if [ "$avail" = 0 ]; then
	ok "pg_available_extensions no longer lists idtypes"
else
	bad "pg_available_extensions still lists idtypes after the purge"
fi

echo "deb_install.sh: PostgreSQL $major, $((SECONDS - start)) s"
exit $fail
