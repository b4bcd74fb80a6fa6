#!/usr/bin/env bash
# release.sh: `make release` makes a release only from a tag whose tree is ready (every version
# string agrees with the tag, CHANGELOG.md dates it, META.json says stable), and its folder holds
# what it should: the source tarball (the tag's files, exactly), the PGXN zip (a valid META.json),
# the SQL edition's two files (the tag's, byte for byte), RELEASE_NOTES.md (the release's CHANGELOG section alone), and SHA256SUMS covering every file.
#
# In a clone of HEAD without its tags (test/lib/release_clone.sh): without a tag, with a tag on a
# tree marked unreleased, and with a tag of another version, make release refuses; on the released
# tree (HEAD's, or HEAD's with the release commit where HEAD is between releases) and its tag,
# `make release RELEASE_PARTS="source pgxn sql"` (the .deb files and images are made and checked by
# the full release run in the chroot of 19, see docs/development.md).
# Needs no server; run by test/run_tests.sh. Exit status 77 outside a git checkout (a release
# archive), where make release has no tag to start from.
set -uo pipefail
trap '' PIPE
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/report.sh"
. "$top/test/lib/release_clone.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
clone=$work/clone
git() { command git -c user.name=test -c user.email=test@idtypes.invalid "$@"; }
release() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$clone" release RELEASE_DIR="$work/out" RELEASE_PARTS="source pgxn sql" "$@" >"$work/log" 2>&1; }

if ! git -C "$top" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	echo "release: $top is not a git checkout (a release archive?): make release works from a tag"
	exit 77
fi
version=$(release_clone "$clone")

# Refusals: no tag on HEAD; a tag on a tree not marked released; a tag of another version.
refused=()
release && refused+=("untagged HEAD was released")
grep -q 'HEAD has no tag' "$work/log" || refused+=("untagged HEAD: $(tail -n 1 "$work/log")")
unrelease_clone "$clone"
git -C "$clone" tag -a -m "unready" "v$version"
release && refused+=("the unreleased tree was released")
grep -q "(unreleased)" "$work/log" && grep -q "release_status is 'testing'" "$work/log" ||
	refused+=("unreleased tree: $(tr '\n' ' ' <"$work/log")")
rm -rf "$clone"
release_clone "$clone" >/dev/null
git -C "$clone" tag -a -m "wrong" "v9.9.9"
release TAG=v9.9.9 && refused+=("a tag v9.9.9 on $version was released")
grep -q "tag 'v9.9.9' is not v$version" "$work/log" || refused+=("tag v9.9.9: $(tr '\n' ' ' <"$work/log")")
if [ ${#refused[@]} -eq 0 ] && [ ! -e "$work/out/idtypes-$version" ]; then
	ok "make release refuses an untagged HEAD, a tag on an unreleased tree, and a tag of another version"
else
	printf '  %s\n' "${refused[@]}"
	bad "make release made a release it should have refused, or said why not wrongly (above)"
fi

# The release.
git -C "$clone" tag -a -m "idtypes $version" "v$version"
if release && out=$(tail -n 1 "$work/log") && [ "$out" = "$work/out/idtypes-$version" ]; then
	ok "make release from tag v$version: $(cd "$out" && ls | tr '\n' ' ')"
else
	cat "$work/log"
	bad "make release from tag v$version (above)"
	finish 1
fi

# SHA256SUMS covers every other file, and they match.
listed=$(awk '{ print $2 }' "$out/SHA256SUMS" | sort | tr '\n' ' ')
files=$(cd "$out" && ls | grep -vx SHA256SUMS | sort | tr '\n' ' ')
if [ "$listed" = "$files" ] && [ "$listed" = "$(printf '%s\n' RELEASE_NOTES.md "idtypes-$version.tar.gz" "idtypes-$version.zip" "idtypes_sql-$version.sql" \
	"idtypes_sql-$version.migration.sql" "idtypes_sql-$version.pg_tle.sql" | sort | tr '\n' ' ')" ] &&
	(cd "$out" && sha256sum --quiet -c SHA256SUMS); then
	ok "SHA256SUMS lists each file of the release and they match it"
else
	bad "SHA256SUMS lists '$listed' for the files '$files' (or does not match them)"
fi

# The tarball and the zip hold the tag's files, exactly, under idtypes-<version>/.
want=$(git -C "$clone" ls-tree -r --name-only "v$version" | sed "s|^|idtypes-$version/|" | sort)
tgz=$(tar -tzf "$out/idtypes-$version.tar.gz" | grep -v '/$' | sort)
zip=$(unzip -Z1 "$out/idtypes-$version.zip" | grep -v '/$' | sort)
if [ "$tgz" = "$want" ] && [ "$zip" = "$want" ]; then
	ok "the tarball and the zip hold the $(wc -l <<<"$want") files of tag v$version under idtypes-$version/"
else
	diff <(echo "$want") <(echo "$tgz") | head -n 5
	diff <(echo "$want") <(echo "$zip") | head -n 5
	bad "the tarball or the zip differs from the tag's files (above)"
fi
mkdir "$work/unzip"
unzip -q -d "$work/unzip" "$out/idtypes-$version.zip"
if python3 "$top/tools/pgxn/check_meta.py" "$work/unzip/idtypes-$version/META.json" >/dev/null &&
	grep -q '"release_status": "stable"' "$work/unzip/idtypes-$version/META.json"; then
	ok "the zip's META.json is valid under the PGXN Meta Spec and says stable"
else
	bad "the zip's META.json"
fi

# The SQL edition: the tag's plain script and pg_tle package, as they are.
if cmp -s "$out/idtypes_sql-$version.sql" <(git -C "$clone" show "v$version:sql_edition/idtypes_sql.sql") &&
	cmp -s "$out/idtypes_sql-$version.migration.sql" <(git -C "$clone" show "v$version:sql_edition/idtypes_sql.migration.sql") &&
	cmp -s "$out/idtypes_sql-$version.pg_tle.sql" <(git -C "$clone" show "v$version:sql_edition/idtypes_sql.pg_tle.sql"); then
	ok "idtypes_sql-$version.sql, .migration.sql and .pg_tle.sql are the tag's SQL edition"
else
	bad "the SQL edition's files differ from the tag's sql_edition/"
fi

# The notes: the release's CHANGELOG section, from its heading to the next one.
notes=$out/RELEASE_NOTES.md
if [ "$(head -n 1 "$notes")" = "$(grep -m 1 "^## $version (" "$clone/CHANGELOG.md")" ] && [ "$(grep -c '^## ' "$notes")" = 1 ] &&
	[ "$(wc -l <"$notes")" -gt 5 ] && grep -qF "$(sed -n 2,4p "$notes")" "$clone/CHANGELOG.md"; then
	ok "RELEASE_NOTES.md is CHANGELOG.md's section of $version ($(wc -l <"$notes") lines)"
else
	head -n 5 "$notes"
	bad "RELEASE_NOTES.md is not CHANGELOG.md's section of $version"
fi
finish 7
