#!/usr/bin/env bash
# image.sh: `make image` builds the CloudNativePG extension image of idtypes for this server (18+),
# and the regression suite passes with the extension loaded from the unpacked image, the paths set
# as CloudNativePG sets them.
#
# The OCI archive (scripts/image.sh, umoci and skopeo) is read back with skopeo and umoci only:
# its labels (version = META.json's, the revision, source, licenses, the PostgreSQL major), OS and
# architecture; unpacked (umoci unpack), its root holds exactly lib/idtypes.so (and lib/bitcode/
# when the server has JIT), share/extension/ with the control file and every idtypes--*.sql of the
# checkout, and licenses/idtypes/LICENSE, byte for byte the checkout's LICENSE and installed files.
# The root is then put where CloudNativePG mounts an image (<dir>/extensions/idtypes) and a copy of
# this server without any idtypes file (test/lib/bare_server.sh) starts with docs/operations.md's
# settings for an image ('$system:<dir>/extensions/idtypes/share', '$libdir:<dir>/extensions/idtypes/lib'):
# the backend maps the image's idtypes.so, and `make installcheck` passes with the regression tests
# init, io, casts, generate and prefix and the isolation specs (the image's files are those `make
# install` puts in place, under which the lane runs the whole suite; about 50 CPU seconds less).
#
# Run by test/run_tests.sh (PG_CONFIG, PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set). Exit
# status 77 before PostgreSQL 18 (no extension_control_path), or without umoci and skopeo when not
# root (scripts/install-deps.sh image installs them).
set -uo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/nodes.sh"
. "$here/../lib/report.sh"
. "$here/../lib/packages.sh"
. "$here/../lib/bare_server.sh"

control_path_required
nodes_workdir
group_packages image "umoci and skopeo"
export PG_CONFIG=${PG_CONFIG:-$PGBIN/pg_config}
sharedir=$("$PG_CONFIG" --sharedir)
pkglibdir=$("$PG_CONFIG" --pkglibdir)
version=$(sed -n 's/^   "version": "\(.*\)",$/\1/p' "$top/META.json")

# ---- build ---------------------------------------------------------------------------------------
start=$SECONDS
if make -C "$top" --no-print-directory image IMAGE_DIR="$work" >"$work/image.log" 2>&1 &&
	archive=$work/idtypes-$version-pg$major.oci.tar && [ -f "$archive" ]; then
	ok "make image: $(basename "$archive") ($(du -k "$archive" | cut -f1) kB, $((SECONDS - start)) s)"
else
	cat "$work/image.log"
	bad "make image (above)"
	finish 1
fi

# ---- labels and platform -------------------------------------------------------------------------
got=$(skopeo inspect --config "oci-archive:$archive" | python3 -c '
import json, sys
c = json.load(sys.stdin)
labels = c.get("config", {}).get("Labels", {})
for k in sorted(labels):
    print(f"{k}={labels[k]}")
print("platform=%s/%s" % (c.get("os"), c.get("architecture")))
') || got="skopeo inspect failed"
revision=$(git -C "$top" rev-parse HEAD 2>/dev/null) || revision=unknown
want=$(printf '%s\n' "io.idtypes.postgresql.major=$major" \
	"org.opencontainers.image.licenses=PostgreSQL" "org.opencontainers.image.revision=$revision" \
	"org.opencontainers.image.source=idtypes-$version.tar.gz" "org.opencontainers.image.title=idtypes" \
	"org.opencontainers.image.vendor=The idtypes developers" "org.opencontainers.image.version=$version" \
	"platform=linux/$(dpkg --print-architecture)")
if [ "$(grep -v '^org.opencontainers.image.description=' <<<"$got")" = "$want" ] &&
	grep -q "^org.opencontainers.image.description=.*PostgreSQL $major" <<<"$got"; then
	ok "labels: version $version, revision, source, licenses, PostgreSQL $major; linux/$(dpkg --print-architecture)"
else
	diff <(echo "$want") <(echo "$got") | sed 's/^/  /'
	bad "the image's labels or platform (< expected, > got)"
fi

# ---- contents ------------------------------------------------------------------------------------
skopeo copy -q "oci-archive:$archive" "oci:$work/oci:idtypes" &&
	umoci unpack --rootless --image "$work/oci:idtypes" "$work/bundle" >/dev/null 2>"$work/unpack.log" ||
	{ cat "$work/unpack.log"; bad "skopeo copy and umoci unpack of the archive"; finish 2; }
root=$work/bundle/rootfs
make -C "$top" --no-print-directory -s install DESTDIR="$work/stage" >"$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; bad "make install DESTDIR=..."; }
# What the image should hold, from make install: path and checksum.
{
	(cd "$work/stage$pkglibdir" && find . -path './idtypes.so' -o -path './bitcode/*' -type f) | sed 's|^\./|lib/|'
	(cd "$work/stage$sharedir" && find ./extension -type f) | sed 's|^\./|share/|'
	echo licenses/idtypes/LICENSE
} | sort >"$work/want.list"
(cd "$root" && find . -type f -o -type l) | sed 's|^\./||' | sort >"$work/got.list"
sums_differ=
while read -r f; do
	case $f in
	lib/*) src=$work/stage$pkglibdir/${f#lib/} ;;
	share/*) src=$work/stage$sharedir/${f#share/} ;;
	licenses/*) src=$top/LICENSE ;;
	esac
	cmp -s "$src" "$root/$f" || sums_differ+=" $f"
done <"$work/want.list"
n_sql=$(grep -c '^share/extension/idtypes--.*\.sql$' "$work/got.list")
if diff "$work/want.list" "$work/got.list" >"$work/list.diff" && [ -z "$sums_differ" ] &&
	[ "$n_sql" -eq "$(ls "$top"/idtypes--*.sql | wc -l)" ]; then
	ok "the image holds exactly $(wc -l <"$work/got.list") files: lib/idtypes.so, share/extension/ (control, $n_sql scripts), licenses/idtypes/LICENSE$(grep -q '^lib/bitcode/' "$work/got.list" && echo ', lib/bitcode/'), each the installed one"
else
	sed 's/^/  /' "$work/list.diff"
	bad "the image's files (< expected, > in the image) or their contents differ:${sums_differ:- none}"
fi

# ---- the regression suite from the image -----------------------------------------------------------
mount=$work/extensions/idtypes
mkdir -p "$work/extensions"
mv "$root" "$mount"
bare_server "$work/server" || finish 3
control_path=$(operations_setting extension_control_path /extensions/idtypes "$mount")
library_path=$(operations_setting dynamic_library_path /extensions/idtypes "$mount")
dir=$work/pg port=$((PGPORT + 45))
node_start "$dir" "$port" -c "extension_control_path=$control_path" -c "dynamic_library_path=$library_path"
echo "extension_control_path = '$control_path', dynamic_library_path = '$library_path'"
maps=$("$PGBIN/psql" -X -q -At -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 2>&1 <<'SQL'
CREATE EXTENSION idtypes;
SELECT pg_backend_pid() AS pid \gset
\setenv IDT_PID :pid
\! grep -oE '/[^ ]*/idtypes[.]so$' /proc/$IDT_PID/maps | sort -u
DROP EXTENSION idtypes;
SQL
) || true
if [ "$maps" = "$mount/lib/idtypes.so" ]; then
	ok "with CloudNativePG's settings the backend maps the image's lib/idtypes.so, no other"
else
	bad "the backend maps '$maps', expected $mount/lib/idtypes.so"
fi
start=$SECONDS
# The checkout's tests and expected output, the results in $work/regress (not the checkout's own
# results/); the server is the bare copy.
mkdir -p "$work/regress"
if make -C "$top" --no-print-directory installcheck PG_CONFIG="$PG_CONFIG" PGHOST="$dir" PGPORT="$port" \
	PGUSER=postgres REGRESS="init io casts generate prefix" \
	REGRESS_OPTS="--encoding=UTF8 --no-locale --outputdir=$work/regress" >"$work/check.log" 2>&1; then
	ok "make installcheck with idtypes from the image: $(grep -cE '\.\.\. ok|^ok [0-9]+ ' "$work/check.log") tests passed ($((SECONDS - start)) s)"
else
	grep -E 'FAILED|failed' "$work/check.log" | head -n 20
	[ -f "$work/regress/regression.diffs" ] && head -n 40 "$work/regress/regression.diffs"
	bad "make installcheck with idtypes from the image"
fi
finish 5
