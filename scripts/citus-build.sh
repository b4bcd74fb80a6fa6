#!/usr/bin/env bash
# citus-build.sh: build Citus (a test dependency only) from the vendored upstream source and install
# it into one server.
#
#   scripts/citus-build.sh <pg_config>
#
# The source is citus-14.0.1.tar.gz in the vendor directory $IDTYPES_VENDOR_DIR, checked against
# that directory's SHA256SUMS before it is unpacked; exit status 3 when there is none (a clone of the
# repository alone: test/scripts/citus.sh then skips), 4 when it is not installed and this user
# cannot install it (not root). Citus 14 supports PostgreSQL 16-18. The build packages come from
# apt (scripts/install-deps.sh citus); the build tree is kept under
# ${IDTYPES_CITUS_CACHE:-/var/cache/idtypes-citus}/<major> (a user's ~/.cache/idtypes-citus), and a
# server that already has this Citus installed is left as it is.
set -euo pipefail

version=14.0.1
tarball=citus-$version.tar.gz

[ $# -eq 1 ] || {
	echo "usage: $0 <pg_config>" >&2
	exit 2
}
pg_config=$1
here=$(cd "$(dirname "$0")" && pwd)

major=$("$pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
if [ "$major" -lt 16 ] || [ "$major" -gt 18 ]; then
	echo "citus-build.sh: Citus $version supports PostgreSQL 16-18, not $major" >&2
	exit 1
fi

# Installed already: the library and this version's install script.
libdir=$("$pg_config" --pkglibdir)
extdir=$("$pg_config" --sharedir)/extension
# Linked with libcurl: PostgreSQL 18's own headers define HAVE_LIBCURL (its OAuth support), which
# compiles Citus's curl code whatever Citus's configure says, so --without-libcurl leaves
# curl_easy_perform undefined in citus.so. Its statistics collection stays off (not enabled at
# build time), so nothing is sent anywhere.
configure_opts=(--with-libcurl)
# The mark holds the options, so a build with other options is made again.
marker=$extdir/.idtypes-citus-$version
if [ -f "$libdir/citus.so" ] && [ "$(cat "$marker" 2>/dev/null)" = "${configure_opts[*]}" ]; then
	exit 0
fi

vendor=
if [ -n "${IDTYPES_VENDOR_DIR:-}" ] && [ -f "$IDTYPES_VENDOR_DIR/$tarball" ]; then
	vendor=$(cd "$IDTYPES_VENDOR_DIR" && pwd)
fi
if [ -z "$vendor" ]; then
	echo "citus-build.sh: $tarball not found (set IDTYPES_VENDOR_DIR to the directory holding it)" >&2
	exit 3
fi
if ! (cd "$vendor" && grep -F " $tarball" SHA256SUMS | sha256sum --check --strict --quiet -); then
	echo "citus-build.sh: $vendor/$tarball does not match its SHA256SUMS line" >&2
	exit 1
fi

# Installing writes into the server's directories (and the build packages come from apt): as a
# user who cannot write there, exit status 4 (test/scripts/citus.sh then skips, saying so).
if [ "$(id -u)" -ne 0 ] && { [ ! -w "$libdir" ] || [ ! -w "$extdir" ]; }; then
	echo "citus-build.sh: installing Citus into $libdir needs root" >&2
	exit 4
fi
bash "$here/install-deps.sh" citus

if [ "$(id -u)" -eq 0 ]; then cache_root=/var/cache/idtypes-citus; else cache_root=${XDG_CACHE_HOME:-$HOME/.cache}/idtypes-citus; fi
cache=${IDTYPES_CITUS_CACHE:-$cache_root}/$major
rm -rf "$cache"
mkdir -p "$cache"
tar -xzf "$vendor/$tarball" -C "$cache"
src=$cache/citus-$version
# Citus's make must not inherit the caller's make (run from `make test`): a fresh top level.
unset MAKELEVEL MAKEFLAGS MFLAGS
echo "citus-build.sh: building Citus $version for PostgreSQL $major in $src"
start=$SECONDS
(
	cd "$src"
	# Unoptimized and without debug information (configure's CFLAGS come after the server's):
	# Citus is a test dependency, and this halves its compile (60 CPU s against 117 for 362 files).
	./configure PG_CONFIG="$pg_config" "${configure_opts[@]}" CFLAGS="-O0 -g0" >"$cache/configure.log" 2>&1 ||
		{ tail -n 30 "$cache/configure.log"; exit 1; }
	# No JIT bitcode (with_llvm=no): the tests JIT none of Citus's code, and clang compiling every
	# file a second time made a build with nothing cached take over 25 minutes beside a CI run.
	make -j"$(nproc 2>/dev/null || echo 2)" with_llvm=no >"$cache/build.log" 2>&1 || { tail -n 40 "$cache/build.log"; exit 1; }
	make install with_llvm=no >"$cache/install.log" 2>&1 || { tail -n 30 "$cache/install.log"; exit 1; }
)
echo "${configure_opts[*]}" >"$marker"
echo "citus-build.sh: Citus $version installed into PostgreSQL $major in $((SECONDS - start)) s"
