# test/lib/release_clone.sh (sourced): a clone of this checkout's HEAD in which the current version
# is released and untagged, for the tests of `make release` and of what it makes.
#
#   release_clone <dir>    clones HEAD into <dir> (git clone --no-hardlinks: the checkout is left
#                          alone), deletes the clone's tags (the caller tags what it tests), and,
#                          where HEAD is between releases, commits there the marks of a release:
#                          CHANGELOG.md's "(unreleased)" heading dated today, META.json's
#                          release_status stable, debian/changelog's newest entry for unstable.
#                          Prints the version.
#   unrelease_clone <dir>  commits in a clone the marks of a tree between releases: its version's
#                          CHANGELOG.md heading "(unreleased)", META.json's release_status testing,
#                          debian/changelog's newest entry UNRELEASED.
# meta_version <dir>: the version META.json of <dir> names.
meta_version() { sed -n 's/^   "version": "\(.*\)",$/\1/p' "$1/META.json"; }
release_clone() {
	local dir=$1 top version
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	git clone -q --no-hardlinks "$top" "$dir"
	git -C "$dir" tag -l | xargs -r git -C "$dir" tag -d >/dev/null
	version=$(meta_version "$dir")
	if grep -qx "## $version (unreleased)" "$dir/CHANGELOG.md"; then
		sed -i "0,/^## $version (unreleased)\$/s//## $version ($(date -u +%F))/" "$dir/CHANGELOG.md"
		sed -i 's/^   "release_status": "[a-z]*",$/   "release_status": "stable",/' "$dir/META.json"
		sed -i '1s/) UNRELEASED;/) unstable;/' "$dir/debian/changelog"
		git -C "$dir" -c user.name=test -c user.email=test@idtypes.invalid commit -q -am "Release $version"
	fi
	echo "$version"
}
unrelease_clone() {
	local dir=$1 version
	version=$(meta_version "$dir")
	sed -i "0,/^## $version (.*)\$/s//## $version (unreleased)/" "$dir/CHANGELOG.md"
	sed -i 's/^   "release_status": "[a-z]*",$/   "release_status": "testing",/' "$dir/META.json"
	sed -i '1s/) [a-z]*;/) UNRELEASED;/' "$dir/debian/changelog"
	git -C "$dir" -c user.name=test -c user.email=test@idtypes.invalid commit -q -am "Between releases"
}
