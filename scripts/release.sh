#!/usr/bin/env bash
# release.sh: every artifact of a release, from its git tag, into one folder (`make release`).
#
#   scripts/release.sh [tag]      (make release [TAG=vX.Y.Z] [RELEASE_DIR=release]
#                                  [RELEASE_PARTS="source pgxn sql deb image clients"])
#
# The tag defaults to the one on HEAD. The tagged tree is exported (git archive) and checked first
# (tools/check_versions.py --tag: every version string agrees with the tag, CHANGELOG.md dates the
# release, META.json says stable, debian/changelog names a distribution); then, into
# RELEASE_DIR/idtypes-<version>/ (which must not exist yet):
#   source  idtypes-<version>.tar.gz (git archive of the tag, the upstream tarball)
#   pgxn    idtypes-<version>.zip (make dist of the tag; its META.json valid under the PGXN Meta Spec)
#   sql     idtypes_sql-<version>.sql, .migration.sql and .pg_tle.sql, the SQL edition as a
#           plain script, a migration and a pg_tle package (the tag's sql_edition/, as they are)
#   deb     postgresql-<major>-idtypes_<version>-<rev>_<arch>.deb for every server whose headers are
#           installed (scripts/deb.sh on the exported tree; scripts/install-deps.sh deb)
#   image   idtypes-<version>-pg<major>.oci.tar, the CloudNativePG extension image of every server
#           18+ whose headers are installed (scripts/image.sh; scripts/install-deps.sh image)
#   clients clients/: the client helpers as PyPI and npm take them, the sdist and wheel of
#           clients/python and the npm tarball of clients/node (make clients-dist; in a folder of
#           their own, as the sdist's name is the source tarball's; scripts/install-deps.sh clients)
# and always RELEASE_NOTES.md (the release's section of CHANGELOG.md) and SHA256SUMS (every file of
# the folder and of clients/). A part that cannot be made (a missing tool, no server to build for) fails the
# release, naming what to install; RELEASE_PARTS picks fewer parts.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
log() { echo "release.sh: $*" >&2; }
die() {
	log "$*"
	exit 1
}

tag=${1:-}
if [ -z "$tag" ]; then
	tag=$(git -C "$top" describe --exact-match --tags HEAD 2>/dev/null) ||
		die "HEAD has no tag: tag the release first (git tag -a vX.Y.Z), or name one: make release TAG=vX.Y.Z"
fi
git -C "$top" rev-parse -q --verify "refs/tags/$tag^{commit}" >/dev/null || die "no tag $tag in $top"
parts=" ${RELEASE_PARTS:-source pgxn sql deb image clients} "
for p in $parts; do
	case $p in source | pgxn | sql | deb | image | clients) ;; *) die "unknown part '$p' in RELEASE_PARTS (source pgxn sql deb image clients)" ;; esac
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export_dir=$work/tree
mkdir "$export_dir"
git -C "$top" archive "$tag" | tar -x -C "$export_dir"

# The tagged tree's own rules: every version string, and the release marks.
if ! version=$(python3 "$export_dir/tools/check_versions.py" --tag "$tag" "$export_dir" 2>&1); then
	printf '%s\n' "$version" | sed 's/^/  /' >&2
	die "$tag is not ready for release (above)"
fi
base=idtypes-$version
dest_root=${RELEASE_DIR:-$top/release}
mkdir -p "$dest_root"
out=$(cd "$dest_root" && pwd)/$base
[ ! -e "$out" ] || die "$out exists already: move it away first"
mkdir "$work/out"
log "idtypes $version from $tag ($(git -C "$top" rev-parse --short "$tag^{commit}")): parts${parts% }"

# A make of our own (not the caller's job server or flags).
submake() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u DESTDIR make --no-print-directory "$@"; }

if [[ $parts == *" source "* ]]; then
	git -C "$top" archive --format=tar.gz --prefix="$base/" -o "$work/out/$base.tar.gz" "$tag"
	log "source: $base.tar.gz"
fi
if [[ $parts == *" pgxn "* ]]; then
	submake -s -C "$top" dist DIST_REF="$tag" DIST_DIR="$work/out" >/dev/null
	unzip -p "$work/out/$base.zip" "$base/META.json" >"$work/META.json"
	if ! msg=$(python3 "$export_dir/tools/pgxn/check_meta.py" "$work/META.json" 2>&1); then
		printf '%s\n' "$msg" | sed 's/^/  /' >&2
		die "pgxn: the zip's META.json is not valid under the PGXN Meta Spec (above)"
	fi
	log "pgxn: $base.zip"
fi
if [[ $parts == *" sql "* ]]; then
	[ -f "$export_dir/sql_edition/idtypes_sql.pg_tle.sql" ] || die "sql: $tag has no sql_edition/idtypes_sql.pg_tle.sql"
	[ -f "$export_dir/sql_edition/idtypes_sql.migration.sql" ] || die "sql: $tag has no sql_edition/idtypes_sql.migration.sql"
	cp "$export_dir/sql_edition/idtypes_sql.sql" "$work/out/idtypes_sql-$version.sql"
	cp "$export_dir/sql_edition/idtypes_sql.pg_tle.sql" "$work/out/idtypes_sql-$version.pg_tle.sql"
	cp "$export_dir/sql_edition/idtypes_sql.migration.sql" "$work/out/idtypes_sql-$version.migration.sql"
	log "sql: idtypes_sql-$version.sql idtypes_sql-$version.migration.sql idtypes_sql-$version.pg_tle.sql"
fi
if [[ $parts == *" deb "* ]]; then
	command -v dpkg-buildpackage >/dev/null || die "deb: Debian's packaging tools are missing: scripts/install-deps.sh deb"
	# The exported tree has no git: deb.sh builds it as it is.
	bash "$export_dir/scripts/deb.sh" "$work/out" >"$work/deb.log" 2>&1 || {
		cat "$work/deb.log" >&2
		die "deb: scripts/deb.sh failed (above)"
	}
	log "deb: $(cd "$work/out" && ls *.deb | tr '\n' ' ')"
fi
if [[ $parts == *" image "* ]]; then
	[ -f "$export_dir/scripts/image.sh" ] || die "image: $tag has no scripts/image.sh"
	majors=$(ls -d /usr/lib/postgresql/*/bin/pg_config 2>/dev/null | sed -E 's|.*/postgresql/([0-9]+)/.*|\1|' |
		awk '$1 >= 18' | sort -n | tr '\n' ' ')
	[ -n "$majors" ] || die "image: no PostgreSQL 18+ headers installed to build the image for (IDTYPES_PG_MAJOR=18 scripts/install-deps.sh base)"
	for m in $majors; do
		(cd "$export_dir" && submake -s clean >/dev/null &&
			IMAGE_REVISION=$(git -C "$top" rev-parse "$tag^{commit}") \
				submake image PG_CONFIG="/usr/lib/postgresql/$m/bin/pg_config" IMAGE_DIR="$work/out") >"$work/image.log" 2>&1 || {
			cat "$work/image.log" >&2
			die "image: make image for PostgreSQL $m failed (above)"
		}
	done
	log "image: $(cd "$work/out" && ls *.oci.tar | tr '\n' ' ')"
fi
if [[ $parts == *" clients "* ]]; then
	command -v npm >/dev/null && /usr/bin/python3 -c 'import setuptools, wheel' 2>/dev/null ||
		die "clients: npm or Python's setuptools and wheel are missing: scripts/install-deps.sh clients"
	submake -s -C "$export_dir" clients-dist CLIENTS_DIST_DIR="$work/out/clients" >"$work/clients.log" 2>&1 || {
		cat "$work/clients.log" >&2
		die "clients: make clients-dist failed (above)"
	}
	log "clients: $(cd "$work/out/clients" && ls | tr '\n' ' ')"
fi

# The release notes: the release's section of CHANGELOG.md, its heading included.
awk -v v="$version" '/^## / { on = ($2 == v) } on' "$export_dir/CHANGELOG.md" >"$work/out/RELEASE_NOTES.md"
[ -s "$work/out/RELEASE_NOTES.md" ] || die "CHANGELOG.md has no section '## $version'"

(cd "$work/out" && find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort | xargs -d '\n' sha256sum -- >SHA256SUMS)
mv "$work/out" "$out"
log "$out:"
(cd "$out" && find . -type f -printf '%P  %s bytes\n' | LC_ALL=C sort >&2)
echo "$out"
