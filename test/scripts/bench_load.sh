#!/usr/bin/env bash
# bench_load.sh: `make bench-load` (bench/load.sh) runs end to end at a small size (1 s per run, 2
# clients, 9 s of faults with a kill every 3 s), so that it cannot rot unseen: a line of its
# summary for every contestant in both scopes, with a TPS ratio to bigint identity, and a line of
# faults.csv for every generator in both scopes, every ID distinct and no session's IDs out of
# order, after backends were killed and the server restarted.
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
OUT=$files DURATION=1 CLIENTS=2 FAULT_SECONDS=9 KILL_EVERY=3 IDTYPES_BENCH_PORT=$((PGPORT + 21)) \
	bash "$top/bench/load.sh" >"$out" 2>&1 || status=$?
cat "$out"
if [ "$status" -eq 0 ]; then ok "load.sh ran"; else bad "load.sh exited with status $status"; fi

major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
contestants="bigint bigint_aa uuid_v4 xid tid ulidflake ulid ulid_monotonic euid"
[ "$major" -lt 18 ] || contestants="$contestants uuidv7"
missing=
for c in $contestants; do
	n=$(grep -cE "^\| [^|]+ \| 2 \| $c \| [0-9]+ \| [0-9.]+x \|" "$files/summary.md" || true)
	[ "$n" = 2 ] || missing="$missing $c($n)"
done
if [ -z "$missing" ]; then
	ok "summary.md: every contestant in both scopes, with TPS and its ratio to bigint"
else
	bad "summary.md lacks lines (scopes found) for:$missing"
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
