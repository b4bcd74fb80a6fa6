#!/usr/bin/env bash
# bench_count.sh: `make bench-count` (bench/count.sh) runs end to end on a small table (N=3000):
# the hash index probes of bigint, its A/A twin and uid11 counted under callgrind, with a count
# of a whole run of the statement (not of nothing: a PortalRun the counting missed), ratios that
# are the counts' quotients, and, counted so the neighbours of a shared machine cannot move it,
# uid11's probes within 1.05x of bigint's instructions (they hash and compare as bigint's do).
#
# Run by test/run_tests.sh with PG_CONFIG set and idtypes installed there; skips (exit 77) where
# valgrind is not installed. Exit status 0 = pass.
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/report.sh"

if ! command -v valgrind >/dev/null; then
	echo "needs valgrind (Debian's package valgrind)"
	exit 77
fi
top=$(cd "$(dirname "$0")/../.." && pwd)
files=$(mktemp -d)
trap 'rm -rf "$files"' EXIT
status=0
OUT=$files N=3000 WORKLOADS='^hash index' CONTESTANTS='^(bigint|bigint_aa|uid11)$' \
	IDTYPES_BENCH_PORT=$((PGPORT + 21)) bash "$top/bench/count.sh" || status=$?
if [ "$status" -ne 0 ]; then
	bad "count.sh exited with status $status"
	exit 1
fi
ok "count.sh ran"

python3 - "$files/counts.csv" >"$files/checks.txt" <<'PY'
import csv, sys
rows = {r["contestant"]: r for r in csv.DictReader(open(sys.argv[1]))}
def check(cond, what):
    print(("ok: " if cond else "FAILED: ") + what)
check(sorted(rows) == ["bigint", "bigint_aa", "uid11"], f"a count for each contestant chosen: {sorted(rows)}")
# A warm run of 3,000 probes through the executor is millions of instructions; a count that missed
# PortalRun is a few thousand at most.
small = {c: r["instructions"] for c, r in rows.items() if int(r["instructions"]) < 1000000}
check(not small, f"every count is of a whole run of the statement: {small or 'yes'}")
b = rows.get("bigint", {})
bad = [c for c, r in rows.items() if c != "bigint" and r["instructions_ratio"]
       != f"{int(r['instructions']) / int(b['instructions']):.3f}"]
check(b.get("instructions_ratio") == "" and not bad,
      f"the ratios are the counts against bigint's, bigint without one: {bad or 'yes'}")
aa, x = float(rows["bigint_aa"]["instructions_ratio"]), float(rows["uid11"]["instructions_ratio"])
check(0.98 <= aa <= 1.02, f"bigint's A/A twin counts within 2% of it: {aa}x")
check(x <= 1.05, f"uid11's hash probes within 1.05x of bigint's instructions: {x}x")
PY
cat "$files/checks.txt"
tally "$files/checks.txt"
finish 6
