-- sort_order: random IDs of each type, sorted by the type's btree order, come in the order of
-- their text (collation "C"; equal texts only for equal IDs), sorted in memory (quicksort; the
-- 128-bit types with abbreviated keys: their first 8 bytes where a Datum has 8, the first 4 where
-- it has 4) and on disk (an external merge in 64kB of work_mem); and a btree index built on them
-- passes amcheck. 100,000 IDs a type (with the 128-bit types' abbreviated keys byte-swapped, half
-- of ulid's and euid's came out of order), 10,000 where IDTYPES_REGRESS_SMALL is set. On a 32-bit
-- platform before PostgreSQL 19 the 64-bit types are passed by reference, through the same sorts.
\getenv regress_small IDTYPES_REGRESS_SMALL
\if :{?regress_small}
\set rows 10000
\else
\set rows 100000
\endif
SET max_parallel_workers_per_gather = 0;
CREATE EXTENSION amcheck;
CREATE TABLE so_uid11 AS
	SELECT (random() * 18446744073709551615 - 9223372036854775808)::numeric::bigint::uid11 AS id
	FROM generate_series(1, :rows);
CREATE TABLE so_timeid AS SELECT (random() * 9223372036854775807)::bigint::timeid AS id FROM generate_series(1, :rows);
CREATE TABLE so_ulidflake AS SELECT (random() * 9223372036854775807)::bigint::ulidflake AS id FROM generate_series(1, :rows);
CREATE TABLE so_ulid AS SELECT gen_random_uuid()::ulid AS id FROM generate_series(1, :rows);
CREATE TABLE so_euid AS SELECT gen_random_uuid()::euid AS id FROM generate_series(1, :rows);

-- so_sorted(table, work_mem): whether every row came out, how many came before one whose text
-- sorts lower (or equal, of another ID), and the sort's method.
CREATE FUNCTION so_sorted(tab text, mem text, OUT all_rows bool, OUT out_of_order bigint,
                          OUT method text) LANGUAGE plpgsql AS $$
DECLARE
	q text := format('SELECT count(*) AS n, count(*) FILTER (WHERE pt > t OR (pt = t AND pid <> id)) AS bad
		FROM (SELECT id, id::text COLLATE "C" AS t, lag(id) OVER w AS pid,
		             lag(id::text COLLATE "C") OVER w AS pt
		      FROM %I WINDOW w AS (ORDER BY id)) s', tab);
	line text;
	n bigint;
BEGIN
	PERFORM set_config('work_mem', mem, true);
	FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
		method := coalesce(method, substring(line FROM 'Sort Method: (quicksort|external merge)'));
	END LOOP;
	EXECUTE q INTO n, out_of_order;
	all_rows := n = current_setting('so.rows')::int;
END $$;
SELECT set_config('so.rows', :'rows', false) IS NOT NULL AS set;
SELECT tab, mem, s.*
FROM unnest('{so_uid11,so_timeid,so_ulidflake,so_ulid,so_euid}'::text[]) WITH ORDINALITY t(tab, i),
     unnest('{512MB,64kB}'::text[]) mem, LATERAL so_sorted(tab, mem) s
ORDER BY i, mem;

SET maintenance_work_mem = '64MB';
CREATE INDEX ON so_uid11 (id);
CREATE INDEX ON so_timeid (id);
CREATE INDEX ON so_ulidflake (id);
CREATE INDEX ON so_ulid (id);
CREATE INDEX ON so_euid (id);
SELECT c.relname, bt_index_check(c.oid, heapallindexed => true) IS NOT NULL AS checked
FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
WHERE i.indrelid::regclass::text LIKE 'so\_%' ORDER BY c.relname;

DROP TABLE so_uid11, so_timeid, so_ulidflake, so_ulid, so_euid;
DROP FUNCTION so_sorted(text, text);
DROP EXTENSION amcheck;
RESET maintenance_work_mem;
RESET max_parallel_workers_per_gather;
