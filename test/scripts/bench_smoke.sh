#!/usr/bin/env bash
# bench_smoke.sh: the benchmark suite runs end to end on a small table (N=5000, one round), so that
# `make bench` cannot rot unseen: both tables of the report have a row for every workload, with a
# ratio for each of our types; ^@ and <@ count exactly the rows BETWEEN counts with the same bounds
# (their timings compare equal work); no plan warning (a table left not all-visible is reported
# but, at this size, does not fail the test); and the run's CSV and plot are written, with a ratio
# and a bar for every workload of every contestant but the baselines; generation against the
# baseline timed right before its contestant, and every generator against a random bigint; the
# planning-time lines on a table grown since ANALYZE, and on one grown and vacuumed since; and the
# SQL edition's part.
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
OUT=$files N=5000 R=1 CONC_TX=10 PLAN_ROWS=20000 IDTYPES_BENCH_PORT=$((PGPORT + 20)) bash "$top/bench/bench.sh" >"$out" 2>&1 || status=$?
cat "$out"
if [ "$status" -ne 0 ]; then
	bad "bench.sh exited with status $status"
	exit 1
fi
ok "bench.sh ran"

WORKLOADS=("generate: one statement" "generate: column default (INSERT ... SELECT)" "COPY out: text"
	"COPY out: binary" "COPY in: text" "COPY in: binary" "btree build" "sort: random order"
	"sort: time order (generation order)" "hash join" "hash aggregate" "hash index probes (100k)" "index probes (100k)"
	"range: BETWEEN (1%)" "range: ^@ prefix" "range: <@ time range" "btree size"
	"concurrent insert (pgbench, 4 clients)")
# table_ok <heading> <our columns>: below the heading, a row for every workload whose last <our
# columns> cells are ratios ("1.23x").
table_ok() {
	local heading=$1 ours=$2 rows
	rows=$(awk -v h="$heading" -v k="$ours" -F '|' '
		index($0, h) == 1 { on = 1; next }
		on && NF == 0 { exit }
		on && NF > k {
			w = $1; gsub(/^ +| +$/, "", w)
			good = 1
			for (i = NF - k + 1; i <= NF; i++) if ($i !~ /[0-9]x *$/) good = 0
			if (good) print w
		}' "$out" | sort)
	if [ "$rows" = "$(printf '%s\n' "${WORKLOADS[@]}" | sort)" ]; then
		ok "'$heading': all ${#WORKLOADS[@]} workloads, each with a ratio for our $ours types"
	else
		bad "'$heading': rows with our $ours ratios: $(tr '\n' ';' <<<"$rows")"
	fi
}
table_ok "64-bit types" 3
table_ok "128-bit types" 3

# "range rows: <contestant>: ^@ a, BETWEEN b; <@ c, BETWEEN d": a = b > 0 and c = d > 0 (uuidv7: a
# uuid column with idtypes' ^@ and <@).
for c in uid11 timeid ulidflake ulid ulid_mono euid uuidv7; do
	line=$(grep "^ *range rows: $c: " "$out" || true)
	if [[ $line =~ \^@\ ([0-9]+),\ BETWEEN\ ([0-9]+)\;\ \<@\ ([0-9]+),\ BETWEEN\ ([0-9]+)$ ]] &&
		[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[3]}" = "${BASH_REMATCH[4]}" ] &&
		[ "${BASH_REMATCH[1]}" -gt 0 ] && [ "${BASH_REMATCH[3]}" -gt 0 ]; then
		ok "$c: ^@ counts the ${BASH_REMATCH[1]} rows and <@ the ${BASH_REMATCH[3]} rows of BETWEEN with the same bounds"
	else
		bad "$c: range counts differ from BETWEEN's, or are missing: '$line'"
	fi
done

# The planning-time line (bench/planning.sql) and its CSV: a ratio and an A/A ratio. At this size
# and with one round the ratio is noise; the target (within 1.5x) is for make bench's own runs.
if grep -qE '^ *planning: grown since ANALYZE [0-9.]+ ms, analyzed [0-9.]+ ms: [0-9.]+x \(A/A [0-9.]+x' "$out" &&
	[ "$(grep -c '^plan_' "$files/planning.csv")" = 3 ]; then
	ok "the planning-time line and planning.csv"
else
	bad "no planning-time line, or planning.csv incomplete"
fi
# The same on a table grown and vacuumed since ANALYZE (bench/planning_vacuumed.sql), 20,000 rows.
if grep -qE '^ *planning, 20000 rows: grown and vacuumed [0-9.]+ ms, analyzed [0-9.]+ ms: [0-9.]+x \(A/A [0-9.]+x' "$out" &&
	[ "$(grep -c '^20000,' "$files/planning_vacuumed.csv")" = 3 ]; then
	ok "the planning line of the grown, vacuumed table and planning_vacuumed.csv"
else
	bad "no planning line of the grown, vacuumed table, or planning_vacuumed.csv incomplete"
fi
if grep -q "WARNING:  plan of" "$out"; then
	bad "a plan was not the intended one (WARNING above)"
else
	ok "every plan was the intended one"
fi
# summary.csv: every workload with a ratio for each of our six contestants and both A/A lines
# (^@ and <@: ours only); bench.svg: a bar for each of those, and nothing else; tables.md: a row
# per workload in each of its two tables.
if python3 - "$files/summary.csv" "$files/bench.svg" "$files/tables.md" "${WORKLOADS[@]}" <<'PY'
import csv, sys, xml.dom.minidom
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["contestant"] not in ("bigint", "uuid")]
ours = {"uid11", "timeid", "ulidflake", "ulid", "ulid_mono", "euid"}
want = {(w, c) for w in sys.argv[4:] for c in ours | {"bigint_aa", "uuid_aa"}
        if c in ours or not w.startswith(("range: ^@", "range: <@"))}
have = {(r["workload"], r["contestant"]) for r in rows if r["ratio"]}
bars = [e for e in xml.dom.minidom.parse(sys.argv[2]).getElementsByTagName("rect")
        if e.getAttribute("class") == "bar"]
md = [line for line in open(sys.argv[3]) if line.startswith("| ") and not line.startswith("| workload |")]
print(f"summary.csv: {len(have)} ratios, missing {sorted(want - have)}; bench.svg: {len(bars)} bars; "
      f"tables.md: {len(md)} rows")
sys.exit(0 if want <= have and len(bars) == len(have) and len(md) == 2 * len(sys.argv[4:]) else 1)
PY
then
	ok "summary.csv has every workload's ratios, bench.svg a bar for each, tables.md a row for each"
else
	bad "summary.csv, bench.svg or tables.md is incomplete"
fi
# rounds.csv: every ratio of a generate workload is against the baseline timed right before the
# contestant (bench_step), every other one against the baseline's (or BETWEEN's) run of the round;
# and every generator has a ratio against a random bigint timed right before it, printed and in
# generate_bigint.csv.
if python3 - "$files/rounds.csv" "$files/generate_bigint.csv" "$out" <<'PY'
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
timed = [r for r in rows if r["contestant"] not in ("bigint", "uuid")]
unpaired = [r for r in timed if r["paired"] != ("t" if r["workload"].startswith("generate:") else "f")
            or abs(float(r["ratio"]) - float(r["value"]) / float(r["reference_value"])) > 1e-9]
gens = {"bigint_aa", "uid11", "timeid", "ulidflake", "uuid", "uuid_aa", "uuidv7", "ulid", "ulid_mono", "euid"}
csv_gens = {r["contestant"] for r in csv.DictReader(open(sys.argv[2]))
            if r["workload"] == "generate: one statement" and r["ratio"]}
line = re.search(r"^ *generate: one statement: (.*)$", open(sys.argv[3]).read(), re.M)
printed = {m.group(1) for m in re.finditer(r"(\w+) [0-9.]+x", line.group(1))} if line else set()
print(f"rounds.csv: {len(timed)} ratios, not against the baseline they should be: "
      f"{sorted({(r['workload'], r['contestant']) for r in unpaired})}; "
      f"against bigint: csv missing {sorted(gens - csv_gens)}, printed missing {sorted(gens - printed)}")
sys.exit(0 if timed and not unpaired and gens <= csv_gens and gens <= printed else 1)
PY
then
	ok "generation against its baseline timed right before it, the rest against the round's; every generator against a random bigint"
else
	bad "a ratio against the wrong baseline run, or a generator missing against a random bigint"
fi
# The SQL edition's part (bench/sql_edition.sql): a ratio for every contestant of its four
# workloads in sql_edition.csv (each line of its list of contestants but the four baselines), and
# its table printed.
contestants=$(($(grep -cE "^[[:space:]]*\([1-4], '" "$top/bench/sql_edition.sql") - 4))
if [ "$(awk -F, 'NR > 1 && $5 != "" && $2 != $3' "$files/sql_edition.csv" | wc -l)" = "$contestants" ] &&
	grep -q "^The SQL edition: medians" "$out"; then
	ok "the SQL edition's table and sql_edition.csv: a ratio for each of its $contestants contestants"
else
	bad "the SQL edition's part of the report, or sql_edition.csv, is incomplete"
fi
finish 16
