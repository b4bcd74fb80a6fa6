#!/usr/bin/env bash
# run.sh: run libFuzzer targets for a while each and summarise (`make fuzz`, after fuzz-build).
#
#   bash fuzz/run.sh [target ...]      default: every binary fuzz/fuzz_*.cpp builds
#
# FUZZ_SECONDS (60) per target, FUZZ_JOBS (2) targets at a time, binaries in FUZZ_BUILD
# (fuzz/build). Each target fuzzes a scratch copy of fuzz/corpus/<target>/ (the committed seeds
# never grow); what it finds goes to $FUZZ_BUILD/artifacts/. Per target the summary gives
# executions per second, the final coverage (cov: edges, ft: features) and the verdict; the last
# line is "N passed, N failed". Exit status 0 only if no target failed.
set -uo pipefail

cd "$(dirname "$0")/.." || exit 1

seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-2}
build=${FUZZ_BUILD:-fuzz/build}
artifacts=$build/artifacts

if [ $# -gt 0 ]; then
	targets=("$@")
else
	targets=()
	for src in fuzz/fuzz_*.cpp; do
		t=$(basename "$src" .cpp)
		targets+=("$t")
	done
fi

tmp=$(mktemp -d) || exit 1
pids=()
cleanup() {
	# Only the runs this script started, by their process ids.
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$artifacts" || exit 1

# One target: seeds copied, libFuzzer run with a wall-clock guard past its own time limit (a hang
# in a single input is a -timeout crash instead), its status and log kept for the summary.
run_one() {
	local t=$1 corpus=$tmp/$1.corpus
	mkdir -p "$corpus"
	if [ -d "fuzz/corpus/$t" ]; then
		cp -R "fuzz/corpus/$t/." "$corpus/"
	fi
	if [ ! -x "$build/$t" ]; then
		echo "run.sh: $build/$t is missing (make fuzz-build)" >"$tmp/$t.log"
		echo 127 >"$tmp/$t.rc"
		return
	fi
	timeout --kill-after=10 $((seconds + 120)) "$build/$t" \
		-max_total_time="$seconds" -max_len=300 -timeout=10 -print_final_stats=1 \
		-artifact_prefix="$artifacts/$t-" "$corpus" >"$tmp/$t.log" 2>&1 &
	local child=$!
	# Stopped by cleanup (Ctrl-C, make killed): stop the run too, not only this subshell.
	trap 'kill "$child" 2>/dev/null' TERM
	wait "$child"
	echo $? >"$tmp/$t.rc"
}

echo "fuzz: ${#targets[@]} targets, ${seconds} s each, $jobs at a time"
running=0
for t in "${targets[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	run_one "$t" &
	pids+=($!)
	running=$((running + 1))
done
wait
pids=()

passed=0
failed=0
printf '\n%-20s %10s %8s %8s  %s\n' target exec/s cov ft result
for t in "${targets[@]}"; do
	log=$tmp/$t.log
	rc=$(cat "$tmp/$t.rc" 2>/dev/null || echo 1)
	# The last status line holds the final coverage: "#N DONE cov: C ft: F ... exec/s: E ...".
	status=$(grep -E '^#[0-9]+.* cov: ' "$log" | tail -n 1)
	cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$status")
	ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$status")
	execs=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+).*/\1/p' "$log" | tail -n 1)
	[ -n "$execs" ] || execs=$(sed -nE 's/.* exec\/s: ([0-9]+).*/\1/p' <<<"$status")
	found=$(sed -nE 's/.*Test unit written to (.*)$/\1/p' "$log")
	if [ "$rc" = 0 ] && [ -z "$found" ]; then
		result=ok
		passed=$((passed + 1))
	else
		result="FAILED (exit $rc)"
		failed=$((failed + 1))
	fi
	printf '%-20s %10s %8s %8s  %s\n' "$t" "${execs:--}" "${cov:--}" "${ft:--}" "$result"
	if [ "$result" != ok ]; then
		# What went wrong: our check's message or the sanitizer's, and how to replay it.
		grep -E 'check failed|while checking|runtime error|ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)|SUMMARY|run\.sh:' \
			"$log" | head -n 8 | sed 's/^/    /'
		for a in $found; do
			echo "    artifact: $a"
			echo "    replay:   $build/$t $a"
		done
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
