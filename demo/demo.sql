-- demo.sql: what `make demo` shows, on a throwaway cluster.
CREATE EXTENSION idtypes;
SET TimeZone = 'UTC';

-- Five ID types, each with a generator usable as a column default.
CREATE TABLE orders (
	id uid11 PRIMARY KEY DEFAULT generate_uid11_xid(),
	item text
);
INSERT INTO orders (item) SELECT 'item ' || g FROM generate_series(1, 5) g;
SELECT id, uid11_timestamp(id), uid11_random(id), item FROM orders ORDER BY id;

SELECT generate_timeid() AS timeid, timeid_dashed(generate_timeid(1)) AS dashed,
	generate_ulidflake() AS ulidflake, generate_ulid() AS ulid, generate_euid(42) AS euid;

-- Canonical text in, canonical text out; case and aliases per type.
SELECT '3kxn-lhr-3gxq-23'::timeid AS tid_from_display_form,
	timeid_timestamp('3kxnlhr3gxq23') AS tid_time,
	'01arz3ndektsv4rrffq69g5fav'::ulid AS ulid_upper_cased,
	'c8ee934sr007g5q94qkkxfrfv8b'::euid AS euid, euid_extension('C8EE934SR007G5Q94QKKXFRFV8B');

-- Unsigned order: uid11 values at and above 2^63 sort last, as their text does.
SELECT v FROM (VALUES ('jpXCZedGfVQ'::uid11), ('NQm6nKp8qFD'), ('11111111112')) t(v) ORDER BY v;

-- Casts: bigint, numeric, uuid, bytea, timestamptz.
SELECT 'jpXCZedGfVQ'::uid11::bigint AS as_bigint, 'jpXCZedGfVQ'::uid11::numeric AS as_numeric,
	'01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid AS as_uuid,
	'00CMXB6TAK4SA'::ulidflake::bytea AS as_bytea,
	'00CMXB6TAK4SA'::ulidflake::timestamptz AS as_time;

-- Bad input gets a clear error with the right SQLSTATE.
\set ON_ERROR_STOP 0
SELECT 'jpXCZedGfVR'::uid11;
SELECT '3KXNLHR3GXQ23'::timeid;
SELECT 'C8X2HA87098A0W837DX13FEAWVV'::euid;
\set ON_ERROR_STOP 1

-- Monotonic within a session, cluster-wide when preloaded.
SELECT idtypes_generator_scope();
SELECT count(DISTINCT id) AS distinct_ids, bool_and(id > prev) AS strictly_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
	FROM (SELECT n, generate_ulid_monotonic() AS id FROM generate_series(1, 10000) n) a) b;

-- Prefix and time-range queries run as btree index range scans.
CREATE TABLE events (id timeid PRIMARY KEY, n int);
INSERT INTO events
SELECT generate_timeid_at(timestamptz '2024-07-19 00:00:00+00' + g * interval '1 second', 1), g
FROM generate_series(1, 100000) g;
ANALYZE events;
SELECT timeid_prefix_range('3kxn-lhr') AS prefix_range,
	timeid_timestamp(lower(timeid_prefix_range('3kxn-lhr'))) AS first_time,
	timeid_timestamp(upper(timeid_prefix_range('3kxn-lhr'))) AS last_time;
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id ^@ '3kxn-lhr';
SELECT count(*) FROM events WHERE id ^@ '3kxn-lhr';
EXPLAIN (COSTS OFF)
SELECT * FROM events WHERE id <@ timeid_time_range('[2024-07-19 12:00, 2024-07-19 12:01)');
SELECT count(*) FROM events WHERE id <@ timeid_time_range('[2024-07-19 12:00, 2024-07-19 12:01)');
