# lib.sh: sourced by bench/bench.sh and bench/count.sh: the benchmarks' throwaway cluster, started
# in dir (removed on exit), with the database bench, its bench.n (N) and bench.dir (dir/files, which
# the server writes COPY files into) set; psql_b runs psql there. Needs top, N, PGBIN and PGPORT.

# In-memory sorts and hashes, no parallelism, no JIT, no autovacuum (a worker waking up on one of
# the tables loaded in a round would take a core from the timed statements): the workloads
# measure the types.
bench_settings=(shared_buffers=2GB work_mem=1GB autovacuum=off maintenance_work_mem=1GB
	max_parallel_workers_per_gather=0 max_parallel_maintenance_workers=0 jit=off
	synchronous_commit=off max_wal_size=10GB checkpoint_timeout=1h)

dir=$(mktemp -d /tmp/idtb.XXXXXX)
chmod 755 "$dir"
cleanup() {
	bash "$top/test/cluster.sh" stop "$dir" >/dev/null 2>&1 || true
	rm -rf "$dir"
}
trap cleanup EXIT

mapfile -t bench_opts < <(printf -- '-c\n%s\n' "${bench_settings[@]}")
bash "$top/test/cluster.sh" start "$dir" "${bench_opts[@]}"
export PGHOST=$dir
mkdir -p "$dir/files"
[ "$(id -u)" -ne 0 ] || chown postgres: "$dir/files"

psql_b() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At -d bench "$@"; }
"$PGBIN/psql" -X -q -c "CREATE DATABASE bench"
psql_b -c "ALTER DATABASE bench SET bench.n = '$N'" -c "ALTER DATABASE bench SET bench.dir = '$dir/files'" \
	-c "ALTER DATABASE bench SET client_min_messages = warning"
