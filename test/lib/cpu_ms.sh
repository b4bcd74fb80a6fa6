# test/lib/cpu_ms.sh (sourced by test/run_tests.sh):
#   cpu_ms    the CPU milliseconds so far of the CI lane this runs in, from IDTYPES_CPU_FILE, which
#             test/run_matrix.py sets where a lane joins its cgroup (cgroup v1's cpuacct.usage, in
#             ns, or v2's cpu.stat, usage_usec) and scripts/chroot.sh shows inside a chroot; prints
#             nothing where there is none.
cpu_ms() {
	local f=${IDTYPES_CPU_FILE:-} v
	[ -n "$f" ] && [ -r "$f" ] || return 0
	case $f in
	*cpu.stat) v=$(sed -n 's/^usage_usec //p' "$f") && [ -n "$v" ] && echo $((v / 1000)) ;;
	*) v=$(cat "$f") && [ -n "$v" ] && echo $((v / 1000000)) ;;
	esac
}
