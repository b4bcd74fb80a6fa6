-- Generators: properties, never literal values (the clock and the randomness differ every run).
SET TimeZone = 'UTC';

-- Without shared_preload_libraries the monotonic state is per backend before PostgreSQL 17, and
-- shared by the cluster (through the DSM registry) from 17 on.
SELECT idtypes_generator_scope() = CASE WHEN current_setting('server_version_num')::int >= 170000
                                        THEN 'cluster' ELSE 'backend' END AS scope_as_documented;

-- Every monotonic generator: 10,000 calls are distinct and strictly increasing in call order.
CREATE TEMP TABLE mono AS
SELECT n,
	generate_xid() AS xid,
	generate_tid() AS tid,
	generate_tid(42) AS tid42,
	generate_ulidflake() AS flake,
	generate_ulidflake(9) AS flake9,
	generate_ulid_monotonic() AS ulid,
	generate_euid() AS euid,
	generate_euid(1234) AS euid1234
FROM generate_series(1, 10000) AS n;

SELECT count(DISTINCT xid) AS xid, count(DISTINCT tid) AS tid, count(DISTINCT tid42) AS tid42,
	count(DISTINCT flake) AS flake, count(DISTINCT flake9) AS flake9, count(DISTINCT ulid) AS ulid,
	count(DISTINCT euid) AS euid, count(DISTINCT euid1234) AS euid1234
FROM mono;

SELECT bool_and(xid > pxid) AS xid, bool_and(tid > ptid) AS tid, bool_and(tid42 > ptid42) AS tid42,
	bool_and(flake > pflake) AS flake, bool_and(flake9 > pflake9) AS flake9,
	bool_and(ulid > pulid) AS ulid, bool_and(euid > peuid) AS euid,
	bool_and(euid1234 > peuid1234) AS euid1234
FROM (SELECT *,
		lag(xid) OVER w AS pxid, lag(tid) OVER w AS ptid, lag(tid42) OVER w AS ptid42,
		lag(flake) OVER w AS pflake, lag(flake9) OVER w AS pflake9, lag(ulid) OVER w AS pulid,
		lag(euid) OVER w AS peuid, lag(euid1234) OVER w AS peuid1234
	FROM mono WINDOW w AS (ORDER BY n)) s
WHERE n > 1;

-- The fields read back what the generators put in.
SELECT bool_and(timeid_clock_id(tid42) = 42) AS clock_id,
	bool_and(ulidflake_sid(flake9) = 9) AS sid,
	bool_and(euid_extension(euid1234) = 1234) AS extension,
	bool_and(euid_extension(euid) IS NULL) AS no_extension
FROM mono;

-- Times are the wall clock at the call: within a minute of now.
SELECT bool_and(abs(extract(epoch FROM xid_timestamp(xid) - clock_timestamp())) < 60) AS xid,
	bool_and(abs(extract(epoch FROM timeid_timestamp(tid) - clock_timestamp())) < 60) AS tid,
	bool_and(abs(extract(epoch FROM ulidflake_timestamp(flake) - clock_timestamp())) < 60) AS flake,
	bool_and(abs(extract(epoch FROM ulid_timestamp(ulid) - clock_timestamp())) < 60) AS ulid,
	bool_and(abs(extract(epoch FROM euid_timestamp(euid) - clock_timestamp())) < 60) AS euid
FROM mono;

-- To the microsecond: generate_ulid() keeps the millisecond's fraction in 4096ths (0.244 us),
-- and 4,000 of its IDs, made some 10-30 us apart (a count of a hundred rows before each, counted
-- in the result so that it runs), each lie between clock_timestamp() read just before and just
-- after their call, within 2 us. On x86-64 Linux the generators read the system clock at most
-- every millisecond and extrapolate it with the TSC in between (once its rate is measured: 40 ms
-- of generating at least).
SELECT count(pause) AS ulids,
	count(*) FILTER (WHERE us BETWEEN extract(epoch FROM a) * 1e6 - 2
		AND extract(epoch FROM b) * 1e6 + 2) AS at_their_call
FROM (SELECT pause, a, b, ('x' || lpad(substr(h, 1, 12), 16, '0'))::bit(64)::bigint * 1000.0
		+ ('x' || substr(h, 13, 3))::bit(12)::int * 1000.0 / 4096 AS us
	FROM (SELECT (SELECT count(*) FROM generate_series(1, 100 + n % 2)) AS pause,
			clock_timestamp() AS a, replace(generate_ulid()::uuid::text, '-', '') AS h,
			clock_timestamp() AS b
		FROM generate_series(1, 4000) n) s) t;

-- The steps within a millisecond, as DESIGN.md states them: generate_ulid_monotonic() is the
-- previous ID + 1 (its 80 random bits as one number); generate_euid() keeps the high 64 bits and
-- adds 1 to the next 32 (the high random bits), while the low 32 are drawn fresh, so they increase
-- about half the time. A millisecond of these has 2^80 (2^32 minus a random start) steps; their
-- overflow is reached with idtypes.test_counter_bits in sql/overflow128. Enough same-ms pairs to
-- mean something: the 10,000 rows above take a few ms.
-- u(b): b (at most 12 bytes) as an unsigned big-endian number, from three 32-bit words (one
-- expression, which the planner inlines: a sum over the bytes was 4 s of this file under qemu).
CREATE FUNCTION pg_temp.u(b bytea) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
	SELECT ('x' || substr(lpad(encode(b, 'hex'), 24, '0'), 1, 8))::bit(32)::bigint::numeric * 18446744073709551616
		+ ('x' || substr(lpad(encode(b, 'hex'), 24, '0'), 9, 8))::bit(32)::bigint::numeric * 4294967296
		+ ('x' || substr(lpad(encode(b, 'hex'), 24, '0'), 17, 8))::bit(32)::bigint $$;
SELECT count(*) > 1000 AS enough_pairs,
	bool_and(pg_temp.u(substring(ulid::bytea FROM 7)) = pg_temp.u(substring(pulid::bytea FROM 7)) + 1)
		AS ulid_plus_one
FROM (SELECT n, ulid, lag(ulid) OVER (ORDER BY n) AS pulid FROM mono) s
WHERE ulid_timestamp(ulid) = ulid_timestamp(pulid);
SELECT ext, count(*) > 1000 AS enough_pairs,
	bool_and(substring(e::bytea FOR 8) = substring(p::bytea FOR 8)) AS high_64_kept,
	bool_and(pg_temp.u(substring(e::bytea FROM 9 FOR 4)) = pg_temp.u(substring(p::bytea FROM 9 FOR 4)) + 1)
		AS next_32_plus_one,
	avg((substring(e::bytea FROM 13) > substring(p::bytea FROM 13))::int) BETWEEN 0.35 AND 0.65
		AS low_32_fresh
FROM (SELECT 'none' AS ext, euid AS e, lag(euid) OVER (ORDER BY n) AS p FROM mono
	UNION ALL
	SELECT '1234', euid1234, lag(euid1234) OVER (ORDER BY n) FROM mono) s
WHERE euid_timestamp(e) = euid_timestamp(p)
GROUP BY ext ORDER BY ext;

-- The generators without monotonic state: generate_uid11() is 64 random bits; generate_ulid()
-- is the ms, its fraction in 4096ths and 68 fresh random bits, so one session's ULIDs increase.
-- 20,000 of each, in call order (n: the rows are made, and the functions called, in
-- generate_series' order; the TIDs made in the same rows show it, as they increase with every
-- call). 5,000 where IDTYPES_REGRESS_SMALL is set (the lanes under qemu-user): the bounds below
-- are still many standard deviations wide, and the checks that must fail still fail.
\getenv regress_small IDTYPES_REGRESS_SMALL
\if :{?regress_small}
\set fresh_rows 5000
\set long_rows 10000
\else
\set fresh_rows 20000
\set long_rows 50000
\endif
CREATE TEMP TABLE fresh AS
SELECT n, generate_uid11() AS u, generate_ulid() AS l, generate_tid() AS t
FROM generate_series(1, :fresh_rows) AS n;
SELECT count(DISTINCT u) = :fresh_rows AS distinct_uid11, count(DISTINCT l) = :fresh_rows AS distinct_ulid,
	bool_and(abs(extract(epoch FROM ulid_timestamp(l) - clock_timestamp())) < 60) AS ulid_now
FROM fresh;
SELECT bool_and(t > pt) AS in_call_order, bool_and(l > pl) AS ulid_increasing
FROM (SELECT n, t, lag(t) OVER (ORDER BY n) AS pt, l, lag(l) OVER (ORDER BY n) AS pl FROM fresh) s
WHERE n > 1;
-- The share of values with each of the 64 bits set (bit 63, the sign of the bigint, too): about
-- half. For 20,000 random values a share's standard deviation is 0.35 %, so 45 % to 55 % is
-- +-14 of them (5,000: 0.71 %, +-7): this fails only for a bit that is not random (fixed, or much
-- biased).
CREATE FUNCTION pg_temp.bit_shares(v bigint[]) RETURNS TABLE (lowest float8, highest float8)
LANGUAGE sql AS $$
	SELECT min(share), max(share) FROM (
		SELECT b, avg(((x >> b) & 1)::float8) AS share
		FROM unnest(v) AS x, generate_series(0, 63) AS b GROUP BY b) s $$;
SELECT lowest >= 0.45 AND highest <= 0.55 AS uid11_bits_balanced
FROM pg_temp.bit_shares((SELECT array_agg(u::bigint) FROM fresh));
-- ...which generate_xid(), with its time in the top bits, is not (the check can fail).
SELECT lowest >= 0.45 AND highest <= 0.55 AS xid_bits_balanced
FROM pg_temp.bit_shares((SELECT array_agg(generate_xid()::bigint) FROM generate_series(1, :fresh_rows)));
-- A ULID's low 64 bits (of its 68 random ones), as a bigint.
CREATE FUNCTION pg_temp.low64(l ulid) RETURNS bigint LANGUAGE sql AS $$
	SELECT ('x' || right(replace(l::uuid::text, '-', ''), 16))::bit(64)::bigint $$;
SELECT lowest >= 0.45 AND highest <= 0.55 AS ulid_random_bits_balanced
FROM pg_temp.bit_shares((SELECT array_agg(pg_temp.low64(l)) FROM fresh));
-- Fresh, not a counter: of two consecutive ULIDs, the second's low 64 bits are the larger about
-- half the time, as two fresh random numbers are. Ascents in a random sequence of n have a
-- standard deviation of sqrt(n / 12), 0.2 % of 20,000 (0.4 % of 5,000): 35 % to 65 % fails only
-- for bits that are not fresh, such as generate_ulid_monotonic()'s last ID + 1.
CREATE FUNCTION pg_temp.low_ascents(v ulid[]) RETURNS float8
LANGUAGE sql AS $$
	SELECT avg((pg_temp.low64(l) > pg_temp.low64(p))::int)
	FROM (SELECT l, lag(l) OVER (ORDER BY i) AS p FROM unnest(v) WITH ORDINALITY AS a(l, i)) s
	WHERE p IS NOT NULL $$;
SELECT pg_temp.low_ascents((SELECT array_agg(l ORDER BY n) FROM fresh)) BETWEEN 0.35 AND 0.65
	AS ulid_fresh;
-- ...which generate_ulid_monotonic(), the last ID + 1 within a millisecond, is not (the check
-- can fail).
SELECT pg_temp.low_ascents((SELECT array_agg(generate_ulid_monotonic() ORDER BY n)
	FROM generate_series(1, :fresh_rows) AS n)) BETWEEN 0.35 AND 0.65 AS ulid_monotonic_fresh;
-- The first ID of each millisecond: generate_ulid_monotonic() and generate_euid() draw the random
-- bits that start a millisecond only when an ID starts one (within one, the ULID is the last + 1
-- and the EUID takes 32 fresh bits), and those are fresh: 200 of each, 2 ms apart, their ULIDs'
-- low 64 bits ascending about half the time and their EUIDs' 15 random bits of the first word (no
-- extension) distinct but for a collision or two.
CREATE FUNCTION pg_temp.ms_firsts(rows int) RETURNS TABLE (i int, m ulid, e euid)
LANGUAGE plpgsql AS $$
BEGIN
	FOR k IN 1 .. rows LOOP
		PERFORM pg_sleep(0.002);
		i := k;
		m := generate_ulid_monotonic();
		e := generate_euid();
		RETURN NEXT;
	END LOOP;
END $$;
CREATE TEMP TABLE ms_firsts AS SELECT * FROM pg_temp.ms_firsts(200);
SELECT count(DISTINCT ulid_timestamp(m)) = 200 AND count(DISTINCT euid_timestamp(e)) = 200 AS each_a_new_ms,
	pg_temp.low_ascents(array_agg(m ORDER BY i)) BETWEEN 0.35 AND 0.65 AS ulid_monotonic_firsts_fresh,
	count(DISTINCT ((get_byte(e::bytea, 5) * 65536 + get_byte(e::bytea, 6) * 256
		+ get_byte(e::bytea, 7)) >> 4) & 32767) > 150 AS euid_firsts_fresh
FROM ms_firsts;

-- Time is the wall clock at the call, not the transaction's start: in one transaction, two IDs
-- of each kind 50 ms apart are at least 40 ms apart (their unit is the ms; TID's the µs).
BEGIN;
CREATE TEMP TABLE wall1 AS
SELECT generate_xid() AS x, generate_tid() AS t, generate_ulidflake() AS f, generate_ulid() AS l,
	generate_ulid_monotonic() AS m, generate_euid() AS e;
SELECT pg_sleep(0.05);
CREATE TEMP TABLE wall2 AS
SELECT generate_xid() AS x, generate_tid() AS t, generate_ulidflake() AS f, generate_ulid() AS l,
	generate_ulid_monotonic() AS m, generate_euid() AS e;
SELECT xid_timestamp(b.x) - xid_timestamp(a.x) >= interval '40 ms' AS xid,
	timeid_timestamp(b.t) - timeid_timestamp(a.t) >= interval '40 ms' AS tid,
	ulidflake_timestamp(b.f) - ulidflake_timestamp(a.f) >= interval '40 ms' AS ulidflake,
	ulid_timestamp(b.l) - ulid_timestamp(a.l) >= interval '40 ms' AS ulid,
	ulid_timestamp(b.m) - ulid_timestamp(a.m) >= interval '40 ms' AS ulid_monotonic,
	euid_timestamp(b.e) - euid_timestamp(a.e) >= interval '40 ms' AS euid
FROM wall1 a, wall2 b;
COMMIT;

-- The GUC clock id, and an argument winning over it.
SET idtypes.tid_clock_id = 7;
SELECT timeid_clock_id(generate_tid()) AS from_guc, timeid_clock_id(generate_tid(3)) AS from_arg;
RESET idtypes.tid_clock_id;
SET idtypes.tid_clock_id = 1024;

-- generate_tid_at() is deterministic: a TID has no random bits, so the same time and clock id
-- give the same TID (a backfill from repeated times must vary the clock id); the other _at
-- variants draw fresh random bits at every call (the wide ones checked here: 80 and 64 bits).
SELECT count(DISTINCT generate_tid_at('2024-07-19 16:40:46.480310+00', 5)) AS tid_at_same,
	count(DISTINCT generate_tid_at('2024-07-19 16:40:46.480310+00', n % 1024)) AS tid_at_clock_ids,
	count(DISTINCT generate_ulid_at('2024-07-19 16:40:46.480310+00')) AS ulid_at,
	count(DISTINCT generate_euid_at('2024-07-19 16:40:46.480310+00')) AS euid_at
FROM generate_series(1, 1000) n;

-- And so it is declared (from 1.2 on): IMMUTABLE with the clock id given, so that it can be an
-- index expression and a constant the planner folds; STABLE with the default clock id (the
-- setting or the session's slot: fixed within a statement), so that a condition on it and now()
-- is an index condition. 1.0 and 1.1 declared both VOLATILE, like the other generators.
SELECT p.oid::regprocedure AS function, p.provolatile AS volatility, p.proparallel AS parallel
FROM pg_proc p WHERE p.proname IN ('generate_tid_at', 'generate_timeid_at', 'generate_ulid_at')
ORDER BY p.proname, p.pronargs;
CREATE TABLE tid_at_ix (ts timestamptz, id timeid);
CREATE INDEX tid_at_ix_expr ON tid_at_ix (generate_tid_at(ts, 3));
CREATE INDEX tid_at_ix_id ON tid_at_ix (id);
INSERT INTO tid_at_ix SELECT ts, generate_tid_at(ts)
FROM generate_series(timestamptz '2026-01-01 00:00+00', '2026-01-08 00:00+00', interval '1 minute') ts;
ANALYZE tid_at_ix;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(ts) FROM tid_at_ix
WHERE generate_tid_at(ts, 3) >= generate_tid_at('2026-01-07 12:00+00', 3);
EXPLAIN (COSTS OFF) SELECT count(ts) FROM tid_at_ix
WHERE id >= generate_tid_at(now() - interval '1 hour');
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) AS last_half_day FROM tid_at_ix
WHERE generate_tid_at(ts, 3) >= generate_tid_at('2026-01-07 12:00+00', 3);
DROP TABLE tid_at_ix;

-- The _at variants carry the given time, at the format's unit.
SELECT xid_timestamp(generate_xid_at('2024-07-19 16:40:46.480310+00')) AS xid,
	timeid_timestamp(generate_tid_at('2024-07-19 16:40:46.480310+00')) AS tid,
	timeid_dashed(generate_tid_at('2024-07-19 16:40:46.480310+00', 1)) AS tid_dashed,
	ulidflake_timestamp(generate_ulidflake_at('2024-07-19 16:40:46.480310+00')) AS flake,
	ulidflake_sid(generate_ulidflake_at('2024-07-19 16:40:46.480310+00', 31)) AS sid,
	ulid_timestamp(generate_ulid_at('2024-07-19 16:40:46.480310+00')) AS ulid,
	euid_timestamp(generate_euid_at('2024-07-19 16:40:46.480310+00')) AS euid,
	euid_extension(generate_euid_at('2024-07-19 16:40:46.480310+00', 32767)) AS ext;

-- The eras' edges.
SELECT xid_timestamp(generate_xid_at('2011-11-11 11:11:11.111+00')) AS xid_first,
	xid_timestamp(generate_xid_at('2151-03-25 18:46:22.214+00')) AS xid_last,
	ulidflake_timestamp(generate_ulidflake_at('2024-01-01 00:00:00+00')) AS flake_first,
	timeid_timestamp(generate_tid_at('1970-01-01 00:00:00+00')) AS tid_first;

-- Arguments out of range: 22023 for clock id, sid and extension; 22008 for times.
\set VERBOSITY terse
SELECT generate_tid(-1);
SELECT generate_tid(1024);
SELECT generate_tid_at(now(), 1024);
SELECT generate_ulidflake(32);
SELECT generate_ulidflake_at(now(), -1);
SELECT generate_euid(32768);
SELECT generate_euid(-1);
SELECT generate_euid_at(now(), 32768);
SELECT generate_xid_at('2011-11-11 11:11:11.110+00');
SELECT generate_xid_at('2151-03-25 18:46:22.215+00');
SELECT generate_ulidflake_at('2023-12-31 23:59:59.999+00');
SELECT generate_tid_at('1969-12-31 23:59:59.999999+00');
SELECT generate_tid_at('2300-01-01');
SELECT generate_ulid_at('infinity');
SELECT generate_euid_at('-infinity');
SELECT generate_euid_at('3085-01-01');
\set VERBOSITY default
DO $$
BEGIN
	PERFORM generate_euid(40000);
EXCEPTION WHEN others THEN
	RAISE NOTICE 'SQLSTATE %', SQLSTATE;
END
$$;
DO $$
BEGIN
	PERFORM generate_ulid_at('infinity');
EXCEPTION WHEN others THEN
	RAISE NOTICE 'SQLSTATE %', SQLSTATE;
END
$$;

-- NULL arguments give NULL (the functions are STRICT).
SELECT generate_tid(NULL) IS NULL AS tid, generate_euid_at(NULL) IS NULL AS euid_at;

-- Column defaults.
CREATE TEMP TABLE items (id uid11 PRIMARY KEY DEFAULT generate_xid(), note text);
INSERT INTO items (note) SELECT 'n' || g FROM generate_series(1, 100) g;
SELECT count(*), count(DISTINCT id) FROM items;

-- Overflow: 'error' reports an exhausted millisecond (the specs' behaviour) as 54000; 'wait'
-- sleeps to the next millisecond. idtypes.test_counter_bits (for tests only) leaves the xid and
-- ulidflake counters 2 bits, 4 IDs a millisecond, so a loop of 1,000 overflows on every server,
-- with the state per backend or cluster-wide.
SET idtypes.test_counter_bits = 2;
SET idtypes.on_overflow = 'error';
CREATE TEMP TABLE ovf (gen text, overflowed bool, message text, other_error text);
DO $$
DECLARE
	g text;
	o bool;
	m text;
	e text;
BEGIN
	FOREACH g IN ARRAY ARRAY['generate_xid()', 'generate_ulidflake()', 'generate_ulidflake(0)'] LOOP
		o := false; m := NULL; e := NULL;
		BEGIN
			EXECUTE format('SELECT count(*) FROM (SELECT %s FROM generate_series(1, 1000)) s', g);
		EXCEPTION
			WHEN program_limit_exceeded THEN o := true; m := SQLERRM;
			WHEN OTHERS THEN e := SQLSTATE || ': ' || SQLERRM;
		END;
		INSERT INTO ovf VALUES (g, o, m, e);
	END LOOP;
END
$$;
SELECT gen, other_error, overflowed, message FROM ovf ORDER BY gen;
-- 'wait': the same loops give distinct, increasing IDs, with the counter overflowing all along.
SET idtypes.on_overflow = 'wait';
SELECT count(DISTINCT x) AS distinct_xid, bool_and(x > px) AS xid_increasing,
       count(DISTINCT f) AS distinct_ulidflake, bool_and(f > pf) AS ulidflake_increasing
FROM (SELECT x, f, lag(x) OVER (ORDER BY n) AS px, lag(f) OVER (ORDER BY n) AS pf
	FROM (SELECT n, generate_xid() AS x, generate_ulidflake(0) AS f FROM generate_series(1, 1000) n) a) b;
-- 'wait' really waits: each ID is made in the ms it carries, never ahead of the clock (an
-- overflow that moved on to the next ms instead of waiting for it would be), clock_timestamp()
-- being read right after each ID; and no ms holds more than 4 IDs of a kind. The bound: with the
-- knob at 2, shrink_for_tests() leaves the counter min(2, its bits beside node id and backend
-- slot) bits, the fixed bits above it being the same for every ID of this session (its slot, the
-- sid), so a ms has at most 2^2 = 4 distinct IDs; a new ms starts the counter at
-- random & (3 >> 3) = 0 and each step adds 1, so 4 do fit, and some ms reaches them. (The two
-- ulidflake variants share one state, so each has a statement of its own: with the knob, their
-- layouts tell each other's last ID apart from their own.)
CREATE TEMP TABLE waited AS
SELECT n, generate_xid() AS x, clock_timestamp() AS x_after,
	generate_ulidflake() AS f, clock_timestamp() AS f_after
FROM generate_series(1, 200) AS n;
CREATE TEMP TABLE waited_sid AS
SELECT n, generate_ulidflake(7) AS f, clock_timestamp() AS f_after FROM generate_series(1, 200) AS n;
SELECT kind, bool_and(t <= after) AS never_ahead, max(per_ms) <= 4 AS at_most_4_a_ms,
	max(per_ms) = 4 AS counter_filled
FROM (SELECT kind, t, after, count(*) OVER (PARTITION BY kind, t) AS per_ms FROM (
		SELECT 'xid' AS kind, xid_timestamp(x) AS t, x_after AS after FROM waited
		UNION ALL SELECT 'ulidflake', ulidflake_timestamp(f), f_after FROM waited
		UNION ALL SELECT 'ulidflake(7)', ulidflake_timestamp(f), f_after FROM waited_sid) a) b
GROUP BY kind ORDER BY kind;
RESET idtypes.test_counter_bits;
-- Without the knob a millisecond holds thousands of IDs (per backend, 13-16 without preload,
-- the scalable ulidflake about 240): a long loop with 'wait' stays distinct and increasing
-- (50,000 IDs; 10,000 where IDTYPES_REGRESS_SMALL is set, still dozens of full milliseconds).
SELECT count(DISTINCT f) = :long_rows AS all_distinct, bool_and(f > p) AS increasing
FROM (SELECT f, lag(f) OVER (ORDER BY n) AS p
	FROM (SELECT n, generate_ulidflake(0) AS f FROM generate_series(1, :long_rows) n) a) b;
-- The knob is a superuser's, and shown by no listing of settings.
SELECT count(*) AS listed FROM pg_settings WHERE name = 'idtypes.test_counter_bits';
CREATE ROLE regress_idtypes_knob;
SET ROLE regress_idtypes_knob;
SET idtypes.test_counter_bits = 2;
RESET ROLE;
DROP ROLE regress_idtypes_knob;
SET idtypes.on_overflow = 'sometimes';
RESET idtypes.on_overflow;
SHOW idtypes.on_overflow;

