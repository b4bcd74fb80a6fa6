-- btree: operator classes, order, unique and primary-key indexes, index scans, min()/max(),
-- and sort support (abbreviated keys for ulid and euid) on 100k rows; 20k where
-- IDTYPES_REGRESS_SMALL is set (the lanes under qemu-user; btree_1.out), still sorted in memory
-- and externally.
\set VERBOSITY terse
\getenv regress_small IDTYPES_REGRESS_SMALL
\if :{?regress_small}
\set sort_rows 19000
\else
\set sort_rows 99000
\endif

-- ---- the operator classes ----------------------------------------------------------------------

-- Every opclass of the five types passes the access method's own validator (the minmax-multi
-- ones, 14+, are checked by brin_multi).
SELECT opc.opcname, am.amname, opc.opcdefault AS dflt, amvalidate(opc.oid) AS valid
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
WHERE opc.opcintype IN ('uid11'::regtype, 'timeid'::regtype, 'ulidflake'::regtype,
                        'ulid'::regtype, 'euid'::regtype)
  AND opc.opcname NOT LIKE '%minmax_multi_ops'
ORDER BY opc.opcintype::regtype::text, am.amname, opc.opcname;

-- btree support functions: 1 cmp, 2 sortsupport, 4 equalimage (deduplication); 6, skip
-- support, exists on PostgreSQL 18+ only and is tested by skip_scan; 3, in_range with an interval
-- offset, by in_range; the cross-type ones of ulid and euid against uuid are tested by uuid_cross.
SELECT format_type(amproclefttype, NULL) AS type, amprocnum AS num, amproc
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
WHERE f.opfmethod = (SELECT oid FROM pg_am WHERE amname = 'btree')
  AND amproclefttype IN ('uid11'::regtype, 'timeid'::regtype, 'ulidflake'::regtype,
                         'ulid'::regtype, 'euid'::regtype)
  AND amprocnum <> 6 AND amprocrighttype = amproclefttype
ORDER BY 1, 2;

-- The operators: strict, leakproof where the contract says so, with commutator, negator,
-- estimators, and = usable for merge and hash joins.
SELECT o.oprname AS op, format_type(o.oprleft, NULL) AS type, o.oprcanmerge AS merges,
       o.oprcanhash AS hashes, c.oprname AS commutator, n.oprname AS negator,
       o.oprrest, o.oprjoin, p.proleakproof AS leakproof, p.proisstrict AS strict,
       p.provolatile AS vol, p.proparallel AS par
FROM pg_operator o
JOIN pg_proc p ON p.oid = o.oprcode
LEFT JOIN pg_operator c ON c.oid = o.oprcom
LEFT JOIN pg_operator n ON n.oid = o.oprnegate
WHERE o.oprleft = o.oprright
  AND o.oprleft IN ('uid11'::regtype, 'timeid'::regtype, 'ulidflake'::regtype,
                    'ulid'::regtype, 'euid'::regtype)
  AND o.oprname IN ('=', '<>', '<', '<=', '>', '>=')
ORDER BY 2, 1;

-- ---- order: unsigned value order = text order = byte order -------------------------------------

CREATE TABLE bt_ids (n int, a uid11, b timeid, c ulidflake, d ulid, e euid);
INSERT INTO bt_ids VALUES
	(1, 'jpXCZedGfVQ', 'bzzzzzzzzzzzz', '7ZZZZZZZZZZZZ', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
	    'ZZZZZZZZZZZZZZZZZZZZZZZZZW3'),
	(2, 'NQm6nKp8qFD', '6222222222222', '4000000000000', '40000000000000000000000000',
	    'G00000000000000000000000002'),
	(3, 'NQm6nKp8qFC', '5zzzzzzzzzzzz', '3ZZZZZZZZZZZZ', '3ZZZZZZZZZZZZZZZZZZZZZZZZZ',
	    'FZZZZZZZZZZZZZZZZZZZZZZZZW1'),
	(4, '11111111112', '2222222222223', '0000000000001', '00000000000000000000000001',
	    '000000000000000000000000041'),
	(5, '11111111111', '2222222222222', '0000000000000', '00000000000000000000000000',
	    '000000000000000000000000000'),
	(6, '1111111NVpb', '3kxnlhr3gxq23', '00CMXB6TAK4SA', '01ARZ3NDEKTSV4RRFFQ69G5FAV',
	    'C8EE934SR007G5Q94QKKXFRFV8B'),
	(7, 'NQm6nKp8qFE', '6222222222223', '4000000000001', '40000000000000000000000001',
	    'G00000000000000000000000043'),
	(8, NULL, NULL, NULL, NULL, NULL);
INSERT INTO bt_ids SELECT n + 8, a, b, c, d, e FROM bt_ids WHERE n IN (1, 5);

SELECT n, a FROM bt_ids ORDER BY a, n;
SELECT n, b FROM bt_ids ORDER BY b DESC, n;
SELECT n, c FROM bt_ids ORDER BY c NULLS FIRST, n;
SELECT n, d FROM bt_ids ORDER BY d, n;
SELECT n, e FROM bt_ids ORDER BY e DESC NULLS LAST, n;

-- The same order as the canonical text (C collation) and as the big-endian bytes, per type.
SELECT (SELECT array_agg(n ORDER BY a, n) = array_agg(n ORDER BY a::text COLLATE "C", n)
          AND array_agg(n ORDER BY a, n) = array_agg(n ORDER BY a::bytea, n) FROM bt_ids) AS uid11,
       (SELECT array_agg(n ORDER BY b, n) = array_agg(n ORDER BY b::text COLLATE "C", n)
          AND array_agg(n ORDER BY b, n) = array_agg(n ORDER BY b::bytea, n) FROM bt_ids) AS timeid,
       (SELECT array_agg(n ORDER BY c, n) = array_agg(n ORDER BY c::text COLLATE "C", n)
          AND array_agg(n ORDER BY c, n) = array_agg(n ORDER BY c::bytea, n) FROM bt_ids) AS ulidflake,
       (SELECT array_agg(n ORDER BY d, n) = array_agg(n ORDER BY d::text COLLATE "C", n)
          AND array_agg(n ORDER BY d, n) = array_agg(n ORDER BY d::bytea, n) FROM bt_ids) AS ulid,
       (SELECT array_agg(n ORDER BY e, n) = array_agg(n ORDER BY e::text COLLATE "C", n)
          AND array_agg(n ORDER BY e, n) = array_agg(n ORDER BY e::bytea, n) FROM bt_ids) AS euid;

-- Every comparison operator agrees with the byte order on every pair of rows.
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE (x.a < y.a) = (x.a::bytea < y.a::bytea)
                          AND (x.a <= y.a) = (x.a::bytea <= y.a::bytea)
                          AND (x.a = y.a) = (x.a::bytea = y.a::bytea)
                          AND (x.a <> y.a) = (x.a::bytea <> y.a::bytea)
                          AND (x.a >= y.a) = (x.a::bytea >= y.a::bytea)
                          AND (x.a > y.a) = (x.a::bytea > y.a::bytea)) AS uid11,
       count(*) FILTER (WHERE (x.b < y.b) = (x.b::bytea < y.b::bytea)
                          AND (x.b <= y.b) = (x.b::bytea <= y.b::bytea)
                          AND (x.b = y.b) = (x.b::bytea = y.b::bytea)
                          AND (x.b <> y.b) = (x.b::bytea <> y.b::bytea)
                          AND (x.b >= y.b) = (x.b::bytea >= y.b::bytea)
                          AND (x.b > y.b) = (x.b::bytea > y.b::bytea)) AS timeid,
       count(*) FILTER (WHERE (x.c < y.c) = (x.c::bytea < y.c::bytea)
                          AND (x.c <= y.c) = (x.c::bytea <= y.c::bytea)
                          AND (x.c = y.c) = (x.c::bytea = y.c::bytea)
                          AND (x.c <> y.c) = (x.c::bytea <> y.c::bytea)
                          AND (x.c >= y.c) = (x.c::bytea >= y.c::bytea)
                          AND (x.c > y.c) = (x.c::bytea > y.c::bytea)) AS ulidflake,
       count(*) FILTER (WHERE (x.d < y.d) = (x.d::bytea < y.d::bytea)
                          AND (x.d <= y.d) = (x.d::bytea <= y.d::bytea)
                          AND (x.d = y.d) = (x.d::bytea = y.d::bytea)
                          AND (x.d <> y.d) = (x.d::bytea <> y.d::bytea)
                          AND (x.d >= y.d) = (x.d::bytea >= y.d::bytea)
                          AND (x.d > y.d) = (x.d::bytea > y.d::bytea)) AS ulid,
       count(*) FILTER (WHERE (x.e < y.e) = (x.e::bytea < y.e::bytea)
                          AND (x.e <= y.e) = (x.e::bytea <= y.e::bytea)
                          AND (x.e = y.e) = (x.e::bytea = y.e::bytea)
                          AND (x.e <> y.e) = (x.e::bytea <> y.e::bytea)
                          AND (x.e >= y.e) = (x.e::bytea >= y.e::bytea)
                          AND (x.e > y.e) = (x.e::bytea > y.e::bytea)) AS euid
FROM bt_ids x, bt_ids y
WHERE x.n <> 8 AND y.n <> 8;

-- min() and max(), NULLs ignored; an empty input gives NULL.
SELECT min(a), max(a), min(b), max(b), min(c), max(c) FROM bt_ids;
SELECT min(d), max(d), min(e), max(e) FROM bt_ids;
SELECT min(a), max(b), min(c), max(d), min(e) FROM bt_ids WHERE false;

-- ---- uid11 at and above 2^63 sorts after smaller values (unsigned, not bigint order) ---------

SELECT 'NQm6nKp8qFD'::uid11 > 'NQm6nKp8qFC'::uid11 AS above,
       'jpXCZedGfVQ'::uid11 > '11111111112'::uid11 AS max_above_1,
       'jpXCZedGfVQ'::uid11 < 'NQm6nKp8qFD'::uid11 AS wrong,
       uid11_cmp('NQm6nKp8qFD', 'NQm6nKp8qFC') AS cmp_hi_lo,
       uid11_cmp('NQm6nKp8qFC', 'jpXCZedGfVQ') AS cmp_lo_max,
       uid11_cmp('jpXCZedGfVQ', 'jpXCZedGfVQ') AS cmp_eq;
SELECT a FROM bt_ids WHERE a < 'NQm6nKp8qFD' ORDER BY a;
SELECT a FROM bt_ids WHERE a >= 'NQm6nKp8qFD' ORDER BY a;
SELECT min(a), max(a) FROM bt_ids WHERE a > '11111111111';

CREATE INDEX bt_ids_a ON bt_ids (a);
CREATE INDEX bt_ids_b ON bt_ids (b);
CREATE INDEX bt_ids_c ON bt_ids (c);
CREATE INDEX bt_ids_d ON bt_ids (d);
CREATE INDEX bt_ids_e ON bt_ids (e);
ANALYZE bt_ids;
SET enable_seqscan = off;
SET enable_bitmapscan = off;

-- min() and max() become InitPlans; PostgreSQL 17 stopped printing their "(returns $0)", and 19
-- names them "minmax_1" under a "Replaces: MinMaxAggregate" line: plan() prints them as 15 did
-- without the "(returns ...)", so one expected file serves every server.
CREATE FUNCTION plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		CONTINUE WHEN line ~ '^\s*Replaces: MinMaxAggregate$';
		line := regexp_replace(line, '^(\s*InitPlan )minmax_(\d+)$', '\1\2');
		RETURN NEXT regexp_replace(line, ' \(returns \$\d+(,\$\d+)*\)$', '');
	END LOOP;
END $$;

EXPLAIN (COSTS OFF) SELECT a FROM bt_ids WHERE a >= 'NQm6nKp8qFC' ORDER BY a;
SELECT a FROM bt_ids WHERE a >= 'NQm6nKp8qFC' ORDER BY a;
EXPLAIN (COSTS OFF) SELECT a FROM bt_ids WHERE a < 'NQm6nKp8qFE' ORDER BY a DESC;
SELECT a FROM bt_ids WHERE a < 'NQm6nKp8qFE' ORDER BY a DESC;
SELECT plan('SELECT min(a), max(a) FROM bt_ids');
SELECT min(a), max(a) FROM bt_ids;

-- Range scans on every type, through the index and without it: the same rows.
EXPLAIN (COSTS OFF)
SELECT n FROM bt_ids WHERE b > '2222222222223' AND b <= '6222222222222' ORDER BY b;
SELECT n, b FROM bt_ids WHERE b > '2222222222223' AND b <= '6222222222222' ORDER BY b;
SELECT n, c FROM bt_ids WHERE c BETWEEN '0000000000001' AND '4000000000000' ORDER BY c;
SELECT n, d FROM bt_ids WHERE d > '3ZZZZZZZZZZZZZZZZZZZZZZZZZ' ORDER BY d;
SELECT n, e FROM bt_ids WHERE e < 'G00000000000000000000000002' ORDER BY e DESC, n;
SELECT n, e FROM bt_ids WHERE e = 'C8EE934SR007G5Q94QKKXFRFV8B';
SELECT plan('SELECT max(d), min(e) FROM bt_ids');
SELECT max(d), min(e) FROM bt_ids;
RESET enable_seqscan;
RESET enable_bitmapscan;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;
SELECT n, b FROM bt_ids WHERE b > '2222222222223' AND b <= '6222222222222' ORDER BY b;
SELECT n, c FROM bt_ids WHERE c BETWEEN '0000000000001' AND '4000000000000' ORDER BY c;
SELECT n, d FROM bt_ids WHERE d > '3ZZZZZZZZZZZZZZZZZZZZZZZZZ' ORDER BY d;
SELECT n, e FROM bt_ids WHERE e < 'G00000000000000000000000002' ORDER BY e DESC, n;
SELECT n, e FROM bt_ids WHERE e = 'C8EE934SR007G5Q94QKKXFRFV8B';
RESET enable_indexscan;
RESET enable_indexonlyscan;
RESET enable_bitmapscan;

-- ---- unique and primary-key indexes ------------------------------------------------------------

CREATE TABLE bt_pk_uid11 (id uid11 PRIMARY KEY);
CREATE TABLE bt_pk_timeid (id timeid PRIMARY KEY);
CREATE TABLE bt_pk_ulidflake (id ulidflake PRIMARY KEY);
CREATE TABLE bt_pk_ulid (id ulid PRIMARY KEY);
CREATE TABLE bt_pk_euid (id euid PRIMARY KEY);
INSERT INTO bt_pk_uid11 SELECT DISTINCT a FROM bt_ids WHERE a IS NOT NULL;
INSERT INTO bt_pk_timeid SELECT DISTINCT b FROM bt_ids WHERE b IS NOT NULL;
INSERT INTO bt_pk_ulidflake SELECT DISTINCT c FROM bt_ids WHERE c IS NOT NULL;
INSERT INTO bt_pk_ulid SELECT DISTINCT d FROM bt_ids WHERE d IS NOT NULL;
INSERT INTO bt_pk_euid SELECT DISTINCT e FROM bt_ids WHERE e IS NOT NULL;
-- duplicates are caught, however the value is spelled (the detail shows the key as text)
\set VERBOSITY default
INSERT INTO bt_pk_uid11 VALUES ('NQm6nKp8qFD');
INSERT INTO bt_pk_uid11 VALUES ((-9223372036854775808)::bigint::uid11);
INSERT INTO bt_pk_timeid VALUES ('3kxn-lhr-3gxq-23');
INSERT INTO bt_pk_ulidflake VALUES ('00cmxb6tak4sa');
INSERT INTO bt_pk_ulid VALUES ('01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid);
INSERT INTO bt_pk_euid VALUES ('c8ee934sr0o7g5q94qkkxfrfvbz');
\set VERBOSITY terse
INSERT INTO bt_pk_euid VALUES (NULL);
-- ON CONFLICT uses the unique index
INSERT INTO bt_pk_ulid VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('01ARZ3NDEKTSV4RRFFQ69G5FAW')
ON CONFLICT (id) DO NOTHING;
SELECT count(*) FROM bt_pk_ulid;
-- a unique constraint on a column of each type
CREATE TABLE bt_unique (a uid11 UNIQUE, b timeid UNIQUE, c ulidflake UNIQUE, d ulid UNIQUE,
                        e euid UNIQUE);
INSERT INTO bt_unique SELECT a, b, c, d, e FROM bt_ids WHERE n <= 8;
\set VERBOSITY default
INSERT INTO bt_unique (e) VALUES ('ZZZZZZZZZZZZZZZZZZZZZZZZZZZ');
INSERT INTO bt_unique (d) VALUES ('7zzzzzzzzzzzzzzzzzzzzzzzzz');
INSERT INTO bt_unique (a) VALUES ('jpXCZedGfVQ');
INSERT INTO bt_unique (b) VALUES ('bzzz-zzz-zzzz-zz');
INSERT INTO bt_unique (c) VALUES ('7zzzzzzzzzzzz');
\set VERBOSITY terse
-- NULLs are not equal to each other
INSERT INTO bt_unique VALUES (NULL, NULL, NULL, NULL, NULL);
SELECT count(*) FROM bt_unique;
DROP TABLE bt_pk_uid11, bt_pk_timeid, bt_pk_ulidflake, bt_pk_ulid, bt_pk_euid, bt_unique;

-- ---- sort support on 100k rows (20k small) ------------------------------------------------------

-- Half the rows are pseudo-random (md5), half share their first 8 bytes, so abbreviated keys
-- (the first 8 bytes of ulid and euid) decide most comparisons but not all; 1000 values repeat.
CREATE TABLE bt_sort (id int, u ulid, e euid, a uid11, t timeid, f ulidflake);
INSERT INTO bt_sort
SELECT i, m::uuid, m::uuid, ('x' || substr(m, 17, 16))::bit(64)::bigint::uid11,
       (('x' || substr(m, 1, 16))::bit(64)::bigint & 9223372036854775807)::timeid,
       (('x' || substr(m, 9, 16))::bit(64)::bigint & 9223372036854775807)::ulidflake
FROM (SELECT i, CASE WHEN i % 2 = 0 THEN md5(i::text)
                     ELSE '0123456789abcdef' || substr(md5(i::text), 1, 16) END AS m
      FROM generate_series(1, :sort_rows) i
      UNION ALL
      SELECT :sort_rows + i, md5(i::text) FROM generate_series(1, 1000) i) s;
ANALYZE bt_sort;

-- A Sort node (tuplesort of heap tuples) and an ordered aggregate (datum sort), each against
-- the text order; in memory and, with a small work_mem, as an external sort.
SELECT (SELECT md5(string_agg(x, ',')) FROM (SELECT u::text AS x FROM bt_sort ORDER BY u) s)
     = (SELECT md5(string_agg(u::text, ',' ORDER BY u::text COLLATE "C")) FROM bt_sort) AS ulid_sort,
       (SELECT md5(string_agg(u::text, ',' ORDER BY u)) FROM bt_sort)
     = (SELECT md5(string_agg(u::text, ',' ORDER BY u::text COLLATE "C")) FROM bt_sort) AS ulid_datum,
       (SELECT md5(string_agg(x, ',')) FROM (SELECT e::text AS x FROM bt_sort ORDER BY e) s)
     = (SELECT md5(string_agg(e::text, ',' ORDER BY e::text COLLATE "C")) FROM bt_sort) AS euid_sort,
       (SELECT md5(string_agg(e::text, ',' ORDER BY e DESC)) FROM bt_sort)
     = (SELECT md5(string_agg(e::text, ',' ORDER BY e::text COLLATE "C" DESC)) FROM bt_sort) AS euid_datum;
SET work_mem = '64kB';
SELECT (SELECT md5(string_agg(x, ',')) FROM (SELECT u::text AS x FROM bt_sort ORDER BY u) s)
     = (SELECT md5(string_agg(u::text, ',' ORDER BY u::bytea)) FROM bt_sort) AS ulid_external,
       (SELECT md5(string_agg(x, ',')) FROM (SELECT e::text AS x FROM bt_sort ORDER BY e DESC) s)
     = (SELECT md5(string_agg(e::text, ',' ORDER BY e::bytea DESC)) FROM bt_sort) AS euid_external,
       (SELECT md5(string_agg(x, ',')) FROM (SELECT a::text AS x FROM bt_sort ORDER BY a) s)
     = (SELECT md5(string_agg(a::text, ',' ORDER BY a::bytea)) FROM bt_sort) AS uid11_external,
       (SELECT md5(string_agg(x, ',')) FROM (SELECT t::text AS x FROM bt_sort ORDER BY t) s)
     = (SELECT md5(string_agg(t::text, ',' ORDER BY t::bigint)) FROM bt_sort) AS timeid_external,
       (SELECT md5(string_agg(x, ',')) FROM (SELECT f::text AS x FROM bt_sort ORDER BY f) s)
     = (SELECT md5(string_agg(f::text, ',' ORDER BY f::bigint)) FROM bt_sort) AS ulidflake_external;
RESET work_mem;

-- IDs one monotonic generator made in one millisecond share their first 8 bytes; the abbreviated
-- key (the time, and how far the random bits are from those of the first ID of the same
-- millisecond the sort met) still tells them apart, and must keep their order. Shuffled, then
-- sorted (heap tuples, a datum sort, a btree build) against the text order.
CREATE TABLE bt_mono AS
WITH made AS MATERIALIZED (
	SELECT generate_ulid_monotonic() AS u, generate_euid() AS e FROM generate_series(1, :sort_rows))
SELECT u, e FROM made ORDER BY random();
SELECT count(DISTINCT left(u::text, 10)) < :sort_rows / 10 AS ulids_share_milliseconds,
       (SELECT md5(string_agg(x, ',')) FROM (SELECT u::text AS x FROM bt_mono ORDER BY u) s)
     = (SELECT md5(string_agg(u::text, ',' ORDER BY u::text COLLATE "C")) FROM bt_mono) AS ulid_sort,
       (SELECT md5(string_agg(e::text, ',' ORDER BY e)) FROM bt_mono)
     = (SELECT md5(string_agg(e::text, ',' ORDER BY e::bytea)) FROM bt_mono) AS euid_datum
FROM bt_mono;
CREATE INDEX bt_mono_u ON bt_mono (u);
CREATE INDEX bt_mono_e ON bt_mono (e DESC);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_sort = off;
SELECT (SELECT md5(string_agg(x, ',')) FROM (SELECT u::text AS x FROM bt_mono ORDER BY u) s)
     = (SELECT md5(string_agg(u::text, ',' ORDER BY u::bytea)) FROM bt_mono) AS ulid_built,
       (SELECT md5(string_agg(x, ',')) FROM (SELECT e::text AS x FROM bt_mono ORDER BY e DESC) s)
     = (SELECT md5(string_agg(e::text, ',' ORDER BY e::bytea DESC)) FROM bt_mono) AS euid_built;
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET enable_sort;
DROP TABLE bt_mono;

-- uid11 in memory: unsigned order, so the values >= 2^63 (negative bigints) come last
SELECT (SELECT md5(string_agg(x, ',')) FROM (SELECT a::text AS x FROM bt_sort ORDER BY a) s)
     = (SELECT md5(string_agg(a::text, ',' ORDER BY a::numeric)) FROM bt_sort) AS uid11_sort,
       (SELECT count(*) FROM bt_sort WHERE a::bigint < 0) AS above_2_63,
       (SELECT bool_and(a::bigint < 0) FROM (SELECT a FROM bt_sort ORDER BY a DESC
                                          LIMIT (SELECT count(*) FROM bt_sort WHERE a::bigint < 0)) s)
         AS top_are_above;

-- min() and max() in parallel: partial aggregates combined across workers.
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT min(u), max(u), min(e), max(e), min(a), max(a), min(t), max(f) FROM bt_sort;
SELECT min(u) = (SELECT u FROM bt_sort ORDER BY u::bytea LIMIT 1) AS min_u,
       max(u) = (SELECT u FROM bt_sort ORDER BY u::bytea DESC LIMIT 1) AS max_u,
       min(e) = (SELECT e FROM bt_sort ORDER BY e::bytea LIMIT 1) AS min_e,
       max(e) = (SELECT e FROM bt_sort ORDER BY e::bytea DESC LIMIT 1) AS max_e,
       min(a) = (SELECT a FROM bt_sort ORDER BY a::bytea LIMIT 1) AS min_a,
       max(a) = (SELECT a FROM bt_sort ORDER BY a::bytea DESC LIMIT 1) AS max_a,
       min(t) = (SELECT t FROM bt_sort ORDER BY t::bigint LIMIT 1) AS min_t,
       max(f) = (SELECT f FROM bt_sort ORDER BY f::bigint DESC LIMIT 1) AS max_f
FROM bt_sort;
SELECT min(u), max(u), min(e), max(e) FROM bt_sort;
SELECT min(a), max(a), min(t), max(t), min(f), max(f) FROM bt_sort;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- A btree built by sorting (CREATE INDEX) and one built by inserts return the text order.
CREATE INDEX bt_sort_u ON bt_sort (u);
CREATE INDEX bt_sort_e ON bt_sort (e);
CREATE TABLE bt_sort2 (u ulid, e euid);
CREATE INDEX bt_sort2_u ON bt_sort2 (u);
CREATE INDEX bt_sort2_e ON bt_sort2 (e);
INSERT INTO bt_sort2 SELECT u, e FROM bt_sort;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT u FROM bt_sort ORDER BY u;
SELECT (SELECT md5(string_agg(x, ',')) FROM (SELECT u::text AS x FROM bt_sort ORDER BY u) s)
     = (SELECT md5(string_agg(u::text, ',' ORDER BY u::bytea)) FROM bt_sort) AS ulid_built,
       (SELECT md5(string_agg(x, ',')) FROM (SELECT e::text AS x FROM bt_sort ORDER BY e) s)
     = (SELECT md5(string_agg(e::text, ',' ORDER BY e::bytea)) FROM bt_sort) AS euid_built,
       (SELECT md5(string_agg(x, ',')) FROM (SELECT u::text AS x FROM bt_sort2 ORDER BY u) s)
     = (SELECT md5(string_agg(u::text, ',' ORDER BY u::bytea)) FROM bt_sort) AS ulid_inserted,
       (SELECT md5(string_agg(x, ',')) FROM (SELECT e::text AS x FROM bt_sort2 ORDER BY e) s)
     = (SELECT md5(string_agg(e::text, ',' ORDER BY e::bytea)) FROM bt_sort) AS euid_inserted;
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET enable_sort;

DROP TABLE bt_ids, bt_sort, bt_sort2;
