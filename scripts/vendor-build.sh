#!/usr/bin/env bash
# vendor-build.sh: build a third-party extension the tests need (never idtypes itself) from its
# vendored upstream source and install it into one server.
#
#   scripts/vendor-build.sh citus <pg_config>    Citus 14.0.1 (PostgreSQL 16-18), for t/200_citus.pl
#   scripts/vendor-build.sh pg_tle <pg_config>   pg_tle 1.5.2 (15-18), or upstream commit 2f4b7b3
#                                                (19, not in a release yet), for sql_edition_tle.sh;
#                                                IDTYPES_PG_TLE_VERSION=1.4.0 picks that release
#
# The source is the project's tarball in the vendor directory $IDTYPES_VENDOR_DIR, checked against
# that directory's SHA256SUMS before it is unpacked; exit status 3 when there is none (a clone of the
# repository alone: the test then skips), 4 when it is not installed and this user cannot install
# it (not root). The build packages come from apt (scripts/install-deps.sh <project>); the build
# tree is kept under ${IDTYPES_VENDOR_CACHE:-/var/cache/idtypes-vendor}/<project>-<major> (a user's
# ~/.cache/idtypes-vendor), and a server that already has this build installed is left as it is.
set -euo pipefail

[ $# -eq 2 ] || {
	echo "usage: $0 citus|pg_tle <pg_config>" >&2
	exit 2
}
project=$1
pg_config=$2
here=$(cd "$(dirname "$0")" && pwd)
major=$("$pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
libdir=$("$pg_config" --pkglibdir)
extdir=$("$pg_config" --sharedir)/extension

configure_opts=()
case $project in
citus)
	version=14.0.1
	if [ "$major" -lt 16 ] || [ "$major" -gt 18 ]; then
		echo "vendor-build.sh: Citus $version supports PostgreSQL 16-18, not $major" >&2
		exit 1
	fi
	# Linked with libcurl: PostgreSQL 18's own headers define HAVE_LIBCURL (its OAuth support),
	# which compiles Citus's curl code whatever Citus's configure says, so --without-libcurl leaves
	# curl_easy_perform undefined in citus.so. Its statistics collection stays off (not enabled at
	# build time), so nothing is sent anywhere.
	configure_opts=(--with-libcurl)
	;;
pg_tle)
	# 1.5.2 supports PostgreSQL 12-18; 19's support (upstream #306) is on main only.
	# IDTYPES_PG_TLE_VERSION=1.4.0 builds the oldest line services still run (no schema argument).
	if [ "$major" -ge 19 ]; then version=2f4b7b3; else version=1.5.2; fi
	version=${IDTYPES_PG_TLE_VERSION:-$version}
	;;
*)
	echo "vendor-build.sh: no vendored build of '$project' (citus, pg_tle)" >&2
	exit 2
	;;
esac
tarball=$project-$version.tar.gz

# Installed already: the library, and a mark holding the version and options (a build with other
# options is made again).
marker=$extdir/.idtypes-vendor-$project
mark="$version ${configure_opts[*]}"
if [ -f "$libdir/$project.so" ] && [ "$(cat "$marker" 2>/dev/null)" = "$mark" ]; then
	exit 0
fi

vendor=
if [ -n "${IDTYPES_VENDOR_DIR:-}" ] && [ -f "$IDTYPES_VENDOR_DIR/$tarball" ]; then
	vendor=$(cd "$IDTYPES_VENDOR_DIR" && pwd)
fi
if [ -z "$vendor" ]; then
	echo "vendor-build.sh: $tarball not found (set IDTYPES_VENDOR_DIR to the directory holding it)" >&2
	exit 3
fi
if ! (cd "$vendor" && grep -F " $tarball" SHA256SUMS | sha256sum --check --strict --quiet -); then
	echo "vendor-build.sh: $vendor/$tarball does not match its SHA256SUMS line" >&2
	exit 1
fi

# Installing writes into the server's directories (and the build packages come from apt): as a
# user who cannot write there, exit status 4 (the test then skips, saying so).
if [ "$(id -u)" -ne 0 ] && { [ ! -w "$libdir" ] || [ ! -w "$extdir" ]; }; then
	echo "vendor-build.sh: installing $project into $libdir needs root" >&2
	exit 4
fi
bash "$here/install-deps.sh" "$project"

if [ "$(id -u)" -eq 0 ]; then cache_root=/var/cache/idtypes-vendor; else cache_root=${XDG_CACHE_HOME:-$HOME/.cache}/idtypes-vendor; fi
cache=${IDTYPES_VENDOR_CACHE:-$cache_root}/$project-$major
rm -rf "$cache"
mkdir -p "$cache"
tar -xzf "$vendor/$tarball" -C "$cache"
src=$cache/$project-$version
# The project's make must not inherit the caller's make (run from `make test`): a fresh top level.
unset MAKELEVEL MAKEFLAGS MFLAGS
echo "vendor-build.sh: building $project $version for PostgreSQL $major in $src"
start=$SECONDS
(
	cd "$src"
	if [ -x configure ]; then
		# Unoptimized and without debug information (configure's CFLAGS come after the
		# server's): a test dependency, and this halves Citus's compile (60 CPU s against 117).
		./configure PG_CONFIG="$pg_config" "${configure_opts[@]}" CFLAGS="-O0 -g0" >"$cache/configure.log" 2>&1 ||
			{ tail -n 30 "$cache/configure.log"; exit 1; }
	fi
	# No JIT bitcode (with_llvm=no): the tests JIT none of this code, and clang compiling every
	# file a second time made a Citus build with nothing cached take over 25 minutes beside a CI run.
	make -j"$(nproc 2>/dev/null || echo 2)" PG_CONFIG="$pg_config" with_llvm=no >"$cache/build.log" 2>&1 ||
		{ tail -n 40 "$cache/build.log"; exit 1; }
	make install PG_CONFIG="$pg_config" with_llvm=no >"$cache/install.log" 2>&1 || { tail -n 30 "$cache/install.log"; exit 1; }
)
echo "$mark" >"$marker"
echo "vendor-build.sh: $project $version installed into PostgreSQL $major in $((SECONDS - start)) s"
