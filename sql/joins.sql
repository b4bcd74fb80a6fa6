-- joins: hash, merge and nested-loop joins, hash and sort aggregation, DISTINCT, and tables
-- partitioned by hash and by range, on each type. Plans are forced with enable_* settings and
-- shown with EXPLAIN (COSTS OFF); each result is compared with the same query on the bytes.
\set VERBOSITY terse

-- 600 pseudo-random rows (md5: half the uid11 values are >= 2^63) and a second table holding
-- every third of them plus 100 values of its own.
CREATE TABLE j_left AS
SELECT i AS n, ('x' || substr(m, 1, 16))::bit(64)::bigint::uid11 AS a,
       (('x' || substr(m, 1, 16))::bit(64)::bigint & 9223372036854775807)::timeid AS b,
       (('x' || substr(m, 17, 16))::bit(64)::bigint & 9223372036854775807)::ulidflake AS c,
       m::uuid::ulid AS d, m::uuid::euid AS e
FROM (SELECT i, md5(i::text) AS m FROM generate_series(1, 600) i) s;
CREATE TABLE j_right AS
SELECT n, a, b, c, d, e FROM j_left WHERE n % 3 = 0
UNION ALL
SELECT i + 1000, ('x' || substr(m, 1, 16))::bit(64)::bigint::uid11,
       (('x' || substr(m, 1, 16))::bit(64)::bigint & 9223372036854775807)::timeid,
       (('x' || substr(m, 17, 16))::bit(64)::bigint & 9223372036854775807)::ulidflake,
       m::uuid::ulid, m::uuid::euid
FROM (SELECT i, md5('r' || i) AS m FROM generate_series(1, 100) i) s;
INSERT INTO j_left (n) VALUES (0);
INSERT INTO j_right (n) VALUES (0);
ANALYZE j_left;
ANALYZE j_right;

-- ---- joins ---------------------------------------------------------------------------------------
SET enable_nestloop = off;
SET enable_mergejoin = off;
SET enable_hashjoin = off;

-- uid11
SET enable_hashjoin = on;
EXPLAIN (COSTS OFF) SELECT l.n FROM j_left l JOIN j_right r ON l.a = r.a;
SELECT count(*) AS matched, sum(l.n) AS sum_n, bool_and(l.n = r.n) AS same_rows,
       count(*) = (SELECT count(*) FROM j_left x JOIN j_right y ON x.a::bytea = y.a::bytea) AS as_bytes
FROM j_left l JOIN j_right r ON l.a = r.a;
SET enable_hashjoin = off;
SET enable_mergejoin = on;
EXPLAIN (COSTS OFF) SELECT l.n FROM j_left l JOIN j_right r ON l.a = r.a;
SELECT count(*) AS matched, sum(l.n) AS sum_n, bool_and(l.n = r.n) AS same_rows,
       count(*) = (SELECT count(*) FROM j_left x JOIN j_right y ON x.a::bytea = y.a::bytea) AS as_bytes
FROM j_left l JOIN j_right r ON l.a = r.a;
SET enable_mergejoin = off;
SET enable_nestloop = on;
EXPLAIN (COSTS OFF) SELECT l.n FROM j_left l JOIN j_right r ON l.a = r.a;
SELECT count(*) AS matched, sum(l.n) AS sum_n, bool_and(l.n = r.n) AS same_rows,
       count(*) = (SELECT count(*) FROM j_left x JOIN j_right y ON x.a::bytea = y.a::bytea) AS as_bytes
FROM j_left l JOIN j_right r ON l.a = r.a;
SET enable_nestloop = off;

-- timeid
SET enable_hashjoin = on;
EXPLAIN (COSTS OFF) SELECT l.n FROM j_left l JOIN j_right r ON l.b = r.b;
SELECT count(*) AS matched, sum(l.n) AS sum_n, bool_and(l.n = r.n) AS same_rows,
       count(*) = (SELECT count(*) FROM j_left x JOIN j_right y ON x.b::bytea = y.b::bytea) AS as_bytes
FROM j_left l JOIN j_right r ON l.b = r.b;
SET enable_hashjoin = off;
SET enable_mergejoin = on;
EXPLAIN (COSTS OFF) SELECT l.n FROM j_left l JOIN j_right r ON l.b = r.b;
SELECT count(*) AS matched, sum(l.n) AS sum_n, bool_and(l.n = r.n) AS same_rows,
       count(*) = (SELECT count(*) FROM j_left x JOIN j_right y ON x.b::bytea = y.b::bytea) AS as_bytes
FROM j_left l JOIN j_right r ON l.b = r.b;
SET enable_mergejoin = off;
SET enable_nestloop = on;
EXPLAIN (COSTS OFF) SELECT l.n FROM j_left l JOIN j_right r ON l.b = r.b;
SELECT count(*) AS matched, sum(l.n) AS sum_n, bool_and(l.n = r.n) AS same_rows,
       count(*) = (SELECT count(*) FROM j_left x JOIN j_right y ON x.b::bytea = y.b::bytea) AS as_bytes
FROM j_left l JOIN j_right r ON l.b = r.b;
SET enable_nestloop = off;

-- ulidflake
SET enable_hashjoin = on;
EXPLAIN (COSTS OFF) SELECT l.n FROM j_left l JOIN j_right r ON l.c = r.c;
SELECT count(*) AS matched, sum(l.n) AS sum_n, bool_and(l.n = r.n) AS same_rows,
       count(*) = (SELECT count(*) FROM j_left x JOIN j_right y ON x.c::bytea = y.c::bytea) AS as_bytes
FROM j_left l JOIN j_right r ON l.c = r.c;
SET enable_hashjoin = off;
SET enable_mergejoin = on;
EXPLAIN (COSTS OFF) SELECT l.n FROM j_left l JOIN j_right r ON l.c = r.c;
SELECT count(*) AS matched, sum(l.n) AS sum_n, bool_and(l.n = r.n) AS same_rows,
       count(*) = (SELECT count(*) FROM j_left x JOIN j_right y ON x.c::bytea = y.c::bytea) AS as_bytes
FROM j_left l JOIN j_right r ON l.c = r.c;
SET enable_mergejoin = off;
SET enable_nestloop = on;
EXPLAIN (COSTS OFF) SELECT l.n FROM j_left l JOIN j_right r ON l.c = r.c;
SELECT count(*) AS matched, sum(l.n) AS sum_n, bool_and(l.n = r.n) AS same_rows,
       count(*) = (SELECT count(*) FROM j_left x JOIN j_right y ON x.c::bytea = y.c::bytea) AS as_bytes
FROM j_left l JOIN j_right r ON l.c = r.c;
SET enable_nestloop = off;

-- ulid
SET enable_hashjoin = on;
EXPLAIN (COSTS OFF) SELECT l.n FROM j_left l JOIN j_right r ON l.d = r.d;
SELECT count(*) AS matched, sum(l.n) AS sum_n, bool_and(l.n = r.n) AS same_rows,
       count(*) = (SELECT count(*) FROM j_left x JOIN j_right y ON x.d::bytea = y.d::bytea) AS as_bytes
FROM j_left l JOIN j_right r ON l.d = r.d;
SET enable_hashjoin = off;
SET enable_mergejoin = on;
EXPLAIN (COSTS OFF) SELECT l.n FROM j_left l JOIN j_right r ON l.d = r.d;
SELECT count(*) AS matched, sum(l.n) AS sum_n, bool_and(l.n = r.n) AS same_rows,
       count(*) = (SELECT count(*) FROM j_left x JOIN j_right y ON x.d::bytea = y.d::bytea) AS as_bytes
FROM j_left l JOIN j_right r ON l.d = r.d;
SET enable_mergejoin = off;
SET enable_nestloop = on;
EXPLAIN (COSTS OFF) SELECT l.n FROM j_left l JOIN j_right r ON l.d = r.d;
SELECT count(*) AS matched, sum(l.n) AS sum_n, bool_and(l.n = r.n) AS same_rows,
       count(*) = (SELECT count(*) FROM j_left x JOIN j_right y ON x.d::bytea = y.d::bytea) AS as_bytes
FROM j_left l JOIN j_right r ON l.d = r.d;
SET enable_nestloop = off;

-- euid
SET enable_hashjoin = on;
EXPLAIN (COSTS OFF) SELECT l.n FROM j_left l JOIN j_right r ON l.e = r.e;
SELECT count(*) AS matched, sum(l.n) AS sum_n, bool_and(l.n = r.n) AS same_rows,
       count(*) = (SELECT count(*) FROM j_left x JOIN j_right y ON x.e::bytea = y.e::bytea) AS as_bytes
FROM j_left l JOIN j_right r ON l.e = r.e;
SET enable_hashjoin = off;
SET enable_mergejoin = on;
EXPLAIN (COSTS OFF) SELECT l.n FROM j_left l JOIN j_right r ON l.e = r.e;
SELECT count(*) AS matched, sum(l.n) AS sum_n, bool_and(l.n = r.n) AS same_rows,
       count(*) = (SELECT count(*) FROM j_left x JOIN j_right y ON x.e::bytea = y.e::bytea) AS as_bytes
FROM j_left l JOIN j_right r ON l.e = r.e;
SET enable_mergejoin = off;
SET enable_nestloop = on;
EXPLAIN (COSTS OFF) SELECT l.n FROM j_left l JOIN j_right r ON l.e = r.e;
SELECT count(*) AS matched, sum(l.n) AS sum_n, bool_and(l.n = r.n) AS same_rows,
       count(*) = (SELECT count(*) FROM j_left x JOIN j_right y ON x.e::bytea = y.e::bytea) AS as_bytes
FROM j_left l JOIN j_right r ON l.e = r.e;
SET enable_nestloop = off;
RESET enable_nestloop;
RESET enable_mergejoin;
RESET enable_hashjoin;

-- A merge join on uid11 needs the unsigned order on both sides: values >= 2^63 must match.
SET enable_hashjoin = off;
SET enable_nestloop = off;
SELECT count(*) FILTER (WHERE l.a::bigint < 0) AS above_2_63, count(*) AS matched
FROM j_left l JOIN j_right r ON l.a = r.a;
RESET enable_hashjoin;
RESET enable_nestloop;

-- ---- aggregation and DISTINCT ------------------------------------------------------------------

-- 1000 rows over 37 distinct values of each type (and NULLs).
CREATE TABLE j_dup AS
SELECT l.* FROM generate_series(1, 1000) i JOIN j_left l ON l.n = i % 37;
ANALYZE j_dup;

-- uid11
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT a, count(*) FROM j_dup GROUP BY a;
SELECT count(*) AS groups, sum(cnt) AS rows, max(cnt) AS biggest,
       md5(string_agg(a::text || ':' || cnt, ',' ORDER BY a::bytea)) =
       (SELECT md5(string_agg(x::uid11::text || ':' || cnt, ',' ORDER BY x))
        FROM (SELECT a::bytea AS x, count(*) AS cnt FROM j_dup GROUP BY 1) t) AS as_bytes
FROM (SELECT a, count(*) AS cnt FROM j_dup GROUP BY a) g;
EXPLAIN (COSTS OFF) SELECT DISTINCT a FROM j_dup;
SELECT count(*) AS distinct_values, count(a) AS not_null FROM (SELECT DISTINCT a FROM j_dup) s;
RESET enable_sort;
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT a, count(*) FROM j_dup GROUP BY a;
SELECT count(*) AS groups, sum(cnt) AS rows, max(cnt) AS biggest,
       md5(string_agg(a::text || ':' || cnt, ',' ORDER BY a::bytea)) =
       (SELECT md5(string_agg(x::uid11::text || ':' || cnt, ',' ORDER BY x))
        FROM (SELECT a::bytea AS x, count(*) AS cnt FROM j_dup GROUP BY 1) t) AS as_bytes
FROM (SELECT a, count(*) AS cnt FROM j_dup GROUP BY a) g;
EXPLAIN (COSTS OFF) SELECT DISTINCT a FROM j_dup;
SELECT count(*) AS distinct_values, count(a) AS not_null FROM (SELECT DISTINCT a FROM j_dup) s;
RESET enable_hashagg;

-- timeid
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT b, count(*) FROM j_dup GROUP BY b;
SELECT count(*) AS groups, sum(cnt) AS rows, max(cnt) AS biggest,
       md5(string_agg(b::text || ':' || cnt, ',' ORDER BY b::bytea)) =
       (SELECT md5(string_agg(x::timeid::text || ':' || cnt, ',' ORDER BY x))
        FROM (SELECT b::bytea AS x, count(*) AS cnt FROM j_dup GROUP BY 1) t) AS as_bytes
FROM (SELECT b, count(*) AS cnt FROM j_dup GROUP BY b) g;
EXPLAIN (COSTS OFF) SELECT DISTINCT b FROM j_dup;
SELECT count(*) AS distinct_values, count(b) AS not_null FROM (SELECT DISTINCT b FROM j_dup) s;
RESET enable_sort;
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT b, count(*) FROM j_dup GROUP BY b;
SELECT count(*) AS groups, sum(cnt) AS rows, max(cnt) AS biggest,
       md5(string_agg(b::text || ':' || cnt, ',' ORDER BY b::bytea)) =
       (SELECT md5(string_agg(x::timeid::text || ':' || cnt, ',' ORDER BY x))
        FROM (SELECT b::bytea AS x, count(*) AS cnt FROM j_dup GROUP BY 1) t) AS as_bytes
FROM (SELECT b, count(*) AS cnt FROM j_dup GROUP BY b) g;
EXPLAIN (COSTS OFF) SELECT DISTINCT b FROM j_dup;
SELECT count(*) AS distinct_values, count(b) AS not_null FROM (SELECT DISTINCT b FROM j_dup) s;
RESET enable_hashagg;

-- ulidflake
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT c, count(*) FROM j_dup GROUP BY c;
SELECT count(*) AS groups, sum(cnt) AS rows, max(cnt) AS biggest,
       md5(string_agg(c::text || ':' || cnt, ',' ORDER BY c::bytea)) =
       (SELECT md5(string_agg(x::ulidflake::text || ':' || cnt, ',' ORDER BY x))
        FROM (SELECT c::bytea AS x, count(*) AS cnt FROM j_dup GROUP BY 1) t) AS as_bytes
FROM (SELECT c, count(*) AS cnt FROM j_dup GROUP BY c) g;
EXPLAIN (COSTS OFF) SELECT DISTINCT c FROM j_dup;
SELECT count(*) AS distinct_values, count(c) AS not_null FROM (SELECT DISTINCT c FROM j_dup) s;
RESET enable_sort;
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT c, count(*) FROM j_dup GROUP BY c;
SELECT count(*) AS groups, sum(cnt) AS rows, max(cnt) AS biggest,
       md5(string_agg(c::text || ':' || cnt, ',' ORDER BY c::bytea)) =
       (SELECT md5(string_agg(x::ulidflake::text || ':' || cnt, ',' ORDER BY x))
        FROM (SELECT c::bytea AS x, count(*) AS cnt FROM j_dup GROUP BY 1) t) AS as_bytes
FROM (SELECT c, count(*) AS cnt FROM j_dup GROUP BY c) g;
EXPLAIN (COSTS OFF) SELECT DISTINCT c FROM j_dup;
SELECT count(*) AS distinct_values, count(c) AS not_null FROM (SELECT DISTINCT c FROM j_dup) s;
RESET enable_hashagg;

-- ulid
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT d, count(*) FROM j_dup GROUP BY d;
SELECT count(*) AS groups, sum(cnt) AS rows, max(cnt) AS biggest,
       md5(string_agg(d::text || ':' || cnt, ',' ORDER BY d::bytea)) =
       (SELECT md5(string_agg(x::ulid::text || ':' || cnt, ',' ORDER BY x))
        FROM (SELECT d::bytea AS x, count(*) AS cnt FROM j_dup GROUP BY 1) t) AS as_bytes
FROM (SELECT d, count(*) AS cnt FROM j_dup GROUP BY d) g;
EXPLAIN (COSTS OFF) SELECT DISTINCT d FROM j_dup;
SELECT count(*) AS distinct_values, count(d) AS not_null FROM (SELECT DISTINCT d FROM j_dup) s;
RESET enable_sort;
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT d, count(*) FROM j_dup GROUP BY d;
SELECT count(*) AS groups, sum(cnt) AS rows, max(cnt) AS biggest,
       md5(string_agg(d::text || ':' || cnt, ',' ORDER BY d::bytea)) =
       (SELECT md5(string_agg(x::ulid::text || ':' || cnt, ',' ORDER BY x))
        FROM (SELECT d::bytea AS x, count(*) AS cnt FROM j_dup GROUP BY 1) t) AS as_bytes
FROM (SELECT d, count(*) AS cnt FROM j_dup GROUP BY d) g;
EXPLAIN (COSTS OFF) SELECT DISTINCT d FROM j_dup;
SELECT count(*) AS distinct_values, count(d) AS not_null FROM (SELECT DISTINCT d FROM j_dup) s;
RESET enable_hashagg;

-- euid
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT e, count(*) FROM j_dup GROUP BY e;
SELECT count(*) AS groups, sum(cnt) AS rows, max(cnt) AS biggest,
       md5(string_agg(e::text || ':' || cnt, ',' ORDER BY e::bytea)) =
       (SELECT md5(string_agg(x::euid::text || ':' || cnt, ',' ORDER BY x))
        FROM (SELECT e::bytea AS x, count(*) AS cnt FROM j_dup GROUP BY 1) t) AS as_bytes
FROM (SELECT e, count(*) AS cnt FROM j_dup GROUP BY e) g;
EXPLAIN (COSTS OFF) SELECT DISTINCT e FROM j_dup;
SELECT count(*) AS distinct_values, count(e) AS not_null FROM (SELECT DISTINCT e FROM j_dup) s;
RESET enable_sort;
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT e, count(*) FROM j_dup GROUP BY e;
SELECT count(*) AS groups, sum(cnt) AS rows, max(cnt) AS biggest,
       md5(string_agg(e::text || ':' || cnt, ',' ORDER BY e::bytea)) =
       (SELECT md5(string_agg(x::euid::text || ':' || cnt, ',' ORDER BY x))
        FROM (SELECT e::bytea AS x, count(*) AS cnt FROM j_dup GROUP BY 1) t) AS as_bytes
FROM (SELECT e, count(*) AS cnt FROM j_dup GROUP BY e) g;
EXPLAIN (COSTS OFF) SELECT DISTINCT e FROM j_dup;
SELECT count(*) AS distinct_values, count(e) AS not_null FROM (SELECT DISTINCT e FROM j_dup) s;
RESET enable_hashagg;

-- ---- partitions --------------------------------------------------------------------------------

-- uid11: hash partitions (4) and range partitions split at 'NQm6nKp8qFD' (the values >= 2^63)
CREATE TABLE j_hash_uid11 (id uid11, n int) PARTITION BY HASH (id);
CREATE TABLE j_hash_uid11_0 PARTITION OF j_hash_uid11 FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE j_hash_uid11_1 PARTITION OF j_hash_uid11 FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE j_hash_uid11_2 PARTITION OF j_hash_uid11 FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE j_hash_uid11_3 PARTITION OF j_hash_uid11 FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO j_hash_uid11 SELECT a, n FROM j_left WHERE a IS NOT NULL;
INSERT INTO j_hash_uid11 VALUES ('jpXCZedGfVQ', -1);
SELECT tableoid::regclass AS part, count(*) FROM j_hash_uid11 GROUP BY 1 ORDER BY 1;
EXPLAIN (COSTS OFF) SELECT n FROM j_hash_uid11 WHERE id = 'jpXCZedGfVQ';
SELECT n FROM j_hash_uid11 WHERE id = 'jpXCZedGfVQ';
-- every row is found again through pruning to its partition
SELECT count(*) FILTER (WHERE (SELECT count(*) FROM j_hash_uid11 h WHERE h.id = l.a) = 1) AS found
FROM j_left l WHERE l.a IS NOT NULL;
CREATE TABLE j_range_uid11 (id uid11, n int) PARTITION BY RANGE (id);
CREATE TABLE j_range_uid11_lo PARTITION OF j_range_uid11 FOR VALUES FROM (MINVALUE) TO ('NQm6nKp8qFD');
CREATE TABLE j_range_uid11_hi PARTITION OF j_range_uid11 FOR VALUES FROM ('NQm6nKp8qFD') TO (MAXVALUE);
INSERT INTO j_range_uid11 SELECT a, n FROM j_left WHERE a IS NOT NULL;
INSERT INTO j_range_uid11 VALUES ('NQm6nKp8qFD', -1), ('jpXCZedGfVQ', -2);
SELECT tableoid::regclass AS part, count(*), min(id), max(id) FROM j_range_uid11 GROUP BY 1 ORDER BY 1;
SELECT count(*) FILTER (WHERE a >= 'NQm6nKp8qFD') AS expected_hi FROM j_left;
EXPLAIN (COSTS OFF) SELECT n FROM j_range_uid11 WHERE id >= 'NQm6nKp8qFD';
EXPLAIN (COSTS OFF) SELECT n FROM j_range_uid11 WHERE id < 'NQm6nKp8qFD';
SELECT n FROM j_range_uid11 WHERE id = 'NQm6nKp8qFD';

-- timeid: hash partitions (4) and range partitions split at '6222222222222' (the values >= 2^62)
CREATE TABLE j_hash_timeid (id timeid, n int) PARTITION BY HASH (id);
CREATE TABLE j_hash_timeid_0 PARTITION OF j_hash_timeid FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE j_hash_timeid_1 PARTITION OF j_hash_timeid FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE j_hash_timeid_2 PARTITION OF j_hash_timeid FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE j_hash_timeid_3 PARTITION OF j_hash_timeid FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO j_hash_timeid SELECT b, n FROM j_left WHERE b IS NOT NULL;
INSERT INTO j_hash_timeid VALUES ('bzzzzzzzzzzzz', -1);
SELECT tableoid::regclass AS part, count(*) FROM j_hash_timeid GROUP BY 1 ORDER BY 1;
EXPLAIN (COSTS OFF) SELECT n FROM j_hash_timeid WHERE id = 'bzzzzzzzzzzzz';
SELECT n FROM j_hash_timeid WHERE id = 'bzzzzzzzzzzzz';
-- every row is found again through pruning to its partition
SELECT count(*) FILTER (WHERE (SELECT count(*) FROM j_hash_timeid h WHERE h.id = l.b) = 1) AS found
FROM j_left l WHERE l.b IS NOT NULL;
CREATE TABLE j_range_timeid (id timeid, n int) PARTITION BY RANGE (id);
CREATE TABLE j_range_timeid_lo PARTITION OF j_range_timeid FOR VALUES FROM (MINVALUE) TO ('6222222222222');
CREATE TABLE j_range_timeid_hi PARTITION OF j_range_timeid FOR VALUES FROM ('6222222222222') TO (MAXVALUE);
INSERT INTO j_range_timeid SELECT b, n FROM j_left WHERE b IS NOT NULL;
INSERT INTO j_range_timeid VALUES ('6222222222222', -1), ('bzzzzzzzzzzzz', -2);
SELECT tableoid::regclass AS part, count(*), min(id), max(id) FROM j_range_timeid GROUP BY 1 ORDER BY 1;
SELECT count(*) FILTER (WHERE b >= '6222222222222') AS expected_hi FROM j_left;
EXPLAIN (COSTS OFF) SELECT n FROM j_range_timeid WHERE id >= '6222222222222';
EXPLAIN (COSTS OFF) SELECT n FROM j_range_timeid WHERE id < '6222222222222';
SELECT n FROM j_range_timeid WHERE id = '6222222222222';

-- ulidflake: hash partitions (4) and range partitions split at '4000000000000' (the values >= 2^62)
CREATE TABLE j_hash_ulidflake (id ulidflake, n int) PARTITION BY HASH (id);
CREATE TABLE j_hash_ulidflake_0 PARTITION OF j_hash_ulidflake FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE j_hash_ulidflake_1 PARTITION OF j_hash_ulidflake FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE j_hash_ulidflake_2 PARTITION OF j_hash_ulidflake FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE j_hash_ulidflake_3 PARTITION OF j_hash_ulidflake FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO j_hash_ulidflake SELECT c, n FROM j_left WHERE c IS NOT NULL;
INSERT INTO j_hash_ulidflake VALUES ('7ZZZZZZZZZZZZ', -1);
SELECT tableoid::regclass AS part, count(*) FROM j_hash_ulidflake GROUP BY 1 ORDER BY 1;
EXPLAIN (COSTS OFF) SELECT n FROM j_hash_ulidflake WHERE id = '7ZZZZZZZZZZZZ';
SELECT n FROM j_hash_ulidflake WHERE id = '7ZZZZZZZZZZZZ';
-- every row is found again through pruning to its partition
SELECT count(*) FILTER (WHERE (SELECT count(*) FROM j_hash_ulidflake h WHERE h.id = l.c) = 1) AS found
FROM j_left l WHERE l.c IS NOT NULL;
CREATE TABLE j_range_ulidflake (id ulidflake, n int) PARTITION BY RANGE (id);
CREATE TABLE j_range_ulidflake_lo PARTITION OF j_range_ulidflake FOR VALUES FROM (MINVALUE) TO ('4000000000000');
CREATE TABLE j_range_ulidflake_hi PARTITION OF j_range_ulidflake FOR VALUES FROM ('4000000000000') TO (MAXVALUE);
INSERT INTO j_range_ulidflake SELECT c, n FROM j_left WHERE c IS NOT NULL;
INSERT INTO j_range_ulidflake VALUES ('4000000000000', -1), ('7ZZZZZZZZZZZZ', -2);
SELECT tableoid::regclass AS part, count(*), min(id), max(id) FROM j_range_ulidflake GROUP BY 1 ORDER BY 1;
SELECT count(*) FILTER (WHERE c >= '4000000000000') AS expected_hi FROM j_left;
EXPLAIN (COSTS OFF) SELECT n FROM j_range_ulidflake WHERE id >= '4000000000000';
EXPLAIN (COSTS OFF) SELECT n FROM j_range_ulidflake WHERE id < '4000000000000';
SELECT n FROM j_range_ulidflake WHERE id = '4000000000000';

-- ulid: hash partitions (4) and range partitions split at '40000000000000000000000000' (the values >= 2^127)
CREATE TABLE j_hash_ulid (id ulid, n int) PARTITION BY HASH (id);
CREATE TABLE j_hash_ulid_0 PARTITION OF j_hash_ulid FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE j_hash_ulid_1 PARTITION OF j_hash_ulid FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE j_hash_ulid_2 PARTITION OF j_hash_ulid FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE j_hash_ulid_3 PARTITION OF j_hash_ulid FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO j_hash_ulid SELECT d, n FROM j_left WHERE d IS NOT NULL;
INSERT INTO j_hash_ulid VALUES ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', -1);
SELECT tableoid::regclass AS part, count(*) FROM j_hash_ulid GROUP BY 1 ORDER BY 1;
EXPLAIN (COSTS OFF) SELECT n FROM j_hash_ulid WHERE id = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ';
SELECT n FROM j_hash_ulid WHERE id = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ';
-- every row is found again through pruning to its partition
SELECT count(*) FILTER (WHERE (SELECT count(*) FROM j_hash_ulid h WHERE h.id = l.d) = 1) AS found
FROM j_left l WHERE l.d IS NOT NULL;
CREATE TABLE j_range_ulid (id ulid, n int) PARTITION BY RANGE (id);
CREATE TABLE j_range_ulid_lo PARTITION OF j_range_ulid FOR VALUES FROM (MINVALUE) TO ('40000000000000000000000000');
CREATE TABLE j_range_ulid_hi PARTITION OF j_range_ulid FOR VALUES FROM ('40000000000000000000000000') TO (MAXVALUE);
INSERT INTO j_range_ulid SELECT d, n FROM j_left WHERE d IS NOT NULL;
INSERT INTO j_range_ulid VALUES ('40000000000000000000000000', -1), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', -2);
SELECT tableoid::regclass AS part, count(*), min(id), max(id) FROM j_range_ulid GROUP BY 1 ORDER BY 1;
SELECT count(*) FILTER (WHERE d >= '40000000000000000000000000') AS expected_hi FROM j_left;
EXPLAIN (COSTS OFF) SELECT n FROM j_range_ulid WHERE id >= '40000000000000000000000000';
EXPLAIN (COSTS OFF) SELECT n FROM j_range_ulid WHERE id < '40000000000000000000000000';
SELECT n FROM j_range_ulid WHERE id = '40000000000000000000000000';

-- euid: hash partitions (4) and range partitions split at 'G00000000000000000000000002' (the values >= 2^127)
CREATE TABLE j_hash_euid (id euid, n int) PARTITION BY HASH (id);
CREATE TABLE j_hash_euid_0 PARTITION OF j_hash_euid FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE j_hash_euid_1 PARTITION OF j_hash_euid FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE j_hash_euid_2 PARTITION OF j_hash_euid FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE j_hash_euid_3 PARTITION OF j_hash_euid FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO j_hash_euid SELECT e, n FROM j_left WHERE e IS NOT NULL;
INSERT INTO j_hash_euid VALUES ('ZZZZZZZZZZZZZZZZZZZZZZZZZW3', -1);
SELECT tableoid::regclass AS part, count(*) FROM j_hash_euid GROUP BY 1 ORDER BY 1;
EXPLAIN (COSTS OFF) SELECT n FROM j_hash_euid WHERE id = 'ZZZZZZZZZZZZZZZZZZZZZZZZZW3';
SELECT n FROM j_hash_euid WHERE id = 'ZZZZZZZZZZZZZZZZZZZZZZZZZW3';
-- every row is found again through pruning to its partition
SELECT count(*) FILTER (WHERE (SELECT count(*) FROM j_hash_euid h WHERE h.id = l.e) = 1) AS found
FROM j_left l WHERE l.e IS NOT NULL;
CREATE TABLE j_range_euid (id euid, n int) PARTITION BY RANGE (id);
CREATE TABLE j_range_euid_lo PARTITION OF j_range_euid FOR VALUES FROM (MINVALUE) TO ('G00000000000000000000000002');
CREATE TABLE j_range_euid_hi PARTITION OF j_range_euid FOR VALUES FROM ('G00000000000000000000000002') TO (MAXVALUE);
INSERT INTO j_range_euid SELECT e, n FROM j_left WHERE e IS NOT NULL;
INSERT INTO j_range_euid VALUES ('G00000000000000000000000002', -1), ('ZZZZZZZZZZZZZZZZZZZZZZZZZW3', -2);
SELECT tableoid::regclass AS part, count(*), min(id), max(id) FROM j_range_euid GROUP BY 1 ORDER BY 1;
SELECT count(*) FILTER (WHERE e >= 'G00000000000000000000000002') AS expected_hi FROM j_left;
EXPLAIN (COSTS OFF) SELECT n FROM j_range_euid WHERE id >= 'G00000000000000000000000002';
EXPLAIN (COSTS OFF) SELECT n FROM j_range_euid WHERE id < 'G00000000000000000000000002';
SELECT n FROM j_range_euid WHERE id = 'G00000000000000000000000002';

DROP TABLE j_left, j_right, j_dup;
DROP TABLE j_hash_uid11, j_hash_timeid, j_hash_ulidflake, j_hash_ulid, j_hash_euid;
DROP TABLE j_range_uid11, j_range_timeid, j_range_ulidflake, j_range_ulid, j_range_euid;
