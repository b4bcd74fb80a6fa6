#!/usr/bin/env bash
# count.sh: `make bench-count`: what make bench's statements cost in instructions and in misses of a
# simulated last-level cache, counted by valgrind's callgrind instead of timed, against the same
# baselines. A count does not move with the neighbours of a shared machine, so a ratio of a few
# percent shows where a timed one cannot (docs/performance.md). It says nothing of what the
# simulation leaves out (the TLB, prefetchers, the real cache's replacement), so it backs the timed
# figures rather than replacing them.
#
#   make bench-count [N=1000000] [WORKLOADS='^hash index|^index probes'] [CONTESTANTS=.]
#
# Builds bench/setup.sql's tables in a throwaway cluster (bench/lib.sh), stops it, and runs each
# chosen workload's statement of each chosen contestant (both extended regular expressions) in a
# single-user server of its own under callgrind, with the workload's settings: its `before` step,
# the statement, then both again; only the last run is counted (its buffers, caches and catalog
# entries warm), from the start to the end of PortalRun (execution, not parsing or planning). The
# simulated caches are fixed (32 KB L1s, a 32 MB 16-way last-level cache, 64-byte lines) so that
# counts of different machines compare. Prints the ratios and writes $OUT/counts.csv (default
# bench/results/count-<major>), and with KEEP=<dir> each counted run's callgrind.out.<contestant>.<workload>
# there, for callgrind_annotate. About 20 s per statement of 100,000 probes at N = 1 M.
set -euo pipefail
trap '' PIPE

cd "$(dirname "$0")/.."
top=$(pwd)
N=${N:-1000000}
WORKLOADS=${WORKLOADS:-^hash index|^index probes}
CONTESTANTS=${CONTESTANTS:-.}
PG_CONFIG=${PG_CONFIG:-pg_config}
export PGBIN=$("$PG_CONFIG" --bindir)
export PGPORT=${IDTYPES_BENCH_PORT:-54353} PGUSER=postgres PGDATABASE=postgres
major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
OUT=${OUT:-$top/bench/results/count-$major}
if ! command -v valgrind >/dev/null; then
	echo "bench-count: needs valgrind (Debian's package valgrind)" >&2
	exit 2
fi
mkdir -p "$OUT"

. bench/lib.sh
echo "bench-count: setting up $N rows per contestant"
psql_b -f bench/setup.sql
# One line per statement: workload, contestant, its baseline, settings, before step, statement,
# separated by the unit separator (0x1f): a tab, as white space to read, would merge empty fields.
sep=$'\x1f'
psql_b -F "$sep" -c "SELECT w.workload, w.contestant, c.baseline, w.settings,
		replace(w.before, E'\n', ' '), replace(w.q, E'\n', ' ')
	FROM work w JOIN contestant c ON c.name = w.contestant ORDER BY w.ord, w.workload, c.ord" |
	awk -F "$sep" -v w="$WORKLOADS" -v c="$CONTESTANTS" '$1 ~ w && $2 ~ c' >"$dir/work.tsv"
# The single-user servers get the server's own options (bench/lib.sh's and a stage's: where the
# extension is loaded from), which pg_ctl gave it on its command line.
mapfile -t server_opts < <(psql_b -F $'\t' -c "SELECT name, setting FROM pg_settings WHERE source = 'command line'" |
	awk -F '\t' '{ print "-c"; print $1 "=" $2 }')
bash "$top/test/cluster.sh" stop "$dir" >/dev/null
[ -s "$dir/work.tsv" ] || {
	echo "bench-count: no statement of a workload matching '$WORKLOADS' and a contestant matching '$CONTESTANTS'" >&2
	exit 2
}

as_owner=()
[ "$(id -u)" -ne 0 ] || as_owner=(runuser -u postgres --)
mkdir -p "$dir/cg"
chmod 777 "$dir/cg"
printf 'workload\tcontestant\tbaseline\tinstructions\tll_misses\n' >"$dir/counts.tsv"
i=0
while IFS=$sep read -r workload contestant baseline settings before q; do
	i=$((i + 1))
	opts=()
	for kv in $settings; do opts+=(-c "$kv"); done
	# -j: a statement ends at a semicolon followed by an empty line.
	for _ in 1 2; do
		[ -z "$before" ] || printf '%s;\n\n' "$before"
		printf '%s;\n\n' "$q"
	done >"$dir/cg/$i.sql"
	start=$SECONDS
	"${as_owner[@]}" valgrind --tool=callgrind --callgrind-out-file="$dir/cg/$i.out" \
		--collect-atstart=no --toggle-collect=PortalRun --dump-after=PortalRun \
		--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=33554432,16,64 \
		"$PGBIN/postgres" --single -j -D "$dir/data" "${server_opts[@]}" "${opts[@]}" bench \
		<"$dir/cg/$i.sql" >"$dir/cg/$i.log" 2>&1 || {
		echo "bench-count: the single-user server failed on $workload, $contestant:" >&2
		tail -20 "$dir/cg/$i.log" >&2
		exit 1
	}
	# The last part dumped is the statement's second run; an ERROR in a run would show in the log.
	if grep -q '^ERROR\|^FATAL\|ERROR:' "$dir/cg/$i.log"; then
		echo "bench-count: $workload, $contestant failed:" >&2
		grep -m5 'ERROR' "$dir/cg/$i.log" >&2
		exit 1
	fi
	last=$(ls "$dir/cg/" | grep -E "^$i\.out\.[0-9]+$" | sort -t. -k3 -n | tail -1) || {
		echo "bench-count: no run of $workload, $contestant was counted (no PortalRun returned)" >&2
		exit 1
	}
	# events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw; the last-level misses are the last three.
	awk -v w="$workload" -v c="$contestant" -v b="$baseline" '
		/^events:/ { for (k = 2; k <= NF; k++) ev[$k] = k }
		/^totals:/ { printf "%s\t%s\t%s\t%s\t%s\n", w, c, b, $ev["Ir"],
			$ev["ILmr"] + $ev["DLmr"] + $ev["DLmw"] }' "$dir/cg/$last" >>"$dir/counts.tsv"
	echo "bench-count: $workload, $contestant in $((SECONDS - start)) s"
	if [ -n "${KEEP:-}" ]; then
		mkdir -p "$KEEP"
		cp "$dir/cg/$last" "$KEEP/callgrind.out.$contestant.${workload//[^a-z0-9]/_}"
	fi
	rm -f "$dir/cg/$i.out"*
done <"$dir/work.tsv"

python3 - "$dir/counts.tsv" "$OUT/counts.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
base = {(r["workload"], r["contestant"]): r for r in rows}
with open(sys.argv[2], "w", newline="") as f:
    out = csv.writer(f)
    out.writerow(["workload", "contestant", "baseline", "instructions", "ll_misses",
                  "instructions_ratio", "ll_misses_ratio"])
    print("\nInstructions and simulated last-level cache misses of one warm run, against the baseline:")
    for r in rows:
        # The A/A twin (bigint_aa, uuid_aa) against its baseline; the baseline itself has no ratio.
        b = base.get((r["workload"], r["baseline"]))
        if r["contestant"] == r["baseline"] or b is None:
            ri = rm = ""
        else:
            ri = f"{int(r['instructions']) / max(int(b['instructions']), 1):.3f}"
            rm = f"{int(r['ll_misses']) / max(int(b['ll_misses']), 1):.3f}"
        out.writerow([r["workload"], r["contestant"], r["baseline"], r["instructions"], r["ll_misses"], ri, rm])
        print(f"  {r['workload']}: {r['contestant']:<10} {int(r['instructions']):>15,} instructions"
              + (f" {ri}x," if ri else " (baseline),") + f" {int(r['ll_misses']):>12,} LL misses"
              + (f" {rm}x" if rm else ""))
EOF
echo
echo "bench-count: wrote $OUT/counts.csv"
