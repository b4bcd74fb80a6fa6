#!/usr/bin/env bash
# load.sh: the generators under load (`make bench-load`). pgbench with CLIENTS (default 1, 4, 16
# and 64) clients for DURATION seconds (default 60) each, one single-row INSERT per transaction,
# into a table whose primary key's DEFAULT is the generator: bigint identity (twice: the A/A line),
# gen_random_uuid(), uuidv7() (core's on 18+, idtypes_uuidv7's before), and every idtypes
# generator; in two scopes of the generators' state: per backend (15-16 without preload) or the
# DSM registry (17+ without preload), then preloaded. Per run: TPS, the server's CPU time per
# 1,000 committed inserts (below), p50 and p99 latency (pgbench's per-transaction log, sampled),
# index bytes per row, WAL bytes and full-page images per row (from the WAL position and
# pg_stat_wal, around a run that starts after a checkpoint), and the three most frequent wait
# events of the inserting sessions (pg_stat_activity sampled every 100 ms; "CPU" where none).
#
# The CPU time is the server's, read from /proc around each run: the postmaster and its
# processes, and the backends it has reaped since (its cutime and cstime), less the session that
# sampled the wait events. On a shared machine TPS moves with the neighbours; CPU per insert moves
# much less, and is the figure to compare.
#
# Then serialization failures, per scope, for SERIAL_SECONDS (default 30): 16 clients, each
# transaction SERIALIZABLE, reading the newest row (ORDER BY id DESC LIMIT 1, the right edge of
# the key's index) and inserting one; the share of transactions that failed with a serialization
# failure (pgbench counts them and goes on), per contestant.
#
# Then the faults, per scope, for FAULT_SECONDS (default 60): 16 clients insert rows carrying an ID
# of every idtypes generator and their session; a backend is killed with SIGKILL every KILL_EVERY
# seconds (default 10; the server restarts every backend after it) and the server restarts once
# with -m immediate in the middle; pgbench starts again after each. Counted over all rows: every
# ID distinct, and every session's IDs increasing in the order it inserted them.
#
#   make bench-load [DURATION=60] [CLIENTS="1 4 16 64"] [R=1] [FAULT_SECONDS=60] [SERIAL_SECONDS=30]
#                   [PG_CONFIG=...]
#   (needs idtypes installed into that server; about 75 minutes with the defaults)
#
# synchronous_commit is off for the timed runs: with it on, every contestant waits for the same
# WAL flush and the runs measure the disk. The fault runs commit synchronously.
#
# Writes $OUT (default bench/results/load-<major>) /runs.csv (every run), /summary.csv and
# /summary.md (median per scope, clients and contestant, with the TPS and CPU ratios to bigint
# identity), /faults.csv (per scope and generator: rows, distinct, sessions, sessions out of
# order), /serializable.csv (per scope and contestant: committed, failed, the failed share).
set -euo pipefail
trap '' PIPE

cd "$(dirname "$0")/.."
top=$(pwd)
PG_CONFIG=${PG_CONFIG:-pg_config}
export PGBIN=$("$PG_CONFIG" --bindir)
export PGPORT=${IDTYPES_BENCH_PORT:-54352} PGUSER=postgres PGDATABASE=postgres
DURATION=${DURATION:-60}
CLIENTS=${CLIENTS:-1 4 16 64}
R=${R:-1}
FAULT_SECONDS=${FAULT_SECONDS:-60}
KILL_EVERY=${KILL_EVERY:-10}
SERIAL_SECONDS=${SERIAL_SECONDS:-30}
# preload_setting, node_as_server_user, server_major.
. "$top/test/lib/nodes.sh"
major=$(server_major)
OUT=${OUT:-$top/bench/results/load-$major}
mkdir -p "$OUT"

dir=$(mktemp -d /tmp/idtb.XXXXXX)
chmod 755 "$dir"
mkdir "$dir/logs"
cleanup() {
	bash "$top/test/cluster.sh" stop "$dir" >/dev/null 2>&1 || true
	rm -rf "$dir"
}
trap cleanup EXIT
export PGHOST=$dir
psql_q() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }

# The server's CPU time in clock ticks: the postmaster's and its processes' (utime, stime), and
# that of the processes it has reaped (cutime, cstime). /proc/<pid>/stat's fields after the
# command's name in parentheses: the 12th and 13th are utime and stime, the 14th and 15th the
# reaped children's.
server_children() { pgrep -P "$(head -1 "$dir/data/postmaster.pid")" | wc -l; }
server_cpu_ticks() {
	local pm p f total
	pm=$(head -1 "$dir/data/postmaster.pid")
	read -r -a f < <(sed 's/^.*) //' "/proc/$pm/stat")
	total=$((f[11] + f[12] + f[13] + f[14]))
	for p in $(pgrep -P "$pm"); do
		read -r -a f < <(sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null) || continue
		total=$((total + f[11] + f[12]))
	done
	echo "$total"
}
tick_ms=$((1000 / $(getconf CLK_TCK)))
# Wait (at most 10 s) until the server has no session left, every backend reaped.
all_reaped() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ "$(server_children)" -gt "$base_procs" ] || return 0
		sleep 0.1
	done
}

# start <preload: yes|no>: the cluster (made the first time), with or without idtypes preloaded.
start() {
	local opts=(-c max_connections=100 -c shared_buffers=1GB -c synchronous_commit=off
		-c max_wal_size=10GB -c checkpoint_timeout=1h -c autovacuum=off -c jit=off)
	[ "$1" = no ] || opts+=(-c "$(preload_setting)")
	bash "$top/test/cluster.sh" stop "$dir" >/dev/null 2>&1 || true
	bash "$top/test/cluster.sh" start "$dir" "${opts[@]}" >/dev/null
	sleep 2
	base_procs=$(server_children) # the server's own processes, no session
}
# up: wait until the server accepts connections again (after a crash or a restart).
up() {
	local i
	for ((i = 0; i < 600; i++)); do
		"$PGBIN/pg_isready" -q && return 0
		sleep 0.1
	done
	echo "bench-load: the server did not come back" >&2
	return 1
}

# The contestants: name, then the id column's definition.
contestants=("bigint|bigint GENERATED BY DEFAULT AS IDENTITY" "bigint_aa|bigint GENERATED BY DEFAULT AS IDENTITY"
	"uuid_v4|uuid DEFAULT gen_random_uuid()")
contestants+=("uuidv7|uuid DEFAULT uuidv7()") # core's from 18 on, idtypes_uuidv7's before
contestants+=("xid|uid11 DEFAULT generate_xid()" "tid|timeid DEFAULT generate_tid()"
	"ulidflake|ulidflake DEFAULT generate_ulidflake()" "ulid|ulid DEFAULT generate_ulid()"
	"ulid_monotonic|ulid DEFAULT generate_ulid_monotonic()" "euid|euid DEFAULT generate_euid()")
if [ "$major" -ge 17 ]; then scopes=("cluster (DSM registry)|no" "cluster (preloaded)|yes"); else
	scopes=("backend|no" "cluster (preloaded)|yes"); fi

start no
psql_q -c "CREATE DATABASE load" -c "CREATE DATABASE results"
psql_q -d load -c "CREATE EXTENSION idtypes"
[ "$major" -ge 18 ] || psql_q -d load -c "CREATE EXTENSION idtypes_uuidv7"
psql_q -d results -c "CREATE TABLE run (scope text, clients int, contestant text, round int, tps float8,
	p50_ms float8, p99_ms float8, rows bigint, index_bytes_per_row float8, wal_bytes_per_row float8,
	fpi_per_row float8, waits text, cpu_ms_per_1k float8)" \
	-c "CREATE TABLE fault (scope text, kind text, rows bigint, distinct_ids bigint, sessions bigint,
	sessions_out_of_order bigint, kills int, restarts int)" \
	-c "CREATE TABLE serial (scope text, contestant text, committed bigint, failed bigint, failed_pct float8)"
for c in "${contestants[@]}"; do
	psql_q -d load -c "CREATE TABLE l_${c%%|*} (id ${c#*|} PRIMARY KEY, v int)"
	echo "INSERT INTO l_${c%%|*} (v) VALUES (1);" >"$dir/logs/insert_${c%%|*}.sql"
	psql_q -d load -c "CREATE TABLE s_${c%%|*} (id ${c#*|} PRIMARY KEY, v int)"
	printf '%s\n' "BEGIN ISOLATION LEVEL SERIALIZABLE;" "SELECT id FROM s_${c%%|*} ORDER BY id DESC LIMIT 1;" \
		"INSERT INTO s_${c%%|*} (v) VALUES (1);" "COMMIT;" >"$dir/logs/serial_${c%%|*}.sql"
done

# The wait events of the inserting sessions, sampled every 100 ms for n samples (one session).
sample_waits() {
	psql_q -d load -c "CREATE TEMP TABLE w (ev text)" -c "DO \$\$ BEGIN
		FOR i IN 1..$1 LOOP
			INSERT INTO w SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') FROM pg_stat_activity
			WHERE state = 'active' AND query LIKE 'INSERT INTO l\\_%' AND pid <> pg_backend_pid();
			PERFORM pg_stat_clear_snapshot();
			PERFORM pg_sleep(0.1);
		END LOOP; END \$\$" \
		-c "SELECT string_agg(ev || ' ' || pct || '%', ', ' ORDER BY n DESC)
		FROM (SELECT ev, n, round(100.0 * n / sum(n) OVER ())::int AS pct
			FROM (SELECT ev, count(*) AS n FROM w GROUP BY ev) a ORDER BY n DESC LIMIT 3) s" \
		-c "SELECT split_part(s, ' ', 14)::bigint + split_part(s, ' ', 15)::bigint
		FROM pg_read_file('/proc/self/stat') s"
}

failed_runs=0
# run <scope> <clients> <contestant> <round>
run() {
	local scope=$1 n=$2 c=$3 round=$4 j before lsn fpi out tps lat waits cpu0 cpu_ms sampled
	j=$((n < 2 ? n : 2))
	psql_q -d load -c "TRUNCATE l_$c RESTART IDENTITY" -c "CHECKPOINT"
	before=$(psql_q -d load -c "SELECT pg_current_wal_lsn() || '|' || wal_fpi FROM pg_stat_wal")
	IFS='|' read -r lsn fpi <<<"$before"
	all_reaped
	cpu0=$(server_cpu_ticks)
	rm -f "$dir"/logs/lat.*
	sample_waits $((DURATION * 10 - 5)) >"$dir/waits" &
	local sampler=$!
	# A client that fails (a duplicate key, say) ends pgbench with status 2: the run is reported,
	# counted, and fails the whole at its end.
	if ! out=$(cd "$dir/logs" && "$PGBIN/pgbench" -n -M prepared -c "$n" -j "$j" -T "$DURATION" \
		-l --sampling-rate=0.1 --log-prefix=lat -f "insert_$c.sql" load 2>&1); then
		failed_runs=$((failed_runs + 1))
		echo "bench-load: FAILED: $scope, $n clients, $c: pgbench: $(grep -m1 -E 'ERROR|error' <<<"$out")"
	fi
	wait "$sampler" || true
	all_reaped
	sampled=$(sed -n 2p "$dir/waits")
	cpu_ms=$((($(server_cpu_ticks) - cpu0 - ${sampled:-0}) * tick_ms))
	waits=$(sed -n 1p "$dir/waits")
	tps=$(sed -nE 's/^tps = ([0-9.]+) .*without initial connection time.*/\1/p; s/^tps = ([0-9.]+) \(excluding.*/\1/p' <<<"$out" | head -1)
	# pgbench's log: client, transaction, latency in us, script, epoch s, us.
	lat=$(cat "$dir"/logs/lat.* | awk '{ print $3 }' | sort -n | awk '{ v[NR] = $1 }
		END { if (NR == 0) { print "0 0"; exit }
			m = int(NR * 0.5) + 1; p = int(NR * 0.99) + 1; if (p > NR) p = NR
			printf "%.3f %.3f\n", v[m] / 1000, v[p] / 1000 }')
	psql_q -d load -c "SELECT pg_stat_force_next_flush()" >/dev/null 2>&1 || true
	psql_q -d load -c "SELECT format('%s|%s|%s|%s', count(*),
			pg_relation_size('l_${c}_pkey')::float8 / greatest(count(*), 1),
			pg_wal_lsn_diff(pg_current_wal_lsn(), '$lsn')::float8 / greatest(count(*), 1),
			((SELECT wal_fpi FROM pg_stat_wal) - $fpi)::float8 / greatest(count(*), 1)) FROM l_$c" >"$dir/sizes"
	IFS='|' read -r rows ibytes wbytes fpis <"$dir/sizes"
	echo "INSERT INTO run VALUES ('$scope', $n, '$c', $round, ${tps:-0}, ${lat% *}, ${lat#* }, $rows, $ibytes,
		$wbytes, $fpis, :'waits', $cpu_ms * 1000.0 / greatest($rows, 1))" | psql_q -d results -v waits="$waits"
	printf 'bench-load: %-22s %2d clients %-15s %9.0f tps  %6.1f CPU ms/1k  p50 %6s ms  p99 %7s ms  %s\n' \
		"$scope" "$n" "$c" "${tps:-0}" "$(echo "$cpu_ms $rows" | awk '{ printf "%.1f", $2 ? $1 * 1000 / $2 : 0 }')" \
		"${lat% *}" "${lat#* }" "$waits"
}

# faults <scope>: FAULT_SECONDS of inserts with a backend killed every KILL_EVERY s and one
# immediate restart; then the counts.
faults() {
	local scope=$1 t0 next_kill restarted=0 kills=0 pid k
	psql_q -d load -c "DROP TABLE IF EXISTS f" -c "CREATE OR REPLACE FUNCTION sess() RETURNS text LANGUAGE sql
		STABLE AS 'SELECT pid || '' '' || backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()'" \
		-c "CREATE TABLE f (n bigserial, sess text NOT NULL DEFAULT sess(),
		x uid11 DEFAULT generate_xid(), t timeid DEFAULT generate_tid(), fl ulidflake DEFAULT generate_ulidflake(),
		u ulid DEFAULT generate_ulid(), m ulid DEFAULT generate_ulid_monotonic(), e euid DEFAULT generate_euid())"
	echo "INSERT INTO f DEFAULT VALUES;" >"$dir/logs/fault.sql"
	t0=$SECONDS
	next_kill=$((t0 + KILL_EVERY))
	while [ $((SECONDS - t0)) -lt "$FAULT_SECONDS" ]; do
		(cd "$dir/logs" && PGOPTIONS="-c synchronous_commit=on" "$PGBIN/pgbench" -n -c 16 -j 2 \
			-T $((FAULT_SECONDS - (SECONDS - t0))) -f fault.sql load >/dev/null 2>&1) &
		local bench=$!
		while kill -0 "$bench" 2>/dev/null; do
			sleep 0.5
			if [ "$restarted" = 0 ] && [ $((SECONDS - t0)) -ge $((FAULT_SECONDS / 2)) ]; then
				node_as_server_user "$PGBIN/pg_ctl" -D "$dir/data" restart -m immediate -w >/dev/null 2>&1 || true
				restarted=1
			elif [ "$SECONDS" -ge "$next_kill" ]; then
				pid=$(psql_q -d load -c "SELECT pid FROM pg_stat_activity WHERE query LIKE 'INSERT INTO f%'
					AND pid <> pg_backend_pid() ORDER BY random() LIMIT 1" 2>/dev/null || true)
				if [ -n "$pid" ]; then
					kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
				fi
				next_kill=$((SECONDS + KILL_EVERY))
			fi
		done
		wait "$bench" || true
		up
	done
	for k in x t fl u m e; do
		psql_q -d load -c "SELECT format('%s|%s|%s', count(*), count(DISTINCT $k), count(DISTINCT sess)) FROM f" >"$dir/counts"
		IFS='|' read -r rows ids sessions <"$dir/counts"
		local disorder
		disorder=$(psql_q -d load -c "SELECT count(DISTINCT sess) FROM (SELECT sess, $k,
			lag($k) OVER (PARTITION BY sess ORDER BY n) AS prev FROM f) s WHERE $k <= prev")
		psql_q -d results -c "INSERT INTO fault VALUES ('$scope', '$k', $rows, $ids, $sessions, $disorder, $kills, $restarted)"
		echo "bench-load: faults, $scope, $k: $rows rows, $ids distinct, $sessions sessions ($disorder out of order); $kills kills, $restarted immediate restart"
	done
}

# serializable <scope>: SERIAL_SECONDS of read-newest-then-insert at SERIALIZABLE, 16 clients, per
# contestant; pgbench counts the transactions that failed (serialization failures) and goes on.
serializable() {
	local scope=$1 c name out committed failed rc
	[ "$SERIAL_SECONDS" -gt 0 ] || return 0
	for c in "${contestants[@]}"; do
		name=${c%%|*}
		psql_q -d load -c "TRUNCATE s_$name RESTART IDENTITY" -c "INSERT INTO s_$name (v) SELECT 1 FROM generate_series(1, 10000)" \
			-c "VACUUM ANALYZE s_$name"
		rc=0
		out=$(cd "$dir/logs" && "$PGBIN/pgbench" -n -M prepared -c 16 -j 2 -T "$SERIAL_SECONDS" \
			-f "serial_$name.sql" load 2>&1) || rc=$?
		committed=$(sed -nE 's/^number of transactions actually processed: ([0-9]+).*/\1/p' <<<"$out" | head -1)
		failed=$(sed -nE 's/^number of failed transactions: ([0-9]+).*/\1/p' <<<"$out" | head -1)
		psql_q -d results -c "INSERT INTO serial VALUES ('$scope', '$name', ${committed:-0}, ${failed:-0},
			100.0 * ${failed:-0} / greatest(${committed:-0} + ${failed:-0}, 1))"
		printf 'bench-load: serializable, %-22s %-15s %8s committed %7s failed\n' "$scope" "$name" \
			"${committed:-0}" "${failed:-0}"
		# Nothing committed, or pgbench failed: say what it said, so that a failed check can be read.
		[ "${committed:-0}" -gt 0 ] && [ "$rc" = 0 ] || sed 's/^/bench-load:   pgbench: /' <<<"$out" | tail -n 15
	done
}

for scope in "${scopes[@]}"; do
	start "${scope#*|}"
	for ((round = 1; round <= R; round++)); do
		for n in $CLIENTS; do
			for c in "${contestants[@]}"; do
				run "${scope%%|*}" "$n" "${c%%|*}" "$round"
			done
		done
	done
	serializable "${scope%%|*}"
	[ "$FAULT_SECONDS" -le 0 ] || faults "${scope%%|*}"
done

psql_q -d results -c "CREATE VIEW summary AS
	SELECT r.scope, r.clients, r.contestant,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY r.tps) AS tps,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY r.tps / b.tps) AS tps_ratio,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY r.cpu_ms_per_1k) AS cpu_ms_per_1k,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY r.cpu_ms_per_1k / nullif(b.cpu_ms_per_1k, 0)) AS cpu_ratio,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY r.p50_ms) AS p50_ms,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY r.p99_ms) AS p99_ms,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY r.index_bytes_per_row) AS index_bytes_per_row,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY r.wal_bytes_per_row) AS wal_bytes_per_row,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY r.fpi_per_row) AS fpi_per_row,
		min(r.waits) AS waits
	FROM run r JOIN run b ON b.scope = r.scope AND b.clients = r.clients AND b.round = r.round
		AND b.contestant = 'bigint'
	GROUP BY r.scope, r.clients, r.contestant"
psql_q -d results -c "COPY (SELECT * FROM run ORDER BY scope, clients, contestant, round) TO STDOUT (FORMAT csv, HEADER)" >"$OUT/runs.csv"
psql_q -d results -c "COPY (SELECT * FROM summary ORDER BY scope, clients, contestant) TO STDOUT (FORMAT csv, HEADER)" >"$OUT/summary.csv"
psql_q -d results -c "COPY (SELECT * FROM fault ORDER BY scope, kind) TO STDOUT (FORMAT csv, HEADER)" >"$OUT/faults.csv"
psql_q -d results -c "COPY (SELECT * FROM serial ORDER BY scope, contestant) TO STDOUT (FORMAT csv, HEADER)" >"$OUT/serializable.csv"
{
	echo "| scope | clients | contestant | TPS | vs bigint | CPU ms per 1k | vs bigint | p50 ms | p99 ms | index B/row | WAL B/row | FPI/row | top waits |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	psql_q -d results -F ' | ' -c "SELECT scope, clients, contestant, round(tps), round(tps_ratio::numeric, 2) || 'x',
		round(cpu_ms_per_1k::numeric, 1), round(cpu_ratio::numeric, 2) || 'x',
		round(p50_ms::numeric, 3), round(p99_ms::numeric, 3), round(index_bytes_per_row::numeric, 1),
		round(wal_bytes_per_row::numeric), round(fpi_per_row::numeric, 3), waits
		FROM summary ORDER BY scope, clients, contestant" | sed 's/^/| /; s/$/ |/'
	echo
	echo "| scope | contestant | committed | failed (serialization) | failed share |"
	echo "|---|---|---|---|---|"
	psql_q -d results -F ' | ' -c "SELECT scope, contestant, committed, failed, round(failed_pct::numeric, 1) || '%'
		FROM serial ORDER BY scope, contestant" | sed 's/^/| /; s/$/ |/'
} >"$OUT/summary.md"
cat "$OUT/summary.md"
echo "bench-load: wrote $OUT/runs.csv, summary.csv, summary.md, faults.csv and serializable.csv"
# A duplicate, or a session's IDs out of order, under the faults fails the run, as a failed
# timed run does.
bad=$(psql_q -d results -c "SELECT count(*) FROM fault WHERE distinct_ids <> rows OR sessions_out_of_order > 0")
if [ "$bad" != 0 ] || [ "$failed_runs" != 0 ]; then
	echo "bench-load: FAILED: $failed_runs timed runs failed; $bad fault runs with a duplicate ID or a session's IDs out of order"
	exit 1
fi
