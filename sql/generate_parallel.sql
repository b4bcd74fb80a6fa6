-- The generators in parallel queries. The generators with a session's state (the monotonic
-- ones, and generate_ulid(), whose IDs increase within a session) are PARALLEL RESTRICTED: a
-- parallel plan calls them in the leader only, one state stepping in the order the rows are
-- made, so their IDs increase in that order (a CREATE TABLE AS stores them in it) and none
-- repeats; the others (random, or a given time) are PARALLEL SAFE and may run in the workers.
SELECT p.oid::regprocedure AS function, p.proparallel
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idtypes'
WHERE p.proname LIKE 'generate%'
ORDER BY p.proparallel, p.oid::regprocedure::text;

-- 200,000 source rows, 100,000 IDs a check; a tenth where IDTYPES_REGRESS_SMALL is set (the lanes
-- under qemu-user), which still puts IDs of both workers into every millisecond: generate_ulid()
-- marked PARALLEL SAFE gave IDs out of order at either size.
\getenv regress_small IDTYPES_REGRESS_SMALL
\if :{?regress_small}
\set par_rows 20000
\else
\set par_rows 200000
\endif
CREATE TABLE par_src AS SELECT n FROM generate_series(1, :par_rows) n;
ANALYZE par_src;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;

-- The plan scans in the workers and calls the generator above the Gather.
CREATE FUNCTION par_plan(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q INTO plan;
	RETURN format('top: %s, workers launched: %s', plan->0->'Plan'->>'Node Type',
				  (plan->0->'Plan'->>'Workers Launched')::int > 0);
END $$;
SELECT par_plan('CREATE TABLE par_ids AS SELECT generate_tid() FROM par_src WHERE n % 2 = 0');
DROP TABLE par_ids;

-- Each generator, in a CREATE TABLE AS over the parallel scan: no ID twice, and (monotonic
-- ones) strictly increasing in the order stored.
CREATE FUNCTION par_check(gen text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	distinct_ok bool;
	increasing bool;
BEGIN
	EXECUTE format('CREATE TABLE par_ids AS SELECT %s AS id FROM par_src WHERE n %% 2 = 0', gen);
	EXECUTE 'SELECT count(*) = (SELECT count(*) FROM par_src WHERE n % 2 = 0) AND count(DISTINCT id) = count(*)
			 FROM par_ids' INTO distinct_ok;
	EXECUTE 'SELECT bool_and(id > p) FROM (SELECT id, lag(id) OVER (ORDER BY ctid) p FROM par_ids) s
			 WHERE p IS NOT NULL' INTO increasing;
	DROP TABLE par_ids;
	RETURN format('%s: distinct %s, increasing %s', gen, distinct_ok, increasing);
END $$;
SELECT par_check(g) FROM (VALUES ('generate_xid()'), ('generate_tid()'), ('generate_tid(7)'),
	('generate_ulidflake()'), ('generate_ulidflake(3)'), ('generate_ulid()'),
	('generate_ulid_monotonic()'), ('generate_euid()'), ('generate_euid(9)'),
	('generate_uid11_xid()'), ('generate_timeid()')) v(g);
-- The random generator: no ID twice (its order is random).
SELECT par_check('generate_uid11()') ~ 'distinct t';

-- generate_tid_at(ts) (PARALLEL SAFE) runs in the workers, and there its default clock id is the
-- session's, the leader's: one query, one clock id. (With per-backend state the default is the
-- backend's slot, and a worker's own slot gave each worker its own.)
DO $$
DECLARE
	plan json;
BEGIN
	EXPLAIN (VERBOSE, FORMAT JSON, COSTS OFF)
		SELECT generate_tid_at('2026-06-01 00:00+00') FROM par_src INTO plan;
	RAISE NOTICE 'top: %, called below it: %', plan->0->'Plan'->>'Node Type',
		plan->0->'Plan'->'Plans'->0->>'Output' LIKE '%generate_tid_at%';
END $$;
CREATE TABLE par_ids AS SELECT generate_tid_at('2026-06-01 00:00+00') AS id FROM par_src;
SELECT count(DISTINCT id) AS ids,
	bool_and(id = generate_tid_at('2026-06-01 00:00+00')) AS all_the_leaders
FROM par_ids;
DROP TABLE par_ids;

DROP TABLE par_src;
DROP FUNCTION par_plan(text), par_check(text);
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
RESET parallel_leader_participation;
