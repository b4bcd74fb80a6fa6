-- amcheck: btree indexes of 100k rows of each type pass amcheck's structural and heap checks,
-- and B-tree deduplication is active (btequalimage). 20k rows where IDTYPES_REGRESS_SMALL is set
-- (the lanes under qemu-user): still indexes of more than one level, posting lists, the same
-- output.
\set VERBOSITY terse
\getenv regress_small IDTYPES_REGRESS_SMALL
\if :{?regress_small}
\set rows 20000
\else
\set rows 100000
\endif
CREATE EXTENSION amcheck;
CREATE EXTENSION pageinspect;

-- 100k distinct pseudo-random values of each type (md5; half the uid11 values are >= 2^63),
-- then 10k duplicates and NULLs.
CREATE TABLE amc_ids AS
SELECT i AS n, ('x' || substr(m, 1, 16))::bit(64)::bigint::uid11 AS a,
       (('x' || substr(m, 1, 16))::bit(64)::bigint & 9223372036854775807)::timeid AS b,
       (('x' || substr(m, 17, 16))::bit(64)::bigint & 9223372036854775807)::ulidflake AS c,
       m::uuid::ulid AS d, m::uuid::euid AS e
FROM (SELECT i, md5(i::text) AS m FROM generate_series(1, :rows) i) s;
INSERT INTO amc_ids SELECT n + :rows, a, b, c, d, e FROM amc_ids WHERE n <= :rows / 10;
INSERT INTO amc_ids (n) SELECT 2 * :rows + i FROM generate_series(1, 100) i;

-- one index built by sorting, one grown by inserts
CREATE INDEX amc_a ON amc_ids (a);
CREATE INDEX amc_b ON amc_ids (b);
CREATE INDEX amc_c ON amc_ids (c);
CREATE INDEX amc_d ON amc_ids (d);
CREATE INDEX amc_e ON amc_ids (e);
CREATE TABLE amc_grown (LIKE amc_ids);
CREATE INDEX amc_grown_a ON amc_grown (a);
CREATE INDEX amc_grown_d ON amc_grown (d);
CREATE INDEX amc_grown_e ON amc_grown (e DESC);
INSERT INTO amc_grown SELECT * FROM amc_ids;

-- (each check raises an error on the first inconsistency; a void result means it passed)
SELECT c.relname,
       (SELECT 'ok' FROM bt_index_check(c.oid, heapallindexed => true)) AS checked,
       (SELECT 'ok' FROM bt_index_parent_check(c.oid, heapallindexed => true, rootdescend => true))
         AS parent_checked
FROM pg_class c
WHERE c.relname IN ('amc_a', 'amc_b', 'amc_c', 'amc_d', 'amc_e',
                    'amc_grown_a', 'amc_grown_d', 'amc_grown_e')
ORDER BY c.relname;

-- unique indexes pass too (amcheck also checks uniqueness there)
CREATE TABLE amc_pk AS SELECT a, d FROM amc_ids WHERE n <= :rows;
ALTER TABLE amc_pk ADD PRIMARY KEY (a);
CREATE UNIQUE INDEX amc_pk_d ON amc_pk (d);
SELECT (SELECT 'ok' FROM bt_index_check('amc_pk_pkey', heapallindexed => true)) AS pk_checked,
       (SELECT 'ok' FROM bt_index_check('amc_pk_d', heapallindexed => true)) AS unique_checked;

-- ---- deduplication -----------------------------------------------------------------------------

-- Every type's btree may deduplicate: equality is image equality (btequalimage).
SELECT c.relname, m.allequalimage
FROM pg_class c, LATERAL bt_metap(c.relname) m
WHERE c.relname IN ('amc_a', 'amc_b', 'amc_c', 'amc_d', 'amc_e')
ORDER BY c.relname;

-- 100k rows of 10 distinct values: the index is less than half the size of the same index without
-- deduplication, and of an index on 100k distinct values (8-byte keys save ~3x, 16-byte ~4x).
CREATE TABLE amc_dup AS
SELECT (ARRAY['11111111111', 'NQm6nKp8qFC', 'NQm6nKp8qFD', 'jpXCZedGfVQ', '1111111NVpb',
              '113q8KFkAEs', 'Lzzzzzzzzzz', 'ZZZZZZZZZZZ', 'NQm6nKp8qFE', 'jpXCZedGfVP'])[1 + i % 10]::uid11 AS a,
       x::bigint::timeid AS b, x::bigint::ulidflake AS c,
       lpad(to_hex(x), 32, '0')::uuid::ulid AS d, lpad(to_hex(x), 32, '0')::uuid::euid AS e
FROM (SELECT i, (i % 10) * 1000003 AS x FROM generate_series(1, :rows) i) s;
CREATE INDEX amc_dup_a ON amc_dup (a);
CREATE INDEX amc_dup_b ON amc_dup (b);
CREATE INDEX amc_dup_c ON amc_dup (c);
CREATE INDEX amc_dup_d ON amc_dup (d);
CREATE INDEX amc_dup_e ON amc_dup (e);
CREATE INDEX amc_nodup_a ON amc_dup (a) WITH (deduplicate_items = off);
CREATE INDEX amc_nodup_b ON amc_dup (b) WITH (deduplicate_items = off);
CREATE INDEX amc_nodup_c ON amc_dup (c) WITH (deduplicate_items = off);
CREATE INDEX amc_nodup_d ON amc_dup (d) WITH (deduplicate_items = off);
CREATE INDEX amc_nodup_e ON amc_dup (e) WITH (deduplicate_items = off);
SELECT count(DISTINCT a) AS a, count(DISTINCT b) AS b, count(DISTINCT c) AS c,
       count(DISTINCT d) AS d, count(DISTINCT e) AS e
FROM amc_dup;
SELECT t AS type,
       pg_relation_size('amc_dup_' || col) * 2 < pg_relation_size('amc_nodup_' || col) AS smaller_than_without,
       pg_relation_size('amc_dup_' || col) * 2 < pg_relation_size('amc_' || col) AS smaller_than_distinct,
       (SELECT 'ok' FROM bt_index_check(('amc_dup_' || col)::regclass, heapallindexed => true)) AS checked
FROM (VALUES ('uid11', 'a'), ('timeid', 'b'), ('ulidflake', 'c'), ('ulid', 'd'), ('euid', 'e')) v(t, col);
-- posting-list tuples are really there
SELECT count(*) > 0 AS has_posting_lists
FROM bt_page_items('amc_dup_d', 1) WHERE htid IS NOT NULL AND tids IS NOT NULL;

DROP TABLE amc_ids, amc_grown, amc_pk, amc_dup;
DROP EXTENSION pageinspect;
DROP EXTENSION amcheck;
