# vendor.sh: a test's third-party build (scripts/vendor-build.sh) before it runs. Sourced.
#
# vendor_require <project> <name> <archives>: builds and installs the project into $PG_CONFIG's
# server once (root), or finds it there. Exits the test with 77 where it cannot be had here (a clone
# has no vendored source: it is not ours to ship; or it is not installed and this user cannot
# install it), with 1 where it does not build. CI's matrix still requires the test, so a 77 there
# fails the run.
vendor_require() {
	local project=$1 name=$2 archives=$3 status=0
	bash "$(dirname "${BASH_SOURCE[0]}")/../../scripts/vendor-build.sh" "$project" "$PG_CONFIG" || status=$?
	case $status in
	0) ;;
	3)
		echo "no $name source: put $archives (and its SHA256SUMS line) in a directory named by IDTYPES_VENDOR_DIR to run this test"
		exit 77
		;;
	4)
		echo "$name is not installed in this server and installing it needs root: run make test as root to run this test"
		exit 77
		;;
	*)
		echo "FAILED: $name did not build"
		exit 1
		;;
	esac
}
