# test/lib/release_clone.sh (sourced): a clone of this checkout's HEAD in which the current version
# is released, for the tests of `make release` and of what it makes.
#
#   release_clone <dir>    clones HEAD into <dir> (git clone --no-hardlinks: the checkout is left
#                          alone) and commits there the marks of a release: CHANGELOG.md's
#                          "(unreleased)" heading dated today, META.json's release_status stable.
#                          Prints the version; tags nothing (the caller tags v<version>).
release_clone() {
	local dir=$1 top version
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	git clone -q --no-hardlinks "$top" "$dir"
	version=$(sed -n 's/^   "version": "\(.*\)",$/\1/p' "$dir/META.json")
	sed -i "0,/^## $version (unreleased)\$/s//## $version ($(date -u +%F))/" "$dir/CHANGELOG.md"
	sed -i 's/^   "release_status": "[a-z]*",$/   "release_status": "stable",/' "$dir/META.json"
	git -C "$dir" -c user.name=test -c user.email=test@idtypes.invalid commit -q -am "Release $version"
	echo "$version"
}
