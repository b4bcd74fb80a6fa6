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

-- The stateless generators: distinct, current, and ulid's fresh randomness is not monotonic
-- (1000 fresh ULIDs in call order are essentially never all increasing).
SELECT count(DISTINCT u) = 1000 AS distinct_uid11, count(DISTINCT l) = 1000 AS distinct_ulid,
	bool_and(abs(extract(epoch FROM ulid_timestamp(l) - clock_timestamp())) < 60) AS ulid_now
FROM (SELECT generate_uid11() AS u, generate_ulid() AS l FROM generate_series(1, 1000)) s;

-- The GUC clock id, and an argument winning over it.
SET idtypes.tid_clock_id = 7;
SELECT timeid_clock_id(generate_tid()) AS from_guc, timeid_clock_id(generate_tid(3)) AS from_arg;
RESET idtypes.tid_clock_id;
SET idtypes.tid_clock_id = 1024;

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
-- spins to the next millisecond. idtypes.test_counter_bits (for tests only) leaves the xid and
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
RESET idtypes.test_counter_bits;
-- Without the knob a millisecond holds thousands of IDs (per backend, 13-16 without preload,
-- the scalable ulidflake about 240): a long loop with 'wait' stays distinct and increasing.
SELECT count(DISTINCT f) AS distinct_ids, bool_and(f > p) AS increasing
FROM (SELECT f, lag(f) OVER (ORDER BY n) AS p
	FROM (SELECT n, generate_ulidflake(0) AS f FROM generate_series(1, 50000) n) a) b;
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
