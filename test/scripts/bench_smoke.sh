#!/usr/bin/env bash
# bench_smoke.sh: the benchmark suite runs end to end on a small table (N=5000, one round), so that
# `make bench` cannot rot unseen: every workload of every contestant gets a time, and the report
# prints both tables without a plan warning (a table left not all-visible is reported but, at this
# size, does not fail the test).
#
# Run by test/run_tests.sh with PG_CONFIG set and idtypes installed there. Exit status 0 = pass.
set -euo pipefail
trap '' PIPE

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
N=5000 R=1 CONC_SECONDS=1 IDTYPES_BENCH_PORT=$((PGPORT + 20)) bash "$top/bench/bench.sh" >"$out" 2>&1 || {
	cat "$out"
	echo "FAILED: bench.sh exited with an error"
	exit 1
}
cat "$out"
fail=0
for want in "64-bit types" "128-bit types" "generate: one statement" "index probes (100k)" \
	"range: ^@ prefix" "range: <@ time range" "concurrent insert" "btree size"; do
	if grep -qF "$want" "$out"; then echo "ok: the report has '$want'"; else echo "FAILED: no '$want' in the report"; fail=1; fi
done
if grep -q "WARNING:  plan of" "$out"; then
	echo "FAILED: a plan was not the intended one (WARNING above)"
	fail=1
fi
exit $fail
