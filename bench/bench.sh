#!/usr/bin/env bash
# bench.sh: the benchmark suite (`make bench`). Starts a throwaway cluster, builds N generated IDs
# per type and per baseline of the same width (bigint for the 64-bit types; uuid from
# gen_random_uuid() for the 128-bit ones, and uuidv7(): core's on 18+, idtypes_uuidv7's before),
# runs every workload R times interleaved across the contestants, and prints medians and the
# median of the per-round ratios against the baseline (for generation, timed again right before
# each contestant), with an A/A line of each baseline against itself.
#
#   make bench [N=1000000] [R=5] [PG_CONFIG=...]   (needs idtypes installed into that server)
#   WORKLOADS='^generate' (an extended regular expression): only the workloads it matches
#   PLAN_ROWS='2000000 20000000' (the default): the sizes of the grown, vacuumed tables planned
#   (bench/planning_vacuumed.sql); PLAN_ROWS= for none
#   PLAN_PARTS=1500 (the default): the partitions of bench/planning_partitions.sql's table, planned
#   with the new-rows estimates on and off; PLAN_PARTS= for none
#
# Timing is on the server: clock_timestamp() around each statement (bench/setup.sql), and pgbench's
# own count for the concurrent insert run. A plan that is not the intended one gives a WARNING.
#
# Then the SQL edition (bench/sql_edition.sql): its generators, text out and text in per value
# against the native edition and gen_random_uuid(), and bulk inserts of N rows with each as the
# primary key's default ("SQL edition" in WORKLOADS selects it), into $OUT/sql_edition.csv.
#
# Writes $OUT (default bench/results/bench-<major>) /summary.csv (per workload and contestant: the
# median, and the median, min and max of the per-round ratios), /rounds.csv (every round's value,
# its reference's, whether that was timed right before it, and their ratio), /generate_bigint.csv
# (every generator against a random bigint), /bench.svg (the ratios as bars) and /tables.md (the
# tables of docs/performance.md), the last two by bench/bench_plot.py, and /planning.csv (the
# planning time on a table grown since ANALYZE against the same rows analyzed: bench/planning.sql),
# /planning_vacuumed.csv (the same on tables grown and vacuumed since ANALYZE, of PLAN_ROWS rows:
# bench/planning_vacuumed.sql).
set -euo pipefail
trap '' PIPE

cd "$(dirname "$0")/.."
top=$(pwd)
N=${N:-1000000}
R=${R:-5}
PG_CONFIG=${PG_CONFIG:-pg_config}
export PGBIN=$("$PG_CONFIG" --bindir)
export PGPORT=${IDTYPES_BENCH_PORT:-54351} PGUSER=postgres PGDATABASE=postgres
CONC_SECONDS=${CONC_SECONDS:-3}
# CONC_TX=n: each pgbench client runs n transactions instead of CONC_SECONDS (the smoke test's
# quick run), and the time is measured around pgbench.
CONC_TX=${CONC_TX:-}
conc_run=(-T "$CONC_SECONDS")
[ -z "$CONC_TX" ] || conc_run=(-t "$CONC_TX")
major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
OUT=${OUT:-$top/bench/results/bench-$major}
mkdir -p "$OUT"

. bench/lib.sh
echo "bench: setting up $N rows per contestant"
start=$SECONDS
psql_b -f bench/setup.sql
psql_b -f bench/planning.sql
# PLAN_ROWS: the sizes of bench/planning_vacuumed.sql's tables ("" for none).
for rows in ${PLAN_ROWS-2000000 20000000}; do
	psql_b -v rows="$rows" -f bench/planning_vacuumed.sql
done
psql_b -c "CREATE TABLE IF NOT EXISTS plan_vac_result (round int, rows bigint, contestant text, value float8)"
# PLAN_PARTS: the partitions of bench/planning_partitions.sql's table ("" for none).
[ -z "${PLAN_PARTS-x}" ] || psql_b -v parts="${PLAN_PARTS:-1500}" -f bench/planning_partitions.sql
psql_b -c "CREATE TABLE IF NOT EXISTS plan_part_result (round int, contestant text, value float8)"
echo "bench: set up in $((SECONDS - start)) s; $R rounds"

mapfile -t workloads < <(psql_b -c "SELECT workload FROM work GROUP BY workload ORDER BY min(ord), workload" |
	grep -E -- "${WORKLOADS:-.}")
conc=1
[ -z "${WORKLOADS:-}" ] || grep -Eq -- "$WORKLOADS" <<<"concurrent insert" || conc=0
mapfile -t contestants < <(psql_b -c "SELECT name FROM contestant ORDER BY ord")
for ((round = 1; round <= R; round++)); do
	start=$SECONDS
	for wl in "${workloads[@]}"; do
		echo "SELECT bench_step(:rnd, :'wl')" | psql_b -v wl="$wl" -v rnd="$round" >/dev/null
	done
	# Concurrent inserts with the generator as the primary key's default: 4 clients.
	for i in "${!contestants[@]}"; do
		[ "$conc" = 1 ] || break
		c=${contestants[(i + round) % ${#contestants[@]}]}
		psql_b -c "TRUNCATE conc_$c"
		echo "INSERT INTO conc_$c SELECT FROM generate_series(1, 100);" >"$dir/conc.sql"
		t0=$EPOCHREALTIME
		"$PGBIN/pgbench" -n -c 4 -j 2 "${conc_run[@]}" -f "$dir/conc.sql" bench >/dev/null 2>&1
		seconds=$CONC_SECONDS
		[ -z "$CONC_TX" ] || seconds=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')
		psql_b -c "INSERT INTO result SELECT $round, 'concurrent insert (pgbench, 4 clients)', '$c',
			1e8 * $seconds / count(*) FROM conc_$c"
	done
	# Planning on a table grown since ANALYZE (bench/planning.sql).
	psql_b -c "SELECT plan_step($round)" >/dev/null
	# Planning on tables grown since ANALYZE and vacuumed (bench/planning_vacuumed.sql).
	[ -z "${PLAN_ROWS-x}" ] || psql_b -c "SELECT plan_vac_step($round)" >/dev/null
	# Planning over many partitions grown and vacuumed (bench/planning_partitions.sql).
	[ -z "${PLAN_PARTS-x}" ] || psql_b -c "SELECT plan_part_step($round)" >/dev/null
	echo "bench: round $round of $R in $((SECONDS - start)) s"
done
psql_b -c "INSERT INTO result SELECT r, 'btree size', name, pg_relation_size(format('src_%s_id', name)::regclass)
	FROM contestant, generate_series(1, $R) r"

"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d bench -f bench/report.sql

# The SQL edition against the native edition and gen_random_uuid() (bench/sql_edition.sql).
if [ -z "${WORKLOADS:-}" ] || grep -Eq -- "$WORKLOADS" <<<"SQL edition"; then
	psql_b -f sql_edition/idtypes_sql.sql >/dev/null
	psql_b -f bench/sql_edition.sql >/dev/null
	for ((round = 1; round <= R; round++)); do
		start=$SECONDS
		psql_b -c "SELECT sqle_step($round)" >/dev/null
		echo "bench: SQL edition, round $round of $R in $((SECONDS - start)) s"
	done
	echo
	echo "The SQL edition: medians, and the median (min, max) of the per-round ratios against the baseline"
	"$PGBIN/psql" -X -q -d bench -c "SELECT workload, contestant, round(median::numeric, 2) AS median,
		round(ratio::numeric, 2) AS ratio, round(lo::numeric, 2) || ' .. ' || round(hi::numeric, 2) AS \"min .. max\"
		FROM sqle_summary ORDER BY ord, contestant = baseline DESC, contestant"
	psql_b -c "COPY (SELECT workload, contestant, baseline, median, ratio, lo, hi FROM sqle_summary
		ORDER BY ord, contestant) TO STDOUT (FORMAT csv, HEADER)" >"$OUT/sql_edition.csv"
fi

# The summary and every round as CSV, and the plot of the ratios.
psql_b -c "COPY (SELECT s.workload, w.ord AS workload_ord, s.contestant, c.ord AS contestant_ord,
		CASE c.baseline WHEN 'bigint' THEN 64 ELSE 128 END AS width, s.reference,
		s.median, s.ratio, s.lo, s.hi
	FROM summary s JOIN contestant c ON c.name = s.contestant JOIN workload_order w USING (workload)
	ORDER BY w.ord, c.ord) TO STDOUT (FORMAT csv, HEADER)" >"$OUT/summary.csv"
psql_b -c "COPY (SELECT round, workload, contestant, value, reference, reference_value, paired, ratio FROM ratio
	ORDER BY round, workload, contestant) TO STDOUT (FORMAT csv, HEADER)" >"$OUT/rounds.csv"
psql_b -c "COPY (SELECT * FROM generate_vs_bigint ORDER BY workload, contestant) TO STDOUT (FORMAT csv, HEADER)" \
	>"$OUT/generate_bigint.csv"
psql_b -c "COPY (SELECT * FROM plan_summary) TO STDOUT (FORMAT csv, HEADER)" >"$OUT/planning.csv"
psql_b -c "COPY (SELECT * FROM plan_vac_summary ORDER BY rows, contestant) TO STDOUT (FORMAT csv, HEADER)" \
	>"$OUT/planning_vacuumed.csv"
version=$(psql_b -c "SHOW server_version")
python3 bench/bench_plot.py "$OUT/summary.csv" "$OUT/bench.svg" \
	"make bench: PostgreSQL ${version%% *}, N = $N rows, R = $R rounds" "$OUT/tables.md"
echo
echo "bench: wrote $OUT/summary.csv, rounds.csv, bench.svg and tables.md"
