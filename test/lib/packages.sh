# test/lib/packages.sh (sourced): a test that needs a package of this release beside the server, or
# the packages of an install-deps.sh group.

# release_package <package> <install-deps group> [<too-old version regex> <why>]: install the
# release's <package> (scripts/install-deps.sh <group>, as root) where the release has it; where it
# has none, or only a version matching the regex, or it is missing and this is not root, say so and
# end the script with status 77 (the test does not apply here). A package the release has but that
# does not install (as root) fails the script.
release_package() {
	local pkg=$1 group=$2 too_old=${3:-} why=${4:-} version
	version=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) || version=
	if [ -z "$version" ] || [ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg")" != installed ]; then
		[ "$(id -u)" -ne 0 ] || apt-get update -q >/dev/null 2>&1 || true
		version=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')
		if [ -z "$version" ] || [ "$version" = "(none)" ]; then
			echo "this release packages no $pkg"
			exit 77
		fi
	fi
	if [ -n "$too_old" ] && [[ $version =~ $too_old ]]; then
		echo "$pkg is $version here; $why"
		exit 77
	fi
	if [ "$(id -u)" -ne 0 ] && [ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null)" != installed ]; then
		# Not root: installing it is the user's call (make test as root installs it).
		echo "$pkg is not installed: run sudo IDTYPES_PG_MAJOR=$(server_major) scripts/install-deps.sh $group (or make test as root) to run this test"
		exit 77
	fi
	if ! IDTYPES_PG_MAJOR=$(server_major) bash "$(dirname "${BASH_SOURCE[0]}")/../../scripts/install-deps.sh" "$group"; then
		echo "FAILED: scripts/install-deps.sh $group did not install $pkg $version"
		exit 1
	fi
}

# group_packages <install-deps group> <what they are, for a message>: the group's packages
# (scripts/install-deps.sh <group>, which installs what is missing as root; prints the line saying
# what it installed). Not root and some missing: say which and how to install them, and end the
# script with status 77; an install that fails fails the script. Needs $work (nodes_workdir).
group_packages() {
	local group=$1 what=$2 log=$work/deps-$1.log
	if bash "$(dirname "${BASH_SOURCE[0]}")/../../scripts/install-deps.sh" "$group" >"$log" 2>&1; then
		grep '^install-deps.sh: installing' "$log" | head -n 1 || true
		return
	fi
	if [ "$(id -u)" -ne 0 ] && grep -q '^install-deps.sh: missing packages' "$log"; then
		# Not root: installing them is the user's call (make test as root installs them).
		echo "$what are not installed ($(sed -n 's/^install-deps.sh: missing packages: \([^;]*\);.*/\1/p' "$log")): run sudo scripts/install-deps.sh $group (or make test as root) to run this test"
		exit 77
	fi
	cat "$log"
	echo "FAILED: the packages of scripts/install-deps.sh $group are missing"
	exit 1
}
