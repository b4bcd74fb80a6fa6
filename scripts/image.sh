#!/usr/bin/env bash
# image.sh: the CloudNativePG extension image of idtypes for the server of PG_CONFIG (18+), as an
# OCI archive: idtypes-<version>-pg<major>.oci.tar in dest-dir (`make image [IMAGE_DIR=...]`).
#
#   scripts/image.sh [dest-dir]
#
# The image is one layer, FROM scratch in effect, in the layout CloudNativePG mounts at
# /extensions/<name> (see docs/operations.md):
#   lib/idtypes.so (and lib/bitcode/ when the server has JIT), share/extension/idtypes.control and
#   the idtypes--*.sql scripts (and idtypes_uuidv7's, which 18+ has no use for but a database
#   moved from 15-17 may name), licenses/idtypes/LICENSE
# with the labels org.opencontainers.image.{title,description,version,revision,source,licenses,
# vendor} and io.idtypes.postgresql.major, for linux and this machine's architecture, tagged
# <major>-<version>. The files are those of `make install DESTDIR=...` of this checkout's build.
# Built without a container daemon: umoci (the image) and skopeo (the archive);
# scripts/install-deps.sh image installs them.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-.}
log() { echo "image.sh: $*" >&2; }
for tool in umoci skopeo; do
	command -v "$tool" >/dev/null || { log "$tool is missing: run scripts/install-deps.sh image (as root)"; exit 1; }
done
PG_CONFIG=${PG_CONFIG:-pg_config}
major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
if [ "$major" -lt 18 ]; then
	log "PostgreSQL $major has no extension_control_path: an extension image needs 18+ (PG_CONFIG=...)"
	exit 1
fi
version=$(sed -n 's/^   "version": "\(.*\)",$/\1/p' "$top/META.json")
abstract=$(sed -n 's/^   "abstract": "\(.*\)",$/\1/p' "$top/META.json")
# The commit: IMAGE_REVISION (make release sets it: its tree is an export without git), else HEAD's.
revision=${IMAGE_REVISION:-$(git -C "$top" rev-parse HEAD 2>/dev/null || echo unknown)}
arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
tag=$major-$version
mkdir -p "$dest"
archive=$(cd "$dest" && pwd)/idtypes-$version-pg$major.oci.tar

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset MAKEFLAGS MFLAGS MAKELEVEL
make -s -C "$top" PG_CONFIG="$PG_CONFIG" >"$work/build.log" 2>&1 &&
	make -s -C "$top" PG_CONFIG="$PG_CONFIG" install DESTDIR="$work/stage" >>"$work/build.log" 2>&1 ||
	{ cat "$work/build.log" >&2; log "make install DESTDIR=... failed"; exit 1; }
sharedir=$("$PG_CONFIG" --sharedir)
pkglibdir=$("$PG_CONFIG" --pkglibdir)

# The image's root.
root=$work/root
mkdir -p "$root/lib" "$root/share/extension" "$root/licenses/idtypes"
cp "$work/stage$pkglibdir/idtypes.so" "$root/lib/"
if [ -d "$work/stage$pkglibdir/bitcode" ]; then
	cp -r "$work/stage$pkglibdir/bitcode" "$root/lib/"
fi
cp "$work/stage$sharedir/extension"/idtypes* "$root/share/extension/"
cp "$top/LICENSE" "$root/licenses/idtypes/"
chmod -R u=rwX,go=rX "$root"

oci=$work/oci
umoci init --layout "$oci"
umoci new --image "$oci:$tag"
for d in lib share licenses; do
	umoci insert --rootless --image "$oci:$tag" "$root/$d" "/$d" >/dev/null
done
umoci config --image "$oci:$tag" --os linux --architecture "$arch" --author "The idtypes developers" \
	--config.label "org.opencontainers.image.title=idtypes" \
	--config.label "org.opencontainers.image.description=$abstract, for PostgreSQL $major (CloudNativePG extension image)" \
	--config.label "org.opencontainers.image.version=$version" \
	--config.label "org.opencontainers.image.revision=$revision" \
	--config.label "org.opencontainers.image.source=idtypes-$version.tar.gz" \
	--config.label "org.opencontainers.image.licenses=PostgreSQL" \
	--config.label "org.opencontainers.image.vendor=The idtypes developers" \
	--config.label "io.idtypes.postgresql.major=$major"
umoci gc --layout "$oci"
rm -f "$archive"
skopeo copy -q "oci:$oci:$tag" "oci-archive:$archive:idtypes:$tag"
echo "image.sh: $archive (idtypes:$tag, linux/$arch)"
