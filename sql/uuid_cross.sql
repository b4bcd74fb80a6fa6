-- uuid_cross: ulid and euid compare with uuid (all six operators, both argument orders) in the
-- btree and hash families of the types, so that a parameter typed uuid, as drivers and ORMs send
-- 16-byte IDs, finds the row through the index, also in a generic plan, and hash and merge joins
-- work across the two types; an index on a uuid column serves ulid and euid values and joins.
CREATE TABLE ux (id ulid PRIMARY KEY, e euid UNIQUE, n int NOT NULL);
INSERT INTO ux
SELECT generate_ulid_at(t), generate_euid_at(t), g
FROM generate_series(1, 2000) g, LATERAL (SELECT '2026-01-01'::timestamptz + g * interval '1 second' t) s;
ANALYZE ux;

-- Every operator in both orders agrees with the same comparison on the bytes (as uuid).
SELECT count(*) AS pairs,
       bool_and((a.id = b.id::uuid) = (a.id::uuid = b.id::uuid) AND (b.id::uuid = a.id) = (a.id::uuid = b.id::uuid)) AS eq,
       bool_and((a.id <> b.id::uuid) = (a.id::uuid <> b.id::uuid) AND (b.id::uuid <> a.id) = (a.id::uuid <> b.id::uuid)) AS ne,
       bool_and((a.id < b.id::uuid) = (a.id::uuid < b.id::uuid) AND (b.id::uuid < a.id) = (b.id::uuid < a.id::uuid)) AS lt,
       bool_and((a.id <= b.id::uuid) = (a.id::uuid <= b.id::uuid) AND (b.id::uuid <= a.id) = (b.id::uuid <= a.id::uuid)) AS le,
       bool_and((a.id > b.id::uuid) = (a.id::uuid > b.id::uuid) AND (b.id::uuid > a.id) = (b.id::uuid > a.id::uuid)) AS gt,
       bool_and((a.id >= b.id::uuid) = (a.id::uuid >= b.id::uuid) AND (b.id::uuid >= a.id) = (b.id::uuid >= a.id::uuid)) AS ge,
       bool_and((a.e = b.e::uuid) = (a.e::uuid = b.e::uuid) AND (b.e::uuid = a.e) = (a.e::uuid = b.e::uuid)) AS euid_eq,
       bool_and((a.e < b.e::uuid) = (a.e::uuid < b.e::uuid) AND (b.e::uuid >= a.e) = (b.e::uuid >= a.e::uuid)) AS euid_lt_ge
FROM (SELECT * FROM ux WHERE n % 40 = 0) a, (SELECT * FROM ux WHERE n % 50 = 0 OR n % 40 = 0) b;

-- A parameter typed uuid, in a generic plan: an index scan that finds the row.
SELECT id::uuid AS u, e::uuid AS eu, id::text AS ut FROM ux WHERE n = 1234 \gset
SET plan_cache_mode = force_generic_plan;
PREPARE by_ulid(uuid) AS SELECT n FROM ux WHERE id = $1;
PREPARE by_euid(uuid) AS SELECT n FROM ux WHERE $1 = e;
PREPARE ulid_window(uuid, uuid) AS SELECT count(*) FROM ux WHERE id > $1 AND id <= $2;
EXPLAIN (COSTS OFF) EXECUTE by_ulid(:'u');
EXPLAIN (COSTS OFF) EXECUTE by_euid(:'eu');
EXPLAIN (COSTS OFF) EXECUTE ulid_window(:'u', :'u');
EXECUTE by_ulid(:'u');
EXECUTE by_euid(:'eu');
SELECT id::uuid AS lo FROM ux WHERE n = 1000 \gset
EXECUTE ulid_window(:'lo', :'u');
RESET plan_cache_mode;

-- A text parameter needs the cast written out: $1::ulid (or ::euid).
PREPARE by_text(text) AS SELECT n FROM ux WHERE id = $1::ulid;
EXECUTE by_text(:'ut');

-- Joins across the types: hash join and merge join find the same rows.
CREATE TABLE uu (u uuid NOT NULL);
INSERT INTO uu SELECT id::uuid FROM ux WHERE n % 3 = 0 UNION ALL SELECT e::uuid FROM ux WHERE n % 5 = 0
UNION ALL SELECT gen_random_uuid() FROM generate_series(1, 500);
ANALYZE uu;
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ux JOIN uu ON ux.id = uu.u;
SELECT count(*) FROM ux JOIN uu ON ux.id = uu.u;
SELECT count(*) FROM uu JOIN ux ON uu.u = ux.e;
RESET enable_mergejoin;
SET enable_hashjoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ux JOIN uu ON uu.u = ux.id;
SELECT count(*) FROM ux JOIN uu ON uu.u = ux.id;
SELECT count(*) FROM uu JOIN ux ON ux.e = uu.u;
RESET enable_hashjoin;
RESET enable_nestloop;

-- The families stay valid, and uuid's own index is not affected.
SELECT c.opcname, a.amname, amvalidate(c.oid)
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE c.opcname IN ('ulid_ops', 'euid_ops', 'uuid_ops') AND a.amname IN ('btree', 'hash')
ORDER BY 1, 2;
CREATE INDEX ON uu (u);
SELECT count(*) FROM uu WHERE u = (SELECT id::uuid FROM ux WHERE n = 3);

-- An index on the uuid column serves a ulid or euid value, both ways round, and a join from
-- either side: where the uuid side reads a column, the comparison becomes uuid's own, with the ID
-- relabeled as uuid (the same 16 bytes).
ANALYZE uu;
SET enable_seqscan = off;
-- Plans with fixed values (the first ID at 08:00:04 UTC, and the same bytes as an euid), rows
-- with a value taken from uu.
SELECT u::ulid AS l FROM uu ORDER BY u LIMIT 1 OFFSET 5 \gset
\set fl '''01KDW94AX00000000000000000'''
\set fe '''06DQH4HBM00000000000000003Y'''
EXPLAIN (COSTS OFF) SELECT count(*) FROM uu WHERE u = :fl::ulid;
EXPLAIN (COSTS OFF) SELECT count(*) FROM uu WHERE :fe::euid = u;
EXPLAIN (COSTS OFF) SELECT count(*) FROM uu WHERE u >= :fl::ulid AND u < :fe::euid;
SELECT (SELECT count(*) FROM uu WHERE u = :'l'::ulid) AS by_index,
       (SELECT count(*) FROM uu WHERE u::text = (:'l'::ulid)::uuid::text) AS by_text;
PREPARE uu_by_ulid(ulid) AS SELECT count(*) FROM uu WHERE u = $1;
EXPLAIN (COSTS OFF) EXECUTE uu_by_ulid(:fl);
EXECUTE uu_by_ulid(:'l');
RESET plan_cache_mode;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
-- A nested loop from ux into uu's index, and from uu into ux's.
EXPLAIN (COSTS OFF) SELECT count(*) FROM ux JOIN uu ON uu.u = ux.id WHERE ux.id < :fl;
SELECT count(*) FROM ux JOIN uu ON uu.u = ux.id WHERE ux.id < :fl;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ux JOIN uu ON uu.u = ux.id WHERE uu.u < :fl::ulid;
SELECT count(*) FROM ux JOIN uu ON uu.u = ux.id WHERE uu.u < :fl::ulid;
EXPLAIN (COSTS OFF) SELECT count(*) FROM uu JOIN ux ON ux.e = uu.u WHERE uu.u < :fe::euid;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_seqscan;
-- A uuid constant or parameter against the ID column keeps the cross-type operator, which the
-- ID column's own index serves (above); the rewrite needs a uuid column.
EXPLAIN (COSTS OFF) SELECT n FROM ux WHERE id = :fl::ulid::uuid;

DROP TABLE ux, uu;
