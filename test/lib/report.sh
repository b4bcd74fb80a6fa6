# test/lib/report.sh (sourced): the lines a scripted test prints, read by test/run_tests.sh's log
# and by people: "ok: <what>" for a check that held, "FAILED: <what>" for one that did not. A
# script ends with `exit $fail`.
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAILED: $*"; fail=1; }
