#!/usr/bin/env bash
# scale.sh (`make bench-scale`): bulk loads at scale, and partition pruning on a big partitioned
# table. Not part of the tests (a full run at the default size takes about 15
# minutes per server on a 2-core VM: docs/performance.md).
#
#   make bench-scale [ROWS=20000000] [BATCH=1000000] [PARTS=100] [PART_ROWS=2000000] [PG_CONFIG=...]
#                    [KINDS=uuidv7,ulid,...] [SESSIONS=2] [PRUNE=0]
#
# 1. Per generator (bigint identity, gen_random_uuid(), uuidv7() on 18+, generate_ulid(),
#    generate_ulid_monotonic(), generate_euid(), generate_xid()): a table `id <type> PRIMARY KEY`
#    with the generator as its default is loaded by INSERT ... SELECT in batches of BATCH rows up to
#    ROWS, on a cluster whose shared_buffers (32 MB) is far below the index size, with full-page
#    writes on and a checkpoint every 30 s. Per batch: rows per second, the index size, and WAL
#    bytes per row (pg_current_wal_lsn() before and after). Tables are dropped after their run.
#    KINDS names the generators to load (default: all); SESSIONS=n loads each batch from n sessions
#    at once; PRUNE=0 skips part 2.
# 2. A table PARTITION BY RANGE (id ulid) with PARTS daily partitions (bounds from ulid_first_at)
#    and PART_ROWS rows spread over them (bench/scale_prune.sql): planning + execution time (EXPLAIN ANALYZE, median of 15)
#    of a one-day and a one-hour `<@ ulid_time_range(...)` window and of a 5- and a 7-symbol `^@`
#    prefix, each against the same rows asked with the btree operators (`>= AND <`, `>= AND <=`)
#    and against the same query with partition pruning off.
#
# Writes $OUT (default bench/results/scale-<major>) /load.csv, /prune.csv and /scale.svg (a plot
# of rows/s and WAL bytes/row against table size, by bench/scale_plot.py), and prints both tables.
set -euo pipefail
trap '' PIPE

cd "$(dirname "$0")/.."
top=$(pwd)
ROWS=${ROWS:-20000000}
BATCH=${BATCH:-1000000}
PARTS=${PARTS:-100}
PART_ROWS=${PART_ROWS:-2000000}
PG_CONFIG=${PG_CONFIG:-pg_config}
export PGBIN=$("$PG_CONFIG" --bindir)
export PGPORT=${IDTYPES_BENCH_PORT:-54352} PGUSER=postgres PGDATABASE=postgres
major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
OUT=${OUT:-$top/bench/results/scale-$major}
mkdir -p "$OUT"

dir=$(mktemp -d /tmp/idts.XXXXXX)
chmod 755 "$dir"
cleanup() {
	bash "$top/test/cluster.sh" stop "$dir" >/dev/null 2>&1 || true
	rm -rf "$dir"
}
trap cleanup EXIT

bash "$top/test/cluster.sh" start "$dir" -c shared_buffers=32MB -c checkpoint_timeout=30s \
	-c max_wal_size=1GB -c full_page_writes=on -c synchronous_commit=off -c jit=off \
	-c max_parallel_workers_per_gather=0
export PGHOST=$dir
q() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At -d scale "$@"; }
"$PGBIN/psql" -X -q -c "CREATE DATABASE scale"
q -c "CREATE EXTENSION idtypes"

# name | column definition
kinds=(
	"bigint identity|bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
	"uuid v4|uuid PRIMARY KEY DEFAULT gen_random_uuid()"
	"ulid|ulid PRIMARY KEY DEFAULT generate_ulid()"
	"ulid monotonic|ulid PRIMARY KEY DEFAULT generate_ulid_monotonic()"
	"euid|euid PRIMARY KEY DEFAULT generate_euid()"
	"uid11 (xid)|uid11 PRIMARY KEY DEFAULT generate_xid()"
)
[ "$major" -ge 18 ] && kinds+=("uuidv7|uuid PRIMARY KEY DEFAULT uuidv7()")

# KINDS="uuidv7,ulid,...": only the generators of those names. SESSIONS=2 (...): each batch is
# loaded by that many sessions at once, BATCH / SESSIONS rows each (timed around all of them).
if [ -n "${KINDS:-}" ]; then
	chosen=()
	for k in "${kinds[@]}"; do
		case ",$KINDS," in *",${k%%|*},"*) chosen+=("$k") ;; esac
	done
	kinds=("${chosen[@]}")
fi
SESSIONS=${SESSIONS:-1}
label=
[ "$SESSIONS" -eq 1 ] || label=" ($SESSIONS sessions)"

echo "kind,rows,seconds,rows_per_s,wal_bytes_per_row,index_bytes" >"$OUT/load.csv"
for k in "${kinds[@]}"; do
	name=${k%%|*}$label
	q -c "DROP TABLE IF EXISTS load" -c "CREATE TABLE load (id ${k#*|}, n int)" -c "CHECKPOINT"
	echo "scale: $name, $ROWS rows in batches of $BATCH"
	for ((done = 0; done < ROWS; done += BATCH)); do
		lsn0=$(q -c "SELECT pg_current_wal_lsn()")
		t0=$(date +%s.%N)
		for ((s = 0; s < SESSIONS; s++)); do
			q -c "INSERT INTO load (n) SELECT g FROM generate_series(1, $((BATCH / SESSIONS))) g" &
		done
		wait
		seconds=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
		q <<SQL | tr '|' ',' >>"$OUT/load.csv"
SELECT '$name', $((done + BATCH)), $seconds, round($BATCH / $seconds),
	round(pg_wal_lsn_diff(pg_current_wal_lsn(), '$lsn0') / $BATCH::numeric, 1),
	pg_relation_size('load_pkey');
SQL
	done
	tail -n 1 "$OUT/load.csv"
done
q -c "DROP TABLE IF EXISTS load"
[ "${PRUNE:-1}" = 1 ] || { cat "$OUT/load.csv"; exit 0; }

# Partition pruning: PARTS daily partitions, PART_ROWS rows (bench/scale_prune.sql).
echo "scale: partitioned table, $PARTS partitions, $PART_ROWS rows"
q -v parts="$PARTS" -v part_rows="$PART_ROWS" -f "$top/bench/scale_prune.sql" | tr '|' ',' >"$OUT/prune.csv"

[ "$ROWS" -eq 0 ] || python3 "$top/bench/scale_plot.py" "$OUT/load.csv" "$OUT/scale.svg" "PostgreSQL $major"
echo
echo "load ($OUT/load.csv; plot $OUT/scale.svg):"
python3 - "$OUT/load.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
kinds = list(dict.fromkeys(r["kind"] for r in rows))
print("| generator | rows/s, first -> last batch | WAL bytes/row, first -> last | index at the end |")
print("|---|---|---|---|")
for k in kinds:
    rs = [r for r in rows if r["kind"] == k]
    f, l = rs[0], rs[-1]
    print(f"| {k} | {int(float(f['rows_per_s'])):,} -> {int(float(l['rows_per_s'])):,} | "
          f"{f['wal_bytes_per_row']} -> {l['wal_bytes_per_row']} | {int(l['index_bytes']) / 2**20:,.0f} MB |")
PY
echo
echo "partition pruning ($PARTS partitions, $PART_ROWS rows; ms, planning + execution, median of 15 interleaved rounds):"
column -s, -t <"$OUT/prune.csv"
