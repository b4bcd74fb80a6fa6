#!/usr/bin/env bash
# citus.sh: the five types as Citus distribution columns (PostgreSQL 16-18; Citus 14.0.1 built by
# scripts/vendor-build.sh from the vendored source the first time).
#
# A coordinator and two workers on this machine (unix sockets, each its own cluster, citus
# preloaded, idtypes.node_id 1, 2 and 3). CREATE EXTENSION citus on every node, the workers added
# on the coordinator, then CREATE EXTENSION idtypes on the coordinator only: the script checks
# that Citus created it on the workers. Per type:
#   - a table `id <type> PRIMARY KEY DEFAULT generate_...()` distributed on id, CITUS_ROWS
#     (default 100,000) rows loaded by INSERT ... SELECT, COPY text and COPY binary: exact total,
#     no shard above twice its fair share;
#   - WHERE id = const is a router query (Task Count: 1) and finds its row;
#   - ^@ prefix and <@ time range queries return what the same query returns on a local table with
#     the same rows, and every shard query uses the btree index (EXPLAIN ANALYZE, all tasks);
#   - a join with a co-located table and one with a reference table keyed by the ID: right rows;
#   - every result the same with citus.enable_binary_protocol on and off.
#
# Run by test/run_tests.sh (PG_CONFIG, PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set).
# Exit status 77 on servers Citus 14 does not support, where its source is not at hand, and where
# Citus is not installed and this user cannot install it.
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/nodes.sh"
. "$here/../lib/vendor.sh"

major=$(server_major)
if [ "$major" -lt 16 ] || [ "$major" -gt 18 ]; then
	echo "Citus 14 supports PostgreSQL 16-18; this server is $major"
	exit 77
fi
ROWS=${CITUS_ROWS:-100000}
SHARDS=8

vendor_require citus "Citus 14.0.1" citus-14.0.1.tar.gz

nodes_workdir
port0=$((PGPORT + 30))
NODES="1 2 3" # 1: coordinator, 2 and 3: workers
dir_of() { echo "$work/n$1"; }
port_of() { echo $((port0 + $1)); }
on() { # on <node> [psql arguments...]: in the test database
	local n=$1
	shift
	node_psql "$(dir_of "$n")" "$(port_of "$n")" -d idt_citus "$@"
}

for n in $NODES; do
	node_start "$(dir_of "$n")" "$(port_of "$n")" -c shared_preload_libraries=citus \
		-c max_prepared_transactions=100 -c idtypes.node_id="$n"
	node_psql "$(dir_of "$n")" "$(port_of "$n")" -d postgres -c "CREATE DATABASE idt_citus"
	on "$n" -c "CREATE EXTENSION citus"
done
on 1 -c "SELECT citus_set_coordinator_host('$(dir_of 1)', $(port_of 1))" >/dev/null
for n in 2 3; do
	on 1 -c "SELECT citus_add_node('$(dir_of "$n")', $(port_of "$n"))" >/dev/null
done
echo "Citus $(on 1 -c "SELECT extversion FROM pg_extension WHERE extname = 'citus'"):" \
	"$(on 1 -c "SELECT count(*) FROM pg_dist_node WHERE noderole = 'primary' AND shouldhaveshards") workers"

. "$(dirname "$0")/../lib/report.sh"
on 1 -c "CREATE EXTENSION idtypes"
for n in 2 3; do
	got=$(on "$n" -c "SELECT extversion FROM pg_extension WHERE extname = 'idtypes'")
	if [ -n "$got" ]; then
		ok "CREATE EXTENSION idtypes on the coordinator created idtypes $got on worker $n"
	else
		bad "CREATE EXTENSION idtypes on the coordinator did not reach worker $n"
	fi
done

# Helpers on the coordinator only (not propagated): ok() prints the verdict of a check, rows_md5()
# the digest of a query's rows in a fixed order, plan_of() a query's EXPLAIN text.
on 1 <<'SQL'
SET citus.enable_ddl_propagation = off;
CREATE FUNCTION ok(what text, good bool) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	RAISE NOTICE '%', CASE WHEN good IS TRUE THEN 'ok: ' ELSE 'FAILED: ' END || what;
END $$;
CREATE FUNCTION rows_md5(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	h text;
BEGIN
	EXECUTE format('SELECT md5(string_agg(r::text, '','' ORDER BY r::text)) || '':'' || count(*) FROM (%s) r', q)
		INTO h;
	RETURN h;
END $$;
CREATE FUNCTION plan_of(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	line text;
	plan text := '';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
		plan := plan || line || E'\n';
	END LOOP;
	RETURN plan;
END $$;
-- check_same(what, query with %s for the table): the distributed table gives the local table's
-- rows, with the binary protocol between the nodes on and off.
CREATE FUNCTION check_same(what text, q text, dist text, local text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	want text := rows_md5(format(q, local));
	got_on text;
	got_off text;
BEGIN
	PERFORM set_config('citus.enable_binary_protocol', 'on', true);
	got_on := rows_md5(format(q, dist));
	PERFORM set_config('citus.enable_binary_protocol', 'off', true);
	got_off := rows_md5(format(q, dist));
	PERFORM set_config('citus.enable_binary_protocol', 'on', true);
	PERFORM ok(format('%s: %s rows as on a local table (binary protocol on and off)', what,
	                  split_part(want, ':', 2)),
	           got_on = want AND got_off = want AND split_part(want, ':', 2)::int > 0);
END $$;
-- check_indexed(what, query): every task's plan on the workers reads the btree index.
CREATE FUNCTION check_indexed(what text, q text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	plan text;
	tasks int;
	indexed int;
BEGIN
	PERFORM set_config('citus.explain_all_tasks', 'on', true);
	plan := plan_of(q);
	tasks := substring(plan FROM 'Task Count: (\d+)')::int;
	indexed := (SELECT count(*) FROM regexp_matches(plan, '(Index Only Scan|Index Scan|Bitmap Index Scan) using \S+_pkey|Bitmap Index Scan on \S+_pkey', 'g'));
	PERFORM ok(format('%s: all %s tasks scan the btree index', what, tasks),
	           tasks > 0 AND indexed = tasks AND position('Seq Scan' IN plan) = 0);
	IF indexed IS DISTINCT FROM tasks THEN
		RAISE NOTICE '%', plan;
	END IF;
END $$;
SQL

# test_type <type> <generator> <timestamp function> <time range function>
test_type() {
	local t=$1 gen=$2 ts=$3 tr=$4 d=d_$1 l=l_$1
	on 1 -c "SET citus.shard_count = $SHARDS" \
		-c "CREATE TABLE $d (id $t PRIMARY KEY DEFAULT $gen, n int NOT NULL)" \
		-c "SELECT create_distributed_table('$d', 'id')" >/dev/null
	# Three loads: defaults under INSERT ... SELECT, then IDs made on the coordinator through COPY
	# in text and in binary format.
	local third=$((ROWS / 3))
	on 1 -c "INSERT INTO $d (n) SELECT g FROM generate_series(1, $((ROWS - 2 * third))) g"
	on 1 -c "COPY (SELECT $gen, g FROM generate_series($((ROWS - 2 * third + 1)), $((ROWS - third))) g) TO STDOUT" |
		on 1 -c "COPY $d FROM STDIN"
	on 1 -c "COPY (SELECT $gen, g FROM generate_series($((ROWS - third + 1)), $ROWS) g) TO STDOUT (FORMAT binary)" |
		on 1 -c "COPY $d FROM STDIN (FORMAT binary)"
	on 1 -c "VACUUM ANALYZE $d"
	on 1 2>&1 <<SQL | sed -e 's/^NOTICE:  //' -e '/^$/d' | tee -a "$work/checks.log"
SET client_min_messages = notice;
SELECT ok('$t: $ROWS rows loaded by INSERT ... SELECT, COPY text and COPY binary, all distinct',
          (SELECT count(*) = $ROWS AND count(DISTINCT id) = $ROWS AND count(DISTINCT n) = $ROWS FROM $d));
SELECT ok(format('$t: spread over %s shards, the fullest holding %s rows (fair share %s)', count(*), max(result::int), $ROWS / count(*)),
          count(*) = $SHARDS AND max(result::int) <= 2 * $ROWS / count(*))
FROM run_command_on_shards('$d', 'SELECT count(*) FROM %s');

-- The same rows in an ordinary local table on the coordinator: what every answer is checked against.
CREATE TABLE $l AS SELECT * FROM $d;
CREATE INDEX ON $l (id);
ANALYZE $l;

-- Router query.
SELECT id AS probe, n AS probe_n FROM $l WHERE n = $((ROWS / 2)) \gset
SELECT ok('$t: WHERE id = const is a router query (one task)',
          position('Task Count: 1' IN plan_of(format('SELECT n FROM $d WHERE id = %L', :'probe'))) > 0);
SELECT n AS got_n FROM $d WHERE id = :'probe' \gset
SELECT ok('$t: ... and finds its row', :got_n = :probe_n);

-- A prefix holding 100 or more rows, as long as possible; a time window over about 1% of the rows.
SELECT p AS prefix FROM (
	SELECT left(:'probe', k) AS p, k FROM generate_series(1, length(:'probe')) k) s
WHERE (SELECT count(*) FROM $l WHERE id ^@ p) >= 100 ORDER BY k DESC LIMIT 1 \gset
SELECT $ts(id) AS t_lo FROM $l ORDER BY id OFFSET $((ROWS * 495 / 1000)) LIMIT 1 \gset
SELECT $ts(id) AS t_hi FROM $l ORDER BY id OFFSET $((ROWS * 505 / 1000)) LIMIT 1 \gset
SELECT check_same('$t: id ^@ ' || :'prefix', format('SELECT id, n FROM %%s WHERE id ^@ %L', :'prefix'), '$d', '$l');
SELECT check_indexed('$t: id ^@ ' || :'prefix', format('SELECT id, n FROM $d WHERE id ^@ %L', :'prefix'));
SELECT check_same('$t: id <@ $tr(...)',
                  format('SELECT id, n FROM %%s WHERE id <@ $tr(tstzrange(%L, %L, ''[]''))', :'t_lo', :'t_hi'), '$d', '$l');
SELECT check_indexed('$t: id <@ $tr(...)',
                     format('SELECT id, n FROM $d WHERE id <@ $tr(tstzrange(%L, %L, ''[]''))', :'t_lo', :'t_hi'));

-- A co-located table (every 10th ID) and a reference table keyed by the ID (every 100th).
SET citus.shard_count = $SHARDS;
CREATE TABLE c_$t (id $t PRIMARY KEY, x int NOT NULL);
SELECT create_distributed_table('c_$t', 'id', colocate_with => '$d') \g /dev/null
INSERT INTO c_$t SELECT id, n * 2 FROM $d WHERE n % 10 = 0;
CREATE TABLE r_$t (id $t PRIMARY KEY, label text NOT NULL);
SELECT create_reference_table('r_$t') \g /dev/null
INSERT INTO r_$t SELECT id, 'r' || n FROM $l WHERE n % 100 = 0;
CREATE TABLE lc_$t AS SELECT id, n * 2 AS x FROM $l WHERE n % 10 = 0;
CREATE TABLE lr_$t AS SELECT id, 'r' || n AS label FROM $l WHERE n % 100 = 0;
SELECT ok('$t: the two distributed tables are co-located',
          (SELECT count(DISTINCT colocationid) = 1 FROM pg_dist_partition
           WHERE logicalrelid IN ('$d'::regclass, 'c_$t'::regclass)));
SELECT ok('$t: the co-located join runs shard by shard ($SHARDS tasks)',
          position('Task Count: $SHARDS' IN plan_of('SELECT count(*) FROM $d JOIN c_$t USING (id)')) > 0);
SELECT check_same('$t: co-located join', 'SELECT id, n, x FROM %s JOIN c_$t USING (id)', '$d', '$l');
SELECT check_same('$t: join with the reference table', 'SELECT id, n, label FROM %s JOIN r_$t USING (id)', '$d', '$l');
SELECT check_same('$t: co-located join, from the local copies',
                  'SELECT id, x FROM %s', 'c_$t', 'lc_$t');
SELECT check_same('$t: reference table, from the local copy', 'SELECT id, label FROM %s', 'r_$t', 'lr_$t');
SELECT min(id) AS d_min, max(id) AS d_max FROM $d \gset
SELECT ok('$t: min() and max() over the shards', min(id) = :'d_min' AND max(id) = :'d_max') FROM $l;
SQL
}

# Called as plain commands, not inside || or if, so that set -e stops the script at the first step
# that fails (a failed create_distributed_table, an SQL error) for every type, not only the last.
# The checks' verdicts come from the SQL function ok() and are counted from checks.log.
: >"$work/checks.log"
test_type uid11 "generate_xid()" xid_timestamp uid11_time_range
test_type timeid "generate_tid()" timeid_timestamp timeid_time_range
test_type ulidflake "generate_ulidflake()" ulidflake_timestamp ulidflake_time_range
test_type ulid "generate_ulid_monotonic()" ulid_timestamp ulid_time_range
test_type euid "generate_euid()" euid_timestamp euid_time_range
tally "$work/checks.log"
# 2 for the workers, 15 per type.
finish $((2 + 5 * 15))
