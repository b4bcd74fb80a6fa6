#!/usr/bin/env bash
# release_full.sh: `make release` in a fresh clone makes every artifact and its checksums: the
# source tarball, the PGXN zip, a .deb per server whose headers are installed, an OCI image per
# server 18+, the client packages (clients/: the Python sdist and wheel, the npm tarball),
# RELEASE_NOTES.md and SHA256SUMS.
#
#   scripts/chroot.sh <major> bash test/release/release_full.sh [major...]
#
# Meant for a chroot (it runs as root and installs packages): the servers named (default: the
# chroot's major) get their headers (scripts/install-deps.sh base), then the deb, image and clients
# groups.
# In a clone of HEAD marked released and tagged (test/lib/release_clone.sh), `make release`; checks
# that each artifact is there (a .deb of postgresql-<major>-idtypes at the version for each server,
# an image archive per server 18+ whose labels name its version, major and the tagged commit), and
# that SHA256SUMS lists every file and matches. test/scripts/release.sh checks the rest (the
# refusals, the tarball's and zip's files, the notes) in every make test.
set -euo pipefail
trap '' PIPE
cd "$(dirname "$0")/../.."
. test/lib/report.sh
. test/lib/release_clone.sh
[ "$(id -u)" -eq 0 ] || { echo "release_full.sh: needs root (it installs packages): run it in a chroot" >&2; exit 2; }
majors=${*:-$(pg_config --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')}
for m in $majors; do IDTYPES_PG_MAJOR=$m bash scripts/install-deps.sh base; done
bash scripts/install-deps.sh deb image clients
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

start=$SECONDS
version=$(release_clone "$work/clone")
git -C "$work/clone" -c user.name=test -c user.email=test@idtypes.invalid tag -a -m "idtypes $version" "v$version"
if env -u MAKEFLAGS make --no-print-directory -C "$work/clone" release RELEASE_DIR="$work/out" >"$work/log" 2>&1; then
	out=$work/out/idtypes-$version
	ok "make release from a fresh clone's tag v$version ($((SECONDS - start)) s): $(cd "$out" && find . -type f -printf '%P\n' | LC_ALL=C sort | tr '\n' ' ')"
else
	cat "$work/log"
	bad "make release (above)"
	finish 1
fi

arch=$(dpkg --print-architecture)
want="RELEASE_NOTES.md idtypes-$version.tar.gz idtypes-$version.zip idtypes_sql-$version.sql idtypes_sql-$version.migration.sql idtypes_sql-$version.pg_tle.sql"
want+=" clients/idtypes-$version.tar.gz clients/idtypes-$version-py3-none-any.whl clients/idtypes-$version.tgz"
installed=$(ls -d /usr/lib/postgresql/*/bin/pg_config | sed -E 's|.*/postgresql/([0-9]+)/.*|\1|' | sort -n)
for m in $installed; do
	[ -d "/usr/include/postgresql/$m/server" ] || continue
	want+=" postgresql-$m-idtypes_$version-1_$arch.deb postgresql-$m-idtypes-dbgsym_$version-1_$arch.deb"
	[ "$m" -lt 18 ] || want+=" idtypes-$version-pg$m.oci.tar"
done
want=$(tr ' ' '\n' <<<"$want" | LC_ALL=C sort)
got=$(cd "$out" && find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort)
listed=$(awk '{ print $2 }' "$out/SHA256SUMS" | LC_ALL=C sort)
if [ "$got" = "$want" ] && [ "$listed" = "$want" ] && (cd "$out" && sha256sum --quiet -c SHA256SUMS); then
	ok "every artifact ($(wc -l <<<"$want") files: a .deb and its dbgsym per server $(echo $installed), an image per server 18+, the client packages) is there, and SHA256SUMS lists and matches each"
else
	diff <(echo "$want") <(echo "$got") | sed 's/^/  files: /'
	diff <(echo "$want") <(echo "$listed") | sed 's/^/  SHA256SUMS: /'
	bad "the release's files or SHA256SUMS (< expected, > there)"
fi

wrong=()
for deb in "$out"/postgresql-*-idtypes_*.deb; do
	[ "$(dpkg-deb -f "$deb" Version)" = "$version-1" ] || wrong+=("$(basename "$deb"): version $(dpkg-deb -f "$deb" Version)")
done
for img in "$out"/*.oci.tar; do
	[ -e "$img" ] || continue
	m=$(sed -E 's/.*-pg([0-9]+)\.oci\.tar$/\1/' <<<"$img")
	labels=$(skopeo inspect --config "oci-archive:$img" | python3 -c 'import json,sys; l=json.load(sys.stdin)["config"]["Labels"]; print(l["org.opencontainers.image.version"], l["io.idtypes.postgresql.major"], l["org.opencontainers.image.revision"])')
	[ "$labels" = "$version $m $(git -C "$work/clone" rev-parse "v$version^{commit}")" ] || wrong+=("$(basename "$img"): labels $labels")
done
if [ ${#wrong[@]} -eq 0 ]; then
	ok "each .deb is at $version-1, each image's labels name $version, its server and the tagged commit"
else
	printf '  %s\n' "${wrong[@]}"
	bad "the packages' or images' versions (above)"
fi
finish 3
