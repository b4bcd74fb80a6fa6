#!/usr/bin/env bash
# deb.sh: build the Debian packages, postgresql-<major>-idtypes_<version>_<arch>.deb, with Debian's
# own tooling (debian/, pg_buildext, dpkg-buildpackage), for every server whose headers are installed.
#
#   scripts/deb.sh [dest-dir]            (`make deb DEB_DIR=...`; dest-dir defaults to .)
#   scripts/deb.sh --source [dest-dir]   (`make debsrc DEB_DIR=...`)
#
# The build runs on a clean export in a scratch directory, so it never touches this checkout: in a
# git checkout, `git archive` of HEAD (what `make dist` packages); elsewhere (an unpacked archive,
# a copy without .git), the tree as it is. debian/control is generated there from
# debian/control.in by `pg_buildext updatecontrol`, one package per server:
# PG_SUPPORTED_VERSIONS=installed (the default here) means every postgresql-server-dev-NN installed,
# within debian/pgversions. The .deb files (with their -dbgsym companions) are copied to dest-dir.
# With --source, the source package as the archive gets it, then the binary packages built from it:
# idtypes_<version>.orig.tar.gz (in a git checkout, the `git archive` tarball make release ships),
# idtypes_<version>-<rev>.dsc and .debian.tar.xz with debian/control listing every server the
# release supports (PG_SUPPORTED_VERSIONS unset: debian/pgversions within postgresql-common's list),
# the source .changes, then `dpkg-source -x` of that .dsc and `dpkg-buildpackage -b` in it: the
# .deb files and the binary .changes and .buildinfo. All are copied to dest-dir.
# Needs `scripts/install-deps.sh deb`.
#
# In scripts/sysroot.sh (IDTYPES_SYSROOT and IDTYPES_CROSS_ARCH set), the binary package of the
# sysroot's server for that architecture, cross-built on the host: dpkg-buildpackage --host-arch,
# without its check of the build dependencies (they are the sysroot's, not packages installed
# here); pg_buildext names the host's /usr/lib/postgresql/<major>/bin/pg_config itself, so the
# sysroot's (PG_CONFIG), the cross compilers and the install directories as the target system has
# them (the sysroot's, without its prefix) are given to every make of the build (MAKEFLAGS); the
# server's minor version it depends on is the sysroot's postgresql-common's; the JIT bitcode is
# compiled by the host's clang for that CPU (IDTYPES_BITCODE_TARGET, the Makefile).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
source_too=
if [ "${1:-}" = --source ]; then
	source_too=1
	shift
fi
dest=${1:-.}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
log() { echo "deb.sh: $*" >&2; }

for tool in dpkg-buildpackage dh pg_buildext fakeroot; do
	if ! command -v "$tool" >/dev/null; then
		log "$tool is missing: run scripts/install-deps.sh deb (as root)"
		exit 1
	fi
done

version=$(sed -n 's/^   "version": "\(.*\)",$/\1/p' "$top/META.json")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$work/idtypes-$version
mkdir "$src"
orig=$work/idtypes_$version.orig.tar.gz
if git -C "$top" rev-parse --verify -q HEAD >/dev/null 2>&1; then
	git -C "$top" archive --format=tar.gz --prefix="idtypes-$version/" -o "$orig" HEAD
	from="HEAD ($(git -C "$top" rev-parse --short HEAD))"
else
	tar -c -z -C "$top" --exclude=./.git --transform "s|^\.|idtypes-$version|" -f "$orig" .
	from="the tree in $top"
fi
rmdir "$src"
tar -x -z -C "$work" -f "$orig"
[ -n "$source_too" ] || rm "$orig"
cd "$src"

# The package's upstream version is the release's.
deb_version=$(dpkg-parsechangelog -S Version)
if [ "${deb_version%-*}" != "$version" ]; then
	log "debian/changelog is at $deb_version, META.json at $version: add a changelog entry (dch -v $version-1)"
	exit 1
fi

# Binary packages alone: for the servers installed here; a source package: for those the release
# supports.
[ -n "$source_too" ] || export PG_SUPPORTED_VERSIONS=${PG_SUPPORTED_VERSIONS:-installed}
cross=() cross_makeflags=
if [ -n "${IDTYPES_CROSS_ARCH:-}" ]; then
	if [ -n "$source_too" ] || [ -z "${IDTYPES_SYSROOT:-}" ]; then
		log "a cross build (IDTYPES_CROSS_ARCH) is of binary packages, in scripts/sysroot.sh"
		exit 1
	fi
	gnu=$(dpkg-architecture -a "$IDTYPES_CROSS_ARCH" -qDEB_HOST_GNU_TYPE 2>/dev/null)
	PG_SUPPORTED_VERSIONS=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
	export IDTYPES_PG_CONFIG=$PG_CONFIG IDTYPES_BITCODE_TARGET=$gnu
	unset IDTYPES_NO_BITCODE
	cross_makeflags="CC=$gnu-gcc CXX=$gnu-g++ pkglibdir=$("$PG_CONFIG" --pkglibdir | sed "s|^$IDTYPES_SYSROOT||")"
	cross_makeflags+=" datadir=$("$PG_CONFIG" --sharedir | sed "s|^$IDTYPES_SYSROOT||")"
	cross=(--host-arch="$IDTYPES_CROSS_ARCH" -d)
	# The server's minor version the package depends on is the target system's postgresql-common's
	# to say (pg_buildext reads debian/minor_versions before the host's): the sysroot's, or none.
	if [ -f "$IDTYPES_SYSROOT/etc/postgresql-common/minor_versions" ]; then
		cp "$IDTYPES_SYSROOT/etc/postgresql-common/minor_versions" debian/minor_versions
	else
		: >debian/minor_versions
	fi
fi
majors=$(pg_buildext supported-versions | tr '\n' ' ')
if [ -z "$majors" ]; then
	log "no server headers to build for (PG_SUPPORTED_VERSIONS=$PG_SUPPORTED_VERSIONS, debian/pgversions: $(tr '\n' ' ' <debian/pgversions))"
	exit 1
fi
log "building idtypes $deb_version for PostgreSQL ${majors% }${IDTYPES_CROSS_ARCH:+ on $IDTYPES_CROSS_ARCH} from $from"
pg_buildext updatecontrol

# Our own make's settings (make -s, its jobserver) are not the package build's; a cross build's
# variables reach every make of it (debian/rules', then pg_buildext's) as if on its command line.
unset MAKEFLAGS MFLAGS MAKELEVEL
[ -z "$cross_makeflags" ] || export MAKEFLAGS=$cross_makeflags
if [ -n "$source_too" ]; then
	if ! dpkg-buildpackage -us -uc -S >"$work/source.log" 2>&1; then
		tail -n 40 "$work/source.log" >&2
		log "dpkg-buildpackage -S failed (the last 40 lines above)"
		exit 1
	fi
	dsc=$(ls "$work"/idtypes_*.dsc)
	log "source package: $(cd "$work" && ls idtypes_* | tr '\n' ' ')"
	# The binary packages from the source package, as a build daemon makes them.
	cd "$work"
	dpkg-source -q -x "$dsc" "$work/from-dsc" >"$work/extract.log" 2>&1 || {
		cat "$work/extract.log" >&2
		log "dpkg-source -x $(basename "$dsc") failed"
		exit 1
	}
	cd "$work/from-dsc"
fi
if ! dpkg-buildpackage -us -uc -b "${cross[@]}" >"$work/build.log" 2>&1; then
	tail -n 40 "$work/build.log" >&2
	log "dpkg-buildpackage failed (the last 40 lines above)"
	exit 1
fi

debs=("$work"/*.deb)
[ -z "$source_too" ] || debs+=("$work"/idtypes_*)
cp "${debs[@]}" "$dest/"
for deb in "${debs[@]}"; do
	echo "deb.sh: $dest/$(basename "$deb")"
done
