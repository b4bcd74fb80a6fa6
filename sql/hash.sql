-- hash: hash opclasses, hash indexes, and hash values that are stable (same on every CPU and
-- every release: hash partitions and hash indexes depend on them).
\set VERBOSITY terse

-- hash support functions: 1 hash (int4), 2 extended hash (int8, seeded).
SELECT format_type(amproclefttype, NULL) AS type, amprocnum AS num, amproc
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
WHERE f.opfmethod = (SELECT oid FROM pg_am WHERE amname = 'hash')
  AND amproclefttype IN ('uid11'::regtype, 'timeid'::regtype, 'ulidflake'::regtype,
                         'ulid'::regtype, 'euid'::regtype)
ORDER BY 1, 2;

-- Known values: a change here breaks hash-partitioned tables on upgrade or restore.
SELECT uid11_hash('11111111111') AS zero, uid11_hash('NQm6nKp8qFD') AS h63,
       uid11_hash('jpXCZedGfVQ') AS max, uid11_hash_extended('NQm6nKp8qFD', 0) AS ext0,
       uid11_hash_extended('NQm6nKp8qFD', 42) AS ext42;
SELECT timeid_hash('2222222222222') AS zero, timeid_hash('3kxnlhr3gxq23') AS example,
       timeid_hash('bzzzzzzzzzzzz') AS max, timeid_hash_extended('3kxnlhr3gxq23', 0) AS ext0,
       timeid_hash_extended('3kxnlhr3gxq23', 42) AS ext42;
SELECT ulidflake_hash('0000000000000') AS zero, ulidflake_hash('00CMXB6TAK4SA') AS example,
       ulidflake_hash('7ZZZZZZZZZZZZ') AS max, ulidflake_hash_extended('00CMXB6TAK4SA', 0) AS ext0,
       ulidflake_hash_extended('00CMXB6TAK4SA', 42) AS ext42;
SELECT ulid_hash('00000000000000000000000000') AS zero,
       ulid_hash('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS example,
       ulid_hash('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS max,
       ulid_hash_extended('01ARZ3NDEKTSV4RRFFQ69G5FAV', 0) AS ext0,
       ulid_hash_extended('01ARZ3NDEKTSV4RRFFQ69G5FAV', 42) AS ext42;
SELECT euid_hash('000000000000000000000000000') AS zero,
       euid_hash('C8EE934SR007G5Q94QKKXFRFV8B') AS example,
       euid_hash('ZZZZZZZZZZZZZZZZZZZZZZZZZW3') AS max,
       euid_hash_extended('C8EE934SR007G5Q94QKKXFRFV8B', 0) AS ext0,
       euid_hash_extended('C8EE934SR007G5Q94QKKXFRFV8B', 42) AS ext42;

-- As PostgreSQL requires of every hash opclass: the extended hash with seed 0 has the standard
-- hash in its low 32 bits; a nonzero seed changes the value; equal values hash equal.
CREATE TABLE hash_ids AS
SELECT i, ('x' || substr(m, 1, 16))::bit(64)::bigint::uid11 AS a,
       (('x' || substr(m, 1, 16))::bit(64)::bigint & 9223372036854775807)::timeid AS b,
       (('x' || substr(m, 17, 16))::bit(64)::bigint & 9223372036854775807)::ulidflake AS c,
       m::uuid::ulid AS d, m::uuid::euid AS e
FROM (SELECT i, md5(i::text) AS m FROM generate_series(1, 1000) i) s;
SELECT count(*) AS n,
       count(*) FILTER (WHERE uid11_hash(a)::bit(32) = uid11_hash_extended(a, 0)::bit(32)
                          AND uid11_hash_extended(a, 0) <> uid11_hash_extended(a, 1)) AS uid11,
       count(*) FILTER (WHERE timeid_hash(b)::bit(32) = timeid_hash_extended(b, 0)::bit(32)
                          AND timeid_hash_extended(b, 0) <> timeid_hash_extended(b, 1)) AS timeid,
       count(*) FILTER (WHERE ulidflake_hash(c)::bit(32) = ulidflake_hash_extended(c, 0)::bit(32)
                          AND ulidflake_hash_extended(c, 0) <> ulidflake_hash_extended(c, 1)) AS ulidflake,
       count(*) FILTER (WHERE ulid_hash(d)::bit(32) = ulid_hash_extended(d, 0)::bit(32)
                          AND ulid_hash_extended(d, 0) <> ulid_hash_extended(d, 1)) AS ulid,
       count(*) FILTER (WHERE euid_hash(e)::bit(32) = euid_hash_extended(e, 0)::bit(32)
                          AND euid_hash_extended(e, 0) <> euid_hash_extended(e, 1)) AS euid
FROM hash_ids;
-- 1000 distinct values give (nearly) 1000 distinct hashes
SELECT count(DISTINCT uid11_hash(a)) AS uid11, count(DISTINCT timeid_hash(b)) AS timeid,
       count(DISTINCT ulidflake_hash(c)) AS ulidflake, count(DISTINCT ulid_hash(d)) AS ulid,
       count(DISTINCT euid_hash(e)) AS euid
FROM hash_ids;

-- ---- hash indexes ------------------------------------------------------------------------------

INSERT INTO hash_ids VALUES
	(1001, 'NQm6nKp8qFD', '3kxnlhr3gxq23', '00CMXB6TAK4SA', '01ARZ3NDEKTSV4RRFFQ69G5FAV',
	       'C8EE934SR007G5Q94QKKXFRFV8B'),
	(1002, 'jpXCZedGfVQ', 'bzzzzzzzzzzzz', '7ZZZZZZZZZZZZ', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
	       'ZZZZZZZZZZZZZZZZZZZZZZZZZW3'),
	(1003, NULL, NULL, NULL, NULL, NULL);
CREATE INDEX hash_ids_a ON hash_ids USING hash (a);
CREATE INDEX hash_ids_b ON hash_ids USING hash (b);
CREATE INDEX hash_ids_c ON hash_ids USING hash (c);
CREATE INDEX hash_ids_d ON hash_ids USING hash (d);
CREATE INDEX hash_ids_e ON hash_ids USING hash (e);
ANALYZE hash_ids;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT i FROM hash_ids WHERE a = 'NQm6nKp8qFD';
SELECT i FROM hash_ids WHERE a = 'NQm6nKp8qFD';
SELECT i FROM hash_ids WHERE a = (-1)::bigint::uid11;
EXPLAIN (COSTS OFF) SELECT i FROM hash_ids WHERE b = '3kxn-lhr-3gxq-23';
SELECT i FROM hash_ids WHERE b = '3kxn-lhr-3gxq-23';
SELECT i FROM hash_ids WHERE c = '00cmxb6tak4sa';
EXPLAIN (COSTS OFF) SELECT i FROM hash_ids WHERE d = '01arz3ndektsv4rrffq69g5fav';
SELECT i FROM hash_ids WHERE d = '01arz3ndektsv4rrffq69g5fav';
SELECT i FROM hash_ids WHERE e = 'C8EE934SR0O7G5Q94QKKXFRFVBZ';
-- every row is found through each index
SELECT count(*) FILTER (WHERE (SELECT count(*) FROM hash_ids y WHERE y.a = x.a) >= 1) AS uid11,
       count(*) FILTER (WHERE (SELECT count(*) FROM hash_ids y WHERE y.b = x.b) >= 1) AS timeid,
       count(*) FILTER (WHERE (SELECT count(*) FROM hash_ids y WHERE y.c = x.c) >= 1) AS ulidflake,
       count(*) FILTER (WHERE (SELECT count(*) FROM hash_ids y WHERE y.d = x.d) >= 1) AS ulid,
       count(*) FILTER (WHERE (SELECT count(*) FROM hash_ids y WHERE y.e = x.e) >= 1) AS euid
FROM hash_ids x;
EXPLAIN (COSTS OFF) SELECT count(*) FROM hash_ids y WHERE y.e = 'C8EE934SR007G5Q94QKKXFRFV8B';
RESET enable_seqscan;
RESET enable_bitmapscan;

DROP TABLE hash_ids;
