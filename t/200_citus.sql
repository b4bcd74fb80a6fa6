-- t/200_citus.sql: the SQL of t/200_citus.pl, on the coordinator: the helpers, then the checks of
-- one type, with {{t}} (the type), {{gen}}, {{ts}} and {{tr}} (its generator, timestamp and time
-- range functions), {{d}} and {{l}} (its distributed table and a local copy), {{rows}}, {{shards}},
-- {{probe_n}} (the n of the row probed), {{lo}} and {{hi}} (the offsets of a 1% time window).

-- Helpers on the coordinator only (not propagated): ok() prints the verdict of a check, rows_md5()
-- the digest of a query's rows in a fixed order, plan_of() a query's EXPLAIN text.
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

-- ---- per type
SELECT ok('{{t}}: {{rows}} rows loaded by INSERT ... SELECT, COPY text and COPY binary, all distinct',
          (SELECT count(*) = {{rows}} AND count(DISTINCT id) = {{rows}} AND count(DISTINCT n) = {{rows}} FROM {{d}}));
SELECT ok(format('{{t}}: spread over %s shards, the fullest holding %s rows (fair share %s)', count(*), max(result::int), {{rows}} / count(*)),
          count(*) = {{shards}} AND max(result::int) <= 2 * {{rows}} / count(*))
FROM run_command_on_shards('{{d}}', 'SELECT count(*) FROM %s');

-- The same rows in an ordinary local table on the coordinator: what every answer is checked against.
CREATE TABLE {{l}} AS SELECT * FROM {{d}};
CREATE INDEX ON {{l}} (id);
ANALYZE {{l}};

-- Router query.
SELECT id AS probe, n AS probe_n FROM {{l}} WHERE n = {{probe_n}} \gset
SELECT ok('{{t}}: WHERE id = const is a router query (one task)',
          position('Task Count: 1' IN plan_of(format('SELECT n FROM {{d}} WHERE id = %L', :'probe'))) > 0);
SELECT n AS got_n FROM {{d}} WHERE id = :'probe' \gset
SELECT ok('{{t}}: ... and finds its row', :got_n = :probe_n);

-- A prefix holding 100 or more rows, as long as possible; a time window over about 1% of the rows.
SELECT p AS prefix FROM (
	SELECT left(:'probe', k) AS p, k FROM generate_series(1, length(:'probe')) k) s
WHERE (SELECT count(*) FROM {{l}} WHERE id ^@ p) >= 100 ORDER BY k DESC LIMIT 1 \gset
SELECT {{ts}}(id) AS t_lo FROM {{l}} ORDER BY id OFFSET {{lo}} LIMIT 1 \gset
SELECT {{ts}}(id) AS t_hi FROM {{l}} ORDER BY id OFFSET {{hi}} LIMIT 1 \gset
SELECT check_same('{{t}}: id ^@ ' || :'prefix', format('SELECT id, n FROM %%s WHERE id ^@ %L', :'prefix'), '{{d}}', '{{l}}');
SELECT check_indexed('{{t}}: id ^@ ' || :'prefix', format('SELECT id, n FROM {{d}} WHERE id ^@ %L', :'prefix'));
SELECT check_same('{{t}}: id <@ {{tr}}(...)',
                  format('SELECT id, n FROM %%s WHERE id <@ {{tr}}(tstzrange(%L, %L, ''[]''))', :'t_lo', :'t_hi'), '{{d}}', '{{l}}');
SELECT check_indexed('{{t}}: id <@ {{tr}}(...)',
                     format('SELECT id, n FROM {{d}} WHERE id <@ {{tr}}(tstzrange(%L, %L, ''[]''))', :'t_lo', :'t_hi'));

-- A co-located table (every 10th ID) and a reference table keyed by the ID (every 100th).
SET citus.shard_count = {{shards}};
CREATE TABLE c_{{t}} (id {{t}} PRIMARY KEY, x int NOT NULL);
SELECT create_distributed_table('c_{{t}}', 'id', colocate_with => '{{d}}') \g /dev/null
INSERT INTO c_{{t}} SELECT id, n * 2 FROM {{d}} WHERE n % 10 = 0;
CREATE TABLE r_{{t}} (id {{t}} PRIMARY KEY, label text NOT NULL);
SELECT create_reference_table('r_{{t}}') \g /dev/null
INSERT INTO r_{{t}} SELECT id, 'r' || n FROM {{l}} WHERE n % 100 = 0;
CREATE TABLE lc_{{t}} AS SELECT id, n * 2 AS x FROM {{l}} WHERE n % 10 = 0;
CREATE TABLE lr_{{t}} AS SELECT id, 'r' || n AS label FROM {{l}} WHERE n % 100 = 0;
SELECT ok('{{t}}: the two distributed tables are co-located',
          (SELECT count(DISTINCT colocationid) = 1 FROM pg_dist_partition
           WHERE logicalrelid IN ('{{d}}'::regclass, 'c_{{t}}'::regclass)));
SELECT ok('{{t}}: the co-located join runs shard by shard ({{shards}} tasks)',
          position('Task Count: {{shards}}' IN plan_of('SELECT count(*) FROM {{d}} JOIN c_{{t}} USING (id)')) > 0);
SELECT check_same('{{t}}: co-located join', 'SELECT id, n, x FROM %s JOIN c_{{t}} USING (id)', '{{d}}', '{{l}}');
SELECT check_same('{{t}}: join with the reference table', 'SELECT id, n, label FROM %s JOIN r_{{t}} USING (id)', '{{d}}', '{{l}}');
SELECT check_same('{{t}}: co-located join, from the local copies',
                  'SELECT id, x FROM %s', 'c_{{t}}', 'lc_{{t}}');
SELECT check_same('{{t}}: reference table, from the local copy', 'SELECT id, label FROM %s', 'r_{{t}}', 'lr_{{t}}');
SELECT min(id) AS d_min, max(id) AS d_max FROM {{d}} \gset
SELECT ok('{{t}}: min() and max() over the shards', min(id) = :'d_min' AND max(id) = :'d_max') FROM {{l}};
