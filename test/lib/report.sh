# test/lib/report.sh (sourced): the lines a scripted test prints, read by test/run_tests.sh's log
# and by people: "ok: <what>" for a check that held, "FAILED: <what>" for one that did not. A
# script ends with `finish <number of ok lines expected>`: a check that was skipped (a step that
# broke off quietly, a loop that ran fewer times) fails the script as a failed check does.
fail=0
oks=0
ok() {
	echo "ok: $*"
	oks=$((oks + 1))
}
bad() {
	echo "FAILED: $*"
	fail=1
}

# tally <file>: the ok/FAILED lines another program printed into <file> (and the script showed)
# count as the script's own.
tally() {
	local n
	n=$(grep -c '^ok:' "$1" || true)
	oks=$((oks + n))
	if grep -q '^FAILED' "$1"; then fail=1; fi
}

# finish <expected>: end the script; exit 1 if a check failed or the number of ok lines is not the
# expected one (which may depend on the server's major version).
finish() {
	if [ "$oks" -ne "$1" ]; then
		bad "$oks checks passed where $1 were expected"
	else
		echo "$oks checks passed, as expected"
	fi
	exit $fail
}
