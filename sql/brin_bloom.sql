-- brin_bloom: <type>_bloom_ops (BRIN bloom, not the default) on each type validate, are built
-- and used by the planner for =, skip most of the table, and return the same rows as a
-- sequential scan; the bloom parameters are accepted and checked.
\set VERBOSITY terse

-- 20000 rows whose values are scattered over the table (what bloom is for, where minmax finds
-- nothing to skip): x runs over the unsigned 64-bit range in multiplicative-hash order.
CREATE TABLE bloom_ids AS
SELECT i AS n, h::uid11 AS a, (x % 9223372036854775808)::bigint::timeid AS b,
       (x % 9223372036854775808)::bigint::ulidflake AS c,
       (int8send(h) || int8send(i))::ulid AS d, (int8send(h) || int8send(i))::euid AS e
FROM (SELECT i, x, (CASE WHEN x >= 9223372036854775808 THEN x - 18446744073709551616 ELSE x END)::bigint AS h
      FROM (SELECT i, (i::numeric * 11400714819323198485) % 18446744073709551616 AS x
            FROM generate_series(0, 19999) i) s) t;
VACUUM ANALYZE bloom_ids;

-- The opclasses exist, are not the default, and validate.
SELECT opc.opcname, opc.opcdefault AS dflt, amvalidate(opc.oid) AS valid,
       obj_description(opc.oid, 'pg_opclass') AS comment
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
WHERE am.amname = 'brin' AND opc.opcname LIKE '%bloom_ops' AND opc.opcintype IN
      ('uid11'::regtype, 'timeid'::regtype, 'ulidflake'::regtype, 'ulid'::regtype, 'euid'::regtype)
ORDER BY 1;

-- The heap blocks a query's bitmap scan reads: a bloom index that prunes reads a few ranges of
-- 4 pages, not the table's 200-odd pages. The filters below are sized for the ~360 rows a range of
-- 4 pages holds (n_distinct_per_range); the default, a tenth of the most a range could hold,
-- suits wider rows (with it the filters here are too full to skip much).
CREATE FUNCTION bloom_heap_blocks(query text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) ' || query INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Lossy Heap Blocks')::int + (plan -> 0 -> 'Plan' ->> 'Exact Heap Blocks')::int;
END
$$;
SELECT relpages > 150 AS big_enough FROM pg_class WHERE relname = 'bloom_ids';

-- uid11
CREATE INDEX bloom_ids_a ON bloom_ids USING brin (a uid11_bloom_ops (n_distinct_per_range = 500)) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM bloom_ids WHERE a = 'V15ZzC1rDbF';
SELECT n, a FROM bloom_ids WHERE a = 'V15ZzC1rDbF' OR a = 'aqXKZtXKkMa' ORDER BY n;
SELECT n FROM bloom_ids WHERE a = 'TTuDF6cnzrZ';
SELECT bloom_heap_blocks($$SELECT n FROM bloom_ids WHERE a = 'V15ZzC1rDbF'$$) < 40 AS pruned;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT n, a FROM bloom_ids WHERE a = 'V15ZzC1rDbF' OR a = 'aqXKZtXKkMa' ORDER BY n;
SELECT n FROM bloom_ids WHERE a = 'TTuDF6cnzrZ';
RESET enable_bitmapscan;
DROP INDEX bloom_ids_a;

-- timeid
CREATE INDEX bloom_ids_b ON bloom_ids USING brin (b timeid_bloom_ops (n_distinct_per_range = 500)) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM bloom_ids WHERE b = '4iua26yekobdu';
SELECT n, b FROM bloom_ids WHERE b = '4iua26yekobdu' OR b = '6omxua33p6vm7' ORDER BY n;
SELECT n FROM bloom_ids WHERE b = '4iua26yekobdv';
SELECT bloom_heap_blocks($$SELECT n FROM bloom_ids WHERE b = '4iua26yekobdu'$$) < 40 AS pruned;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT n, b FROM bloom_ids WHERE b = '4iua26yekobdu' OR b = '6omxua33p6vm7' ORDER BY n;
SELECT n FROM bloom_ids WHERE b = '4iua26yekobdv';
RESET enable_bitmapscan;
DROP INDEX bloom_ids_b;

-- ulidflake
CREATE INDEX bloom_ids_c ON bloom_ids USING brin (c ulidflake_bloom_ops (n_distinct_per_range = 500)) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM bloom_ids WHERE c = '2ET604YAGM79T';
SELECT n, c FROM bloom_ids WHERE c = '2ET604YAGM79T' OR c = '4MJXT611N4VJ5' ORDER BY n;
SELECT n FROM bloom_ids WHERE c = '2ET604YAGM79V';
SELECT bloom_heap_blocks($$SELECT n FROM bloom_ids WHERE c = '2ET604YAGM79T'$$) < 40 AS pruned;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT n, c FROM bloom_ids WHERE c = '2ET604YAGM79T' OR c = '4MJXT611N4VJ5' ORDER BY n;
SELECT n FROM bloom_ids WHERE c = '2ET604YAGM79V';
RESET enable_bitmapscan;
DROP INDEX bloom_ids_c;

-- ulid
CREATE INDEX bloom_ids_d ON bloom_ids USING brin (d ulid_bloom_ops (n_distinct_per_range = 500)) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM bloom_ids WHERE d = '57D302F58A3MX000000000016J';
SELECT n, d FROM bloom_ids WHERE d = '57D302F58A3MX000000000016J' OR d = '6A9EX30GTJDS2G000000000HBH' ORDER BY n;
SELECT n FROM bloom_ids WHERE d = '57D302F58A3MX000000000016K';
SELECT bloom_heap_blocks($$SELECT n FROM bloom_ids WHERE d = '57D302F58A3MX000000000016J'$$) < 40 AS pruned;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT n, d FROM bloom_ids WHERE d = '57D302F58A3MX000000000016J' OR d = '6A9EX30GTJDS2G000000000HBH' ORDER BY n;
SELECT n FROM bloom_ids WHERE d = '57D302F58A3MX000000000016K';
RESET enable_bitmapscan;
DROP INDEX bloom_ids_d;

-- euid
CREATE INDEX bloom_ids_e ON bloom_ids USING brin (e euid_bloom_ops (n_distinct_per_range = 500)) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM bloom_ids WHERE e = 'MXMC09WN18EKM00000000004TBW';
SELECT n, e FROM bloom_ids WHERE e = 'MXMC09WN18EKM00000000004TBW' OR e = 'S95VMC23A9Q4A00000000025E6X' ORDER BY n;
SELECT n FROM bloom_ids WHERE e = 'MXMC09WN18EKM000000000C6KYK';
SELECT bloom_heap_blocks($$SELECT n FROM bloom_ids WHERE e = 'MXMC09WN18EKM00000000004TBW'$$) < 40 AS pruned;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT n, e FROM bloom_ids WHERE e = 'MXMC09WN18EKM00000000004TBW' OR e = 'S95VMC23A9Q4A00000000025E6X' ORDER BY n;
SELECT n FROM bloom_ids WHERE e = 'MXMC09WN18EKM000000000C6KYK';
RESET enable_bitmapscan;
DROP INDEX bloom_ids_e;

-- The plain form, with the default parameters and ranges, is used as well.
CREATE INDEX bloom_ids_d_plain ON bloom_ids USING brin (d ulid_bloom_ops);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM bloom_ids WHERE d = '57D302F58A3MX000000000016J';
SELECT n, d FROM bloom_ids WHERE d = '57D302F58A3MX000000000016J';
RESET enable_seqscan;
DROP INDEX bloom_ids_d_plain;

-- The bloom parameters (opclass options): accepted, kept in the index definition, and checked.
CREATE INDEX bloom_ids_a_opts ON bloom_ids
USING brin (a uid11_bloom_ops (false_positive_rate = 0.05, n_distinct_per_range = 400)) WITH (pages_per_range = 4);
SELECT pg_get_indexdef('bloom_ids_a_opts'::regclass);
SET enable_seqscan = off;
SELECT n, a FROM bloom_ids WHERE a = 'V15ZzC1rDbF';
SELECT bloom_heap_blocks($$SELECT n FROM bloom_ids WHERE a = 'V15ZzC1rDbF'$$) < 40 AS pruned;
RESET enable_seqscan;
DROP INDEX bloom_ids_a_opts;
CREATE INDEX ON bloom_ids USING brin (d ulid_bloom_ops (false_positive_rate = 0.5));
CREATE INDEX ON bloom_ids USING brin (d ulid_bloom_ops (n_distinct_per_range = -2));

DROP FUNCTION bloom_heap_blocks(text);
DROP TABLE bloom_ids;
