-- A uuid column becomes ulid or euid, and back, without rewriting the table: the casts are
-- binary-coercible, so ALTER COLUMN ... TYPE keeps the table's file and rebuilds its indexes.
CREATE TABLE mig (id uuid PRIMARY KEY, note text);
INSERT INTO mig SELECT generate_ulid_at(timestamptz '2026-01-01 00:00+00' + i * interval '1 second')::uuid, 'row ' || i
FROM generate_series(1, 1000) i;
CREATE TABLE mig_before AS SELECT id, note FROM mig;
SELECT pg_relation_filenode('mig') AS table_file, pg_relation_filenode('mig_pkey') AS index_file \gset
ALTER TABLE mig ALTER COLUMN id TYPE ulid;
SELECT pg_relation_filenode('mig') = :table_file AS table_kept,
       pg_relation_filenode('mig_pkey') <> :index_file AS index_rebuilt,
       format_type(atttypid, atttypmod) AS type
FROM pg_attribute WHERE attrelid = 'mig'::regclass AND attname = 'id';
-- The same 16 bytes: each row's ulid text is its uuid's bytes in Crockford base32.
SELECT count(*) AS same FROM mig JOIN mig_before b ON b.id = mig.id::uuid AND b.note = mig.note;
SELECT min(id) < max(id) AS ordered, ulid_timestamp(min(id)) AS first FROM mig;
ALTER TABLE mig ALTER COLUMN id TYPE uuid;
ALTER TABLE mig ALTER COLUMN id TYPE euid;
SELECT pg_relation_filenode('mig') = :table_file AS table_kept FROM mig LIMIT 1;
ALTER TABLE mig ALTER COLUMN id TYPE uuid;
SELECT pg_relation_filenode('mig') = :table_file AS table_kept,
       (SELECT count(*) FROM mig JOIN mig_before b USING (id, note)) AS same
FROM mig LIMIT 1;
-- A casted value reads as the other type without a call: the plan shows a relabel, not a function.
EXPLAIN (VERBOSE, COSTS OFF) SELECT id::ulid FROM mig;
DROP TABLE mig, mig_before;
