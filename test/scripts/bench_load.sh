#!/usr/bin/env bash
# bench_load.sh: `make bench-load` (bench/load.py) runs end to end at a small size (1 s per run, 2
# clients, 2 s of serializable inserts, 9 s of faults with a kill every 3 s), so that it cannot rot
# unseen: a line of its summary for every contestant in both scopes, with TPS and server CPU time
# per 1,000 inserts and their ratios to bigint identity; a line of serializable.csv for each, with
# transactions run; and a line of faults.csv for every generator in both scopes, every ID
# distinct and no session's IDs out of order, after backends were killed and the server restarted.
#
# Run by test/run_tests.sh with PG_CONFIG set and idtypes installed there. Exit status 0 = pass.
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/report.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp)
files=$(mktemp -d)
trap 'rm -rf "$out" "$files"' EXIT
status=0
OUT=$files DURATION=1 CLIENTS=2 SERIAL_SECONDS=2 FAULT_SECONDS=9 KILL_EVERY=3 IDTYPES_BENCH_PORT=$((PGPORT + 21)) \
	python3 "$top/bench/load.py" >"$out" 2>&1 || status=$?
cat "$out"
if [ "$status" -eq 0 ]; then ok "load.py ran"; else bad "load.py exited with status $status"; fi

contestants="bigint bigint_aa uuid_v4 uuidv7 xid tid ulidflake ulid ulid_monotonic euid"
missing=
for c in $contestants; do
	n=$(grep -cE "^\| [^|]+ \| 2 \| $c \| [0-9]+ \| [0-9.]+x \| [0-9.]+ \| [0-9.]+x \|" "$files/summary.md" || true)
	[ "$n" = 2 ] || missing="$missing $c($n)"
	# serializable.csv: scope,contestant,committed,failed,failed_pct
	# (transactions ran: committed or failed by serialization; on a loaded machine 16 clients'
	# connections can take most of the time, so a run may commit none and still have worked)
	n=$(awk -F, -v c="$c" '$2 == c && $3 + $4 > 0' "$files/serializable.csv" | wc -l)
	[ "$n" = 2 ] || missing="$missing $c(serializable: $n)"
done
if [ -z "$missing" ]; then
	ok "summary.md and serializable.csv: every contestant in both scopes, TPS, CPU per insert, ratios, serializable commits"
else
	bad "summary.md or serializable.csv lacks lines (scopes found) for:$missing"
fi
# faults.csv: scope,kind,rows,distinct_ids,sessions,sessions_out_of_order,kills,restarts
lines=$(tail -n +2 "$files/faults.csv" | wc -l)
good=$(tail -n +2 "$files/faults.csv" | awk -F, '$3 > 0 && $3 == $4 && $6 == 0 && $7 > 0 && $8 == 1' | wc -l)
if [ "$lines" = 12 ] && [ "$good" = 12 ]; then
	ok "faults: 6 generators x 2 scopes, every ID distinct, every session in order, after kills and a restart"
else
	bad "faults.csv: $good of $lines lines as expected (12): $(cat "$files/faults.csv")"
fi
finish 3
