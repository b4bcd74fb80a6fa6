-- schema: idtypes in a schema that is not on search_path, and after ALTER EXTENSION ... SET
-- SCHEMA: qualified types, functions and operators work, ^@ and <@ (constants, and parameters in
-- generic plans) are index scans and prune partitions, with a seq scan's rows.
--
-- In a database of its own: this one keeps the extension in public, as init made it.
\set idt_regress_db :DBNAME
CREATE DATABASE idt_schema TEMPLATE template0;
\c idt_schema
SET timezone = 'UTC';
\set VERBOSITY terse
CREATE SCHEMA idt;
CREATE EXTENSION idtypes SCHEMA idt;
SHOW search_path;
-- the search_path does not reach the extension: only qualified names do
SELECT '01KQPMFM800000000000000000'::ulid;
SELECT '01KQPMFM800000000000000000'::idt.ulid;

-- 2000 IDs per type, the smallest of each instant (*_first_at) 4 h 20 min apart from 2026-01-01 to
-- 2026-12-27: deterministic, in time order.
CREATE TABLE s_ids (n int, u idt.uid11, t idt.timeid, f idt.ulidflake, l idt.ulid, e idt.euid);
INSERT INTO s_ids
SELECT i, idt.uid11_first_at(ts), idt.timeid_first_at(ts), idt.ulidflake_first_at(ts),
       idt.ulid_first_at(ts), idt.euid_first_at(ts)
FROM (SELECT i, '2026-01-01'::timestamptz + i * interval '4 hours 20 minutes' AS ts
      FROM generate_series(0, 1999) i) s;
CREATE INDEX s_ids_u ON s_ids (u);
CREATE INDEX s_ids_t ON s_ids (t);
CREATE INDEX s_ids_f ON s_ids (f);
CREATE INDEX s_ids_l ON s_ids (l);
CREATE INDEX s_ids_e ON s_ids (e);
-- the quarters of 2026 on a ulid
CREATE TABLE s_part (id idt.ulid, n int) PARTITION BY RANGE (id);
CREATE TABLE s_part_q1 PARTITION OF s_part
	FOR VALUES FROM (idt.ulid_first_at('2026-01-01')) TO (idt.ulid_first_at('2026-04-01'));
CREATE TABLE s_part_q2 PARTITION OF s_part
	FOR VALUES FROM (idt.ulid_first_at('2026-04-01')) TO (idt.ulid_first_at('2026-07-01'));
CREATE TABLE s_part_q3 PARTITION OF s_part
	FOR VALUES FROM (idt.ulid_first_at('2026-07-01')) TO (idt.ulid_first_at('2026-10-01'));
CREATE TABLE s_part_q4 PARTITION OF s_part
	FOR VALUES FROM (idt.ulid_first_at('2026-10-01')) TO (idt.ulid_first_at('2027-01-01'));
INSERT INTO s_part SELECT l, n FROM s_ids;
CREATE INDEX s_part_id ON s_part (id);
VACUUM ANALYZE s_ids, s_part;
SELECT tableoid::regclass AS partition, count(*), min(n), max(n) FROM s_part GROUP BY 1 ORDER BY 1;

-- s_rows(query): how many rows the query gives and whether a seq scan gives the same ones
-- (the query selects n; it runs once with seq scans off, once with index scans off).
CREATE FUNCTION s_rows(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	cnt bigint;
	by_index text;
	by_seq text;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	EXECUTE format('SELECT count(*), string_agg(n::text, '','' ORDER BY n) FROM (%s) s', q) INTO cnt, by_index;
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_indexscan', 'off', true);
	PERFORM set_config('enable_bitmapscan', 'off', true);
	EXECUTE format('SELECT string_agg(n::text, '','' ORDER BY n) FROM (%s) s', q) INTO by_seq;
	RETURN cnt || ' rows, ' || CASE WHEN by_index IS NOT DISTINCT FROM by_seq THEN 'as a seq scan'
	                                ELSE 'NOT the rows of a seq scan' END;
END $$;

-- Plans with seq scans off: the question is whether the operators can use the index at all.
SET enable_seqscan = off;

-- ---- in schema idt, not on search_path ---------------------------------------------------------

-- constants: the operator's [lo, hi] as the index condition
EXPLAIN (COSTS OFF) SELECT n FROM s_ids WHERE u OPERATOR(idt.^@) '5S';
EXPLAIN (COSTS OFF) SELECT n FROM s_ids WHERE t OPERATOR(idt.^@) '3mk';
EXPLAIN (COSTS OFF) SELECT n FROM s_ids WHERE f OPERATOR(idt.^@) '024';
EXPLAIN (COSTS OFF) SELECT n FROM s_ids WHERE l OPERATOR(idt.^@) '01KQ';
EXPLAIN (COSTS OFF) SELECT n FROM s_ids WHERE e OPERATOR(idt.^@) '1KQ';
EXPLAIN (COSTS OFF) SELECT n FROM s_ids
WHERE l OPERATOR(idt.<@) idt.ulid_time_range('[2026-05-03,2026-05-10)');
EXPLAIN (COSTS OFF) SELECT n FROM s_ids
WHERE t OPERATOR(idt.<@) idt.timeid_time_range('[2026-05-03,2026-05-10)');
SELECT q, s_rows(q) FROM (VALUES
	($$SELECT n FROM s_ids WHERE u OPERATOR(idt.^@) '5S'$$),
	($$SELECT n FROM s_ids WHERE t OPERATOR(idt.^@) '3mk'$$),
	($$SELECT n FROM s_ids WHERE f OPERATOR(idt.^@) '024'$$),
	($$SELECT n FROM s_ids WHERE l OPERATOR(idt.^@) '01KQ'$$),
	($$SELECT n FROM s_ids WHERE e OPERATOR(idt.^@) '1KQ'$$),
	($$SELECT n FROM s_ids WHERE u OPERATOR(idt.<@) idt.uid11_time_range('[2026-05-03,2026-05-10)')$$),
	($$SELECT n FROM s_ids WHERE t OPERATOR(idt.<@) idt.timeid_time_range('[2026-05-03,2026-05-10)')$$),
	($$SELECT n FROM s_ids WHERE f OPERATOR(idt.<@) idt.ulidflake_time_range('[2026-05-03,2026-05-10)')$$),
	($$SELECT n FROM s_ids WHERE l OPERATOR(idt.<@) idt.ulid_time_range('[2026-05-03,2026-05-10)')$$),
	($$SELECT n FROM s_ids WHERE e OPERATOR(idt.<@) idt.euid_time_range('[2026-05-03,2026-05-10)')$$),
	($$SELECT n FROM s_part WHERE id OPERATOR(idt.^@) '01KQ'$$),
	($$SELECT n FROM s_part WHERE id OPERATOR(idt.<@) idt.ulid_time_range('[2026-05-03,2026-05-10)')$$)
) v(q);

-- partitions: a constant prunes at plan time. (Index scan or bitmap scan of one partition is the
-- costs' choice, which differs between platforms: 4-byte alignment packs more rows in a page.
-- What is shown here and below is the pruning and the index condition, with bitmap scans off.)
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM s_part WHERE id OPERATOR(idt.^@) '01KQ';
EXPLAIN (COSTS OFF) SELECT n FROM s_part
WHERE id OPERATOR(idt.<@) idt.ulid_time_range('[2026-05-03,2026-05-10)');

-- parameters in generic plans: bounds from the extension's functions at scan start, partitions
-- pruned when the executor starts
SET plan_cache_mode = force_generic_plan;
PREPARE s_prefix(text) AS SELECT count(*), min(n), max(n) FROM s_ids WHERE l OPERATOR(idt.^@) $1;
PREPARE s_window(tstzrange) AS
	SELECT count(*), min(n), max(n) FROM s_ids WHERE t OPERATOR(idt.<@) idt.timeid_time_range($1);
PREPARE s_part_prefix(text) AS
	SELECT count(*), min(n), max(n) FROM s_part WHERE id OPERATOR(idt.^@) $1;
PREPARE s_part_window(idt.ulidrange) AS
	SELECT count(*), min(n), max(n) FROM s_part WHERE id OPERATOR(idt.<@) $1;
EXPLAIN (COSTS OFF) EXECUTE s_prefix('01KQ');
EXECUTE s_prefix('01KQ');
EXPLAIN (COSTS OFF) EXECUTE s_window('[2026-05-03,2026-05-10)');
EXECUTE s_window('[2026-05-03,2026-05-10)');
EXPLAIN (COSTS OFF) EXECUTE s_part_prefix('01KQ');
EXECUTE s_part_prefix('01KQ');
EXPLAIN (COSTS OFF) EXECUTE s_part_window(idt.ulid_time_range('[2026-05-03,2026-05-10)'));
EXECUTE s_part_window(idt.ulid_time_range('[2026-05-03,2026-05-10)'));

-- a view keeps its operators by OID: it goes on working after the move below
CREATE VIEW s_view AS SELECT n FROM s_part WHERE id OPERATOR(idt.^@) '01KQ';

-- ---- moved to schema idt2 ----------------------------------------------------------------------

CREATE SCHEMA idt2;
ALTER EXTENSION idtypes SET SCHEMA idt2;
-- every object went along: functions, operators, operator classes and families, and the types
-- with their arrays, ranges and multiranges (casts have no schema; how many functions there are
-- depends on the server: skip support from 18 on)
SELECT m.classid::regclass AS catalog,
       bool_and(coalesce(p.pronamespace, o.oprnamespace, c.opcnamespace, f.opfnamespace,
                         t.typnamespace) = 'idt2'::regnamespace) AS all_in_idt2
FROM pg_depend m
LEFT JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
LEFT JOIN pg_operator o ON m.classid = 'pg_operator'::regclass AND o.oid = m.objid
LEFT JOIN pg_opclass c ON m.classid = 'pg_opclass'::regclass AND c.oid = m.objid
LEFT JOIN pg_opfamily f ON m.classid = 'pg_opfamily'::regclass AND f.oid = m.objid
LEFT JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
WHERE m.refclassid = 'pg_extension'::regclass AND m.deptype = 'e' AND m.classid <> 'pg_cast'::regclass
  AND m.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idtypes')
GROUP BY 1 ORDER BY m.classid::regclass::text;
SELECT typnamespace::regnamespace AS schema, count(*) FROM pg_type
WHERE typname ~ '^_?(uid11|timeid|ulidflake|ulid|euid)(range|multirange)?$' GROUP BY 1;
SELECT '01KQPMFM800000000000000000'::idt.ulid;
SELECT '01KQPMFM800000000000000000'::idt2.ulid;
SELECT attname, atttypid::regtype FROM pg_attribute
WHERE attrelid = 's_ids'::regclass AND attnum > 0 ORDER BY attnum;

EXPLAIN (COSTS OFF) SELECT n FROM s_ids WHERE u OPERATOR(idt2.^@) '5S';
EXPLAIN (COSTS OFF) SELECT n FROM s_ids WHERE t OPERATOR(idt2.^@) '3mk';
EXPLAIN (COSTS OFF) SELECT n FROM s_ids WHERE f OPERATOR(idt2.^@) '024';
EXPLAIN (COSTS OFF) SELECT n FROM s_ids WHERE l OPERATOR(idt2.^@) '01KQ';
EXPLAIN (COSTS OFF) SELECT n FROM s_ids WHERE e OPERATOR(idt2.^@) '1KQ';
EXPLAIN (COSTS OFF) SELECT n FROM s_ids
WHERE l OPERATOR(idt2.<@) idt2.ulid_time_range('[2026-05-03,2026-05-10)');
EXPLAIN (COSTS OFF) SELECT n FROM s_ids
WHERE t OPERATOR(idt2.<@) idt2.timeid_time_range('[2026-05-03,2026-05-10)');
SELECT q, s_rows(q) FROM (VALUES
	($$SELECT n FROM s_ids WHERE u OPERATOR(idt2.^@) '5S'$$),
	($$SELECT n FROM s_ids WHERE t OPERATOR(idt2.^@) '3mk'$$),
	($$SELECT n FROM s_ids WHERE f OPERATOR(idt2.^@) '024'$$),
	($$SELECT n FROM s_ids WHERE l OPERATOR(idt2.^@) '01KQ'$$),
	($$SELECT n FROM s_ids WHERE e OPERATOR(idt2.^@) '1KQ'$$),
	($$SELECT n FROM s_ids WHERE u OPERATOR(idt2.<@) idt2.uid11_time_range('[2026-05-03,2026-05-10)')$$),
	($$SELECT n FROM s_ids WHERE t OPERATOR(idt2.<@) idt2.timeid_time_range('[2026-05-03,2026-05-10)')$$),
	($$SELECT n FROM s_ids WHERE f OPERATOR(idt2.<@) idt2.ulidflake_time_range('[2026-05-03,2026-05-10)')$$),
	($$SELECT n FROM s_ids WHERE l OPERATOR(idt2.<@) idt2.ulid_time_range('[2026-05-03,2026-05-10)')$$),
	($$SELECT n FROM s_ids WHERE e OPERATOR(idt2.<@) idt2.euid_time_range('[2026-05-03,2026-05-10)')$$),
	($$SELECT n FROM s_part WHERE id OPERATOR(idt2.^@) '01KQ'$$),
	($$SELECT n FROM s_part WHERE id OPERATOR(idt2.<@) idt2.ulid_time_range('[2026-05-03,2026-05-10)')$$)
) v(q);
EXPLAIN (COSTS OFF) SELECT n FROM s_part WHERE id OPERATOR(idt2.^@) '01KQ';
EXPLAIN (COSTS OFF) SELECT n FROM s_part
WHERE id OPERATOR(idt2.<@) idt2.ulid_time_range('[2026-05-03,2026-05-10)');

-- the view made before the move, planned now
EXPLAIN (COSTS OFF) SELECT n FROM s_view;
SELECT count(*), min(n), max(n) FROM s_view;
-- parameters: a statement prepared before the move names idt's operator, which is gone (its text
-- is analyzed again); prepared again with idt2's
EXECUTE s_prefix('01KQ');
DEALLOCATE ALL;
PREPARE s_prefix(text) AS SELECT count(*), min(n), max(n) FROM s_ids WHERE l OPERATOR(idt2.^@) $1;
PREPARE s_window(tstzrange) AS
	SELECT count(*), min(n), max(n) FROM s_ids WHERE t OPERATOR(idt2.<@) idt2.timeid_time_range($1);
PREPARE s_part_prefix(text) AS
	SELECT count(*), min(n), max(n) FROM s_part WHERE id OPERATOR(idt2.^@) $1;
PREPARE s_part_window(idt2.ulidrange) AS
	SELECT count(*), min(n), max(n) FROM s_part WHERE id OPERATOR(idt2.<@) $1;
EXPLAIN (COSTS OFF) EXECUTE s_prefix('01KQ');
EXECUTE s_prefix('01KQ');
EXPLAIN (COSTS OFF) EXECUTE s_window('[2026-05-03,2026-05-10)');
EXECUTE s_window('[2026-05-03,2026-05-10)');
EXPLAIN (COSTS OFF) EXECUTE s_part_prefix('01KQ');
EXECUTE s_part_prefix('01KQ');
EXPLAIN (COSTS OFF) EXECUTE s_part_window(idt2.ulid_time_range('[2026-05-03,2026-05-10)'));
EXECUTE s_part_window(idt2.ulid_time_range('[2026-05-03,2026-05-10)'));
DEALLOCATE ALL;

\c :idt_regress_db
DROP DATABASE idt_schema;
-- this database's extension is where init put it
SELECT extname, extnamespace::regnamespace FROM pg_extension WHERE extname = 'idtypes';
