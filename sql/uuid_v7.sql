-- uuid_v7: a plain uuid column holding UUIDv7 values (core's uuidv7() on 18+, an application's,
-- pg_uuidv7's) gets what the five types have: time windows with <@ uuidv7_time_range(), hex
-- prefixes with ^@, both as btree index conditions (also in generic plans and under row-level
-- security), partition bounds with uuidv7_first_at() and pruning, and estimates of the newest
-- rows; core's own estimates of other uuid queries stay as they are. And UUIDv7 <-> ulid.
\set VERBOSITY terse
SET jit = off;
-- UUIDv7 values made in plain SQL (the library not loaded yet): one every 36 s from 2026-01-01,
-- 12 bits of the ms's fraction and 62 bits from md5, version 7 and variant 10.
CREATE FUNCTION v7_at(ts timestamptz, seed int) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
	SELECT (lpad(to_hex((extract(epoch FROM ts) * 1000)::bigint), 12, '0') || '7' ||
	        substr(md5(seed::text), 1, 3) || '8' || substr(md5(seed::text), 4, 15))::uuid
$$;
-- The first 48 bits as a number, in plain SQL.
CREATE FUNCTION v7_ms(u uuid) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
	SELECT ('x' || lpad(left(replace(u::text, '-', ''), 12), 16, '0'))::bit(64)::bigint
$$;
-- No autovacuum: a VACUUM between the fresh rows' INSERT and the estimates below counts them into
-- reltuples (once in CI: 9 estimated for the newest hour's 100 rows).
CREATE TABLE u7 (id uuid PRIMARY KEY, n int NOT NULL) WITH (autovacuum_enabled = off);
INSERT INTO u7 SELECT v7_at(timestamptz '2026-01-01 00:00+00' + i * interval '36 s', i), i
FROM generate_series(1, 20000) i;
ANALYZE u7;
-- Rows added since ANALYZE: the newest day.
INSERT INTO u7 SELECT v7_at(timestamptz '2026-01-09 08:00+00' + (i - 20000) * interval '36 s', i), i
FROM generate_series(20001, 22400) i;
-- Core's estimates of uuid comparisons, before idtypes' library is loaded in this session ...
CREATE TEMP TABLE core_est AS
SELECT q, est_rows(q) AS before FROM (VALUES
	('SELECT * FROM u7 WHERE id >= ''019ba1f0-0000-0000-0000-000000000000'''),
	('SELECT * FROM u7 WHERE id < ''019b8000-0000-0000-0000-000000000000'''),
	('SELECT * FROM u7 WHERE id = ''019b8000-0000-7000-8000-000000000000'''),
	('SELECT * FROM u7 a JOIN u7 b ON a.id = b.id')) v(q);
SELECT count(*) AS loaded FROM pg_proc WHERE proname = 'idtypes_version' AND idtypes_version() <> '';
-- ... and after: the same (the statistics hook serves the five types only).
SELECT q, before = est_rows(q) AS unchanged FROM core_est ORDER BY q;

-- The operators, their functions and what the planner may do with them.
SELECT o.oprname, o.oprleft::regtype, o.oprright::regtype, p.proname, p.proleakproof,
       p.provolatile, p.proparallel, o.oprrest, o.oprjoin
FROM pg_operator o JOIN pg_proc p ON p.oid = o.oprcode
WHERE o.oprleft = 'uuid'::regtype AND o.oprname IN ('<@', '^@') ORDER BY 1;

-- Time windows: index conditions with uuid bounds, the exact rows.
EXPLAIN (COSTS OFF) SELECT count(*) FROM u7 WHERE id <@ uuidv7_time_range('[2026-01-02 00:00+00, 2026-01-03 00:00+00)');
SELECT count(*) FROM u7 WHERE id <@ uuidv7_time_range('[2026-01-02 00:00+00, 2026-01-03 00:00+00)');
SELECT count(*) FROM u7 WHERE id >= uuidv7_first_at('2026-01-02 00:00+00') AND id < uuidv7_first_at('2026-01-03 00:00+00');
SELECT count(*) FROM u7 WHERE v7_ms(id) >= 1767312000000 AND v7_ms(id) < 1767398400000;
SELECT uuidv7_time_range('[2026-01-02 00:00+00, 2026-01-02 00:00:00.001+00)');
SELECT uuidv7_time_range('empty'), uuidv7_time_range('[2026-01-02 00:00+00,)');
SELECT uuidv7_first_at('1970-01-01 00:00+00'), uuidv7_first_at('10889-08-02 05:31:50.655+00'),
       uuidv7_first_at('10889-08-02 05:31:50.656+00') AS past_the_era;
-- Hex prefixes, with and without the dashes, either case.
EXPLAIN (COSTS OFF) SELECT count(*) FROM u7 WHERE id ^@ '019b8';
SELECT count(*) AS n, count(*) = (SELECT count(*) FROM u7 WHERE id::text LIKE '019b8%') AS as_like
FROM u7 WHERE id ^@ '019b8';
SELECT id ^@ '019B7C01-0' AS dashed, id ^@ '019b7c010' AS plain, id ^@ '019b7c01-04' AS dashed_more,
       id ^@ '' AS empty
FROM (SELECT v7_at('2026-01-02 00:00+00', 1) AS id) s;
SELECT uuid_prefix_range('01234567-89AB'), uuid_prefix_range('0123456789abcdef0123456789abcdef');
-- Errors: 22P02 for a malformed prefix, naming the character; 22023 for a uuid of another
-- version given as a UUIDv7.
CREATE FUNCTION sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE q;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
SELECT sqlstate_of(q) FROM (VALUES
	($$SELECT '019b7c01-0400-7000-8000-000000000000'::uuid ^@ '019b-'$$),
	($$SELECT uuid_prefix_range('019g')$$),
	($$SELECT uuid_prefix_range('0123456789abcdef0123456789abcdef0')$$),
	($$SELECT uuidv7_to_ulid('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')$$)) v(q);
\set VERBOSITY default
SELECT '019b7c01-0400-7000-8000-000000000000'::uuid ^@ '019b-';
SELECT uuidv7_to_ulid('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
\set VERBOSITY terse
-- NULLs and empty ranges: no row, no error.
SELECT count(*) FROM u7 WHERE id <@ NULL::uuidrange;
SELECT count(*) FROM u7 WHERE id <@ 'empty'::uuidrange;
-- A parameter, in a generic plan: bounds computed at scan start.
PREPARE win(tstzrange) AS SELECT count(*) FROM u7 WHERE id <@ uuidv7_time_range($1);
PREPARE pre(text) AS SELECT count(*) FROM u7 WHERE id ^@ $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE win('[2026-01-02 00:00+00, 2026-01-03 00:00+00)');
EXECUTE win('[2026-01-02 00:00+00, 2026-01-03 00:00+00)');
EXPLAIN (COSTS OFF) EXECUTE pre('019b8');
EXECUTE pre('019b8');
RESET plan_cache_mode;

-- Estimates: the last hour, rows added since ANALYZE included, within 3x of the true count.
SELECT est_within($$SELECT * FROM u7 WHERE id <@ uuidv7_time_range('[2026-01-10 07:00+00, 2026-01-10 08:00+00)')$$, 3) AS newest_hour,
       est_within($$SELECT * FROM u7 WHERE id <@ uuidv7_time_range('[2026-01-05 07:00+00, 2026-01-05 08:00+00)')$$, 3) AS analyzed_hour,
       est_within($$SELECT * FROM u7 WHERE id ^@ '019ba'$$, 3) AS prefix,
       est_within($$SELECT * FROM u7 WHERE id <@ uuidv7_time_range('[2027-01-01 00:00+00,)')$$, 3) AS future;

-- Row-level security: <@ is leakproof, so it stays an index condition under a policy; ^@
-- (an error shows its prefix) is rewritten into the <@ of its prefix range.
ALTER TABLE u7 ENABLE ROW LEVEL SECURITY;
CREATE POLICY u7_even ON u7 USING (n % 2 = 0);
CREATE ROLE regress_idt_u7;
GRANT SELECT ON u7 TO regress_idt_u7;
SET enable_seqscan = off;
SET ROLE regress_idt_u7;
EXPLAIN (COSTS OFF) SELECT count(*) FROM u7 WHERE id <@ uuidv7_time_range('[2026-01-02 00:00+00, 2026-01-03 00:00+00)');
SELECT count(*) FROM u7 WHERE id <@ uuidv7_time_range('[2026-01-02 00:00+00, 2026-01-03 00:00+00)');
EXPLAIN (COSTS OFF) SELECT count(*) FROM u7 WHERE id ^@ '019b8';
SELECT count(*) FROM u7 WHERE id ^@ '019b8';
RESET ROLE;
RESET enable_seqscan;
ALTER TABLE u7 DISABLE ROW LEVEL SECURITY;

-- Time partitions of a uuid key: bounds from uuidv7_first_at(), pruning at plan time for
-- constants and at executor start for parameters.
CREATE TABLE u7p (id uuid NOT NULL, n int) PARTITION BY RANGE (id);
CREATE TABLE u7p_0101 PARTITION OF u7p FOR VALUES FROM (uuidv7_first_at('2026-01-01 00:00+00')) TO (uuidv7_first_at('2026-01-05 00:00+00'));
CREATE TABLE u7p_0105 PARTITION OF u7p FOR VALUES FROM (uuidv7_first_at('2026-01-05 00:00+00')) TO (uuidv7_first_at('2026-01-09 00:00+00'));
CREATE TABLE u7p_0109 PARTITION OF u7p FOR VALUES FROM (uuidv7_first_at('2026-01-09 00:00+00')) TO (uuidv7_first_at('2026-01-13 00:00+00'));
INSERT INTO u7p SELECT * FROM u7;
SELECT tableoid::regclass AS part, count(*), min(v7_ms(id)) >= 0 AS ok FROM u7p GROUP BY 1 ORDER BY 1;
EXPLAIN (COSTS OFF) SELECT count(*) FROM u7p WHERE id <@ uuidv7_time_range('[2026-01-06 00:00+00, 2026-01-07 00:00+00)');
EXPLAIN (COSTS OFF) SELECT count(*) FROM u7p WHERE id ^@ '019b9';
SET plan_cache_mode = force_generic_plan;
PREPARE pwin(tstzrange) AS SELECT count(*) FROM u7p WHERE id <@ uuidv7_time_range($1);
EXPLAIN (COSTS OFF) EXECUTE pwin('[2026-01-06 00:00+00, 2026-01-07 00:00+00)');
EXECUTE pwin('[2026-01-06 00:00+00, 2026-01-07 00:00+00)');
RESET plan_cache_mode;

-- UUIDv7 <-> ulid: the ms, the ms's fraction (rand_a) and the random bits kept, order kept.
SELECT uuidv7_to_ulid('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS rfc_example,
       ulid_timestamp(uuidv7_to_ulid('017f22e2-79b0-7cc3-98c4-dc0c0c07398f')) AS at,
       ulid_to_uuidv7(uuidv7_to_ulid('017f22e2-79b0-7cc3-98c4-dc0c0c07398f')) AS back;
SELECT count(*) AS n,
       bool_and(ulid_to_uuidv7(uuidv7_to_ulid(id)) = id) AS round_trip,
       bool_and(ulid_timestamp(uuidv7_to_ulid(id)) = timestamptz 'epoch' + v7_ms(id) * interval '1 ms') AS same_ms,
       count(DISTINCT uuidv7_to_ulid(id)) AS distinct_ulids
FROM u7;
SELECT bool_and(a < b) AS order_kept FROM (
	SELECT uuidv7_to_ulid(id) AS a, uuidv7_to_ulid(lead(id) OVER (ORDER BY id)) AS b FROM u7) s
WHERE b IS NOT NULL;
-- A ulid as a UUIDv7 loses its last 6 random bits, nothing else.
SELECT u, ulid_to_uuidv7(u) AS v7, uuidv7_to_ulid(ulid_to_uuidv7(u)) AS back
FROM (VALUES ('01KFQ0WQ8RXCP7F0DJ2G2MPK5Z'::ulid)) v(u);
