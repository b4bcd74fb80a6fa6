#!/usr/bin/env bash
# pg-build.sh: build a PostgreSQL major version from Debian's source package into a private prefix.
#
#   scripts/pg-build.sh <major>               build (once) and print the server's pg_config path
#   scripts/pg-build.sh --pg-config <major>   print that path only (the build may not exist yet)
#
# 15 is the machine's own package (/usr/lib/postgresql/15); 13, 17 and 18 come from the Debian
# suites that carry them (bullseye, trixie, sid): a deb-src line in a private sources list (the
# machine's own lists stay as they are, and no binary package of another suite is ever installed),
# `apt-get source --download-only`, then the upstream tarball is built into
# ${IDTYPES_PG_ROOT:-/opt/idtypes-pg}/<major> with the contrib modules the tests use. A prefix that
# holds a complete build is reused as it is, so a machine builds each server once.
set -euo pipefail

root=${IDTYPES_PG_ROOT:-/opt/idtypes-pg}
cache=${IDTYPES_PG_CACHE:-/var/cache/idtypes-pg}
# Contrib modules the tests need on every server.
contrib=(amcheck pageinspect postgres_fdw)

usage() {
	echo "usage: $0 [--pg-config] <13|15|17|18>" >&2
	exit 2
}

print_only=
if [ "${1:-}" = --pg-config ]; then
	print_only=1
	shift
fi
[ $# -eq 1 ] || usage
major=$1

case $major in
13) suite=bullseye ;;
15) suite= ;;
17) suite=trixie ;;
18) suite=sid ;;
*) usage ;;
esac

if [ -z "$suite" ]; then
	echo "/usr/lib/postgresql/$major/bin/pg_config"
	exit 0
fi
prefix=$root/$major
if [ -n "$print_only" ]; then
	echo "$prefix/bin/pg_config"
	exit 0
fi

log() { echo "pg-build.sh[$major]: $*" >&2; }

marker=$prefix/.idtypes-build
want="contrib=${contrib[*]}"
if [ -f "$marker" ] && grep -qxF "$want" "$marker" && [ -x "$prefix/bin/pg_config" ]; then
	log "reusing $(sed -n 's/^version=//p' "$marker") in $prefix"
	echo "$prefix/bin/pg_config"
	exit 0
fi

bash "$(dirname "$0")/install-deps.sh" server-build >&2

# Called from make (make test-matrix), the server's own build would inherit our make's level and
# flags; PostgreSQL generates its headers only in a top-level make, so it must not see them.
unset MAKELEVEL MAKEFLAGS MFLAGS MAKEFILES

mkdir -p "$cache"
# One build of a given server at a time on this machine.
exec 9>"$cache/$major.lock"
flock 9

# The Debian archive this machine already uses, read from its own apt configuration.
mirror=$(
	{
		sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null || true
		sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]\+\)[[:space:]].*/\2/p' \
			/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null
	} | tr ' ' '\n' | grep -E '/debian/?$' | head -n 1 || true
)
if [ -z "$mirror" ]; then
	log "no Debian archive found in this machine's apt sources"
	exit 1
fi

apt_dir=$cache/apt-$suite
mkdir -p "$apt_dir/lists/partial" "$cache/src"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
	>"$apt_dir/sources.list"
apt_opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o Dir::Etc::sourceparts=/nonexistent
	-o "Dir::State::Lists=$apt_dir/lists")

tarball=$(ls "$cache/src/postgresql-${major}_"*.orig.tar.* 2>/dev/null | tail -n 1 || true)
if [ -z "$tarball" ]; then
	log "fetching the source of postgresql-$major from $suite"
	apt-get "${apt_opts[@]}" -q update >&2
	(cd "$cache/src" && apt-get "${apt_opts[@]}" -q source --download-only "postgresql-$major") >&2
	tarball=$(ls "$cache/src/postgresql-${major}_"*.orig.tar.* | tail -n 1)
fi
version=$(basename "$tarball" | sed -E 's/^postgresql-[0-9]+_([^.]+\.[^.]+)\.orig.*/\1/')

build=$cache/build-$major
rm -rf "$build" "$prefix"
mkdir -p "$build"
log "building PostgreSQL $version into $prefix (takes about 5 minutes on 2 cores)"
tar -xf "$tarball" -C "$build" --strip-components=1
jobs=$(nproc 2>/dev/null || echo 2)
(
	cd "$build"
	./configure --prefix="$prefix" --without-icu --with-openssl --with-readline >configure.log 2>&1 \
		|| { tail -n 40 configure.log; exit 1; }
	make -s -j"$jobs" >make.log 2>&1 || { tail -n 60 make.log; exit 1; }
	make -s install >>make.log 2>&1 || { tail -n 60 make.log; exit 1; }
	for m in "${contrib[@]}"; do
		make -s -C "contrib/$m" -j"$jobs" install >>make.log 2>&1 || { tail -n 60 make.log; exit 1; }
	done
) >&2
printf 'version=%s\n%s\n' "$version" "$want" >"$marker"
rm -rf "$build"
log "built PostgreSQL $version in $prefix"
echo "$prefix/bin/pg_config"
