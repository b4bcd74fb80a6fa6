#!/usr/bin/env bash
# deb.sh: build the Debian packages, postgresql-<major>-idtypes_<version>_<arch>.deb, with Debian's
# own tooling (debian/, pg_buildext, dpkg-buildpackage), for every server whose headers are installed.
#
#   scripts/deb.sh [dest-dir]      (`make deb DEB_DIR=...`; dest-dir defaults to .)
#
# The build runs on a clean export in a scratch directory, so it never touches this checkout: in a
# git checkout, `git archive` of HEAD (what `make dist` packages); elsewhere (an unpacked archive,
# a copy without .git), the tree as it is. debian/control is generated there from
# debian/control.in by `pg_buildext updatecontrol`, one package per server:
# PG_SUPPORTED_VERSIONS=installed (the default here) means every postgresql-server-dev-NN installed,
# within debian/pgversions. The .deb files (with their -dbgsym companions) are copied to dest-dir.
# Needs `scripts/install-deps.sh deb`.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
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
if git -C "$top" rev-parse --verify -q HEAD >/dev/null 2>&1; then
	git -C "$top" archive HEAD | tar -x -C "$src" -f -
	from="HEAD ($(git -C "$top" rev-parse --short HEAD))"
else
	tar -c -C "$top" --exclude=./.git -f - . | tar -x -C "$src" -f -
	from="the tree in $top"
fi
cd "$src"

# The package's upstream version is the release's.
deb_version=$(dpkg-parsechangelog -S Version)
if [ "${deb_version%-*}" != "$version" ]; then
	log "debian/changelog is at $deb_version, META.json at $version: add a changelog entry (dch -v $version-1)"
	exit 1
fi

export PG_SUPPORTED_VERSIONS=${PG_SUPPORTED_VERSIONS:-installed}
majors=$(pg_buildext supported-versions | tr '\n' ' ')
if [ -z "$majors" ]; then
	log "no server headers to build for (PG_SUPPORTED_VERSIONS=$PG_SUPPORTED_VERSIONS, debian/pgversions: $(tr '\n' ' ' <debian/pgversions))"
	exit 1
fi
log "building idtypes $deb_version for PostgreSQL ${majors% } from $from"
pg_buildext updatecontrol

# Our own make's settings (make -s, its jobserver) are not the package build's.
unset MAKEFLAGS MFLAGS MAKELEVEL
if ! dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1; then
	tail -n 40 "$work/build.log" >&2
	log "dpkg-buildpackage failed (the last 40 lines above)"
	exit 1
fi

debs=("$work"/*.deb)
cp "${debs[@]}" "$dest/"
for deb in "${debs[@]}"; do
	echo "deb.sh: $dest/$(basename "$deb")"
done
