-- in_range: window frames RANGE BETWEEN <interval> PRECEDING/FOLLOWING over an ID column count
-- by the IDs' time, exactly as the same frames over the times as timestamptz (btree support
-- function 3, in_range(<type>, <type>, interval, bool, bool)).
\set VERBOSITY terse
SET TimeZone = 'UTC';

-- The functions are in the btree families, STABLE like core's timestamptz in_range (calendar
-- steps follow TimeZone) and not leakproof (a negative offset raises); the families validate.
SELECT p.oid::regprocedure AS function, p.provolatile, p.proleakproof, p.proisstrict, p.proparallel
FROM pg_amproc a JOIN pg_opfamily f ON f.oid = a.amprocfamily JOIN pg_proc p ON p.oid = a.amproc
WHERE f.opfmethod = (SELECT oid FROM pg_am WHERE amname = 'btree') AND a.amprocnum = 3
  AND f.opfname IN ('uid11_ops', 'timeid_ops', 'ulidflake_ops', 'ulid_ops', 'euid_ops')
ORDER BY 1::text;
SELECT opc.opcname, amvalidate(opc.oid) AS valid
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
WHERE am.amname = 'btree' AND opc.opcname IN ('uid11_ops', 'timeid_ops', 'ulidflake_ops', 'ulid_ops', 'euid_ops')
ORDER BY 1;

-- 40 distinct times, millisecond-exact (so every format holds each time exactly), dense at
-- first and sparser later, with one ID of each type made at each; the random bits differ from
-- run to run, the times and so the counts do not.
CREATE TABLE in_range_ids AS
SELECT i, ts, generate_xid_at(ts) AS a, generate_tid_at(ts) AS b, generate_ulidflake_at(ts) AS c,
       generate_ulid_at(ts) AS d, generate_euid_at(ts) AS e
FROM (SELECT i, timestamptz '2025-03-01 00:00:00+00' + (i * i) * interval '1 minute 0.117 s' AS ts
      FROM generate_series(1, 40) i) s;

-- For one ID column and its time accessor: the counts of three frames in the IDs' order (back:
-- 1 hour PRECEDING to CURRENT ROW; fwd: CURRENT ROW to 1 hour FOLLOWING; desc: in descending
-- order, 1 hour PRECEDING to 30 minutes FOLLOWING), and how many rows count differently when the
-- same frames run over the times as timestamptz.
CREATE FUNCTION in_range_counts(col text, time_of text, OUT back text, OUT fwd text, OUT "desc" text, OUT differ bigint)
LANGUAGE plpgsql AS $$
DECLARE
	frames constant text := '
		count(*) OVER (ORDER BY %1$s RANGE BETWEEN interval ''1 hour'' PRECEDING AND CURRENT ROW) AS back,
		count(*) OVER (ORDER BY %1$s RANGE BETWEEN CURRENT ROW AND interval ''1 hour'' FOLLOWING) AS fwd,
		count(*) OVER (ORDER BY %1$s DESC RANGE BETWEEN interval ''1 hour'' PRECEDING AND interval ''30 minutes'' FOLLOWING) AS dsc';
	by_id constant text := format('SELECT i, ' || frames || ' FROM in_range_ids', col);
	by_time constant text := format('SELECT i, ' || frames || ' FROM in_range_ids', format('%s(%s)', time_of, col));
BEGIN
	EXECUTE format('SELECT string_agg(back::text, %2$L ORDER BY i), string_agg(fwd::text, %2$L ORDER BY i),
	                       string_agg(dsc::text, %2$L ORDER BY i) FROM (%1$s) s', by_id, ',')
		INTO back, fwd, "desc";
	EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT (%s)) d', by_id, by_time) INTO differ;
END
$$;

SELECT t AS type, r.* FROM (VALUES ('uid11', 'a', 'xid_timestamp'), ('timeid', 'b', 'timeid_timestamp'),
	('ulidflake', 'c', 'ulidflake_timestamp'), ('ulid', 'd', 'ulid_timestamp'), ('euid', 'e', 'euid_timestamp')) v(t, col, time_of),
	in_range_counts(col, time_of) r;

-- The rows themselves, for one type: i, time and the three counts, by ID and by time alike.
SELECT i, ts,
       count(*) OVER (ORDER BY d RANGE BETWEEN interval '1 hour' PRECEDING AND CURRENT ROW) AS back,
       count(*) OVER (ORDER BY ts RANGE BETWEEN interval '1 hour' PRECEDING AND CURRENT ROW) AS back_ts,
       count(*) OVER (ORDER BY d RANGE BETWEEN CURRENT ROW AND interval '1 hour' FOLLOWING) AS fwd,
       count(*) OVER (ORDER BY ts RANGE BETWEEN CURRENT ROW AND interval '1 hour' FOLLOWING) AS fwd_ts
FROM in_range_ids WHERE i BETWEEN 1 AND 12 ORDER BY i;

-- The frame compares the times at the format's unit: 1 hour and 1 microsecond after a time is
-- outside its hour for timeid (microseconds), inside it for ulid (the time truncated to the ms).
WITH t(ts) AS (VALUES (timestamptz '2025-03-01 12:00:00+00'), (timestamptz '2025-03-01 13:00:00.000001+00'))
SELECT 'timeid' AS type, max(n) AS count FROM (SELECT count(*) OVER (ORDER BY generate_tid_at(ts) RANGE BETWEEN interval '1 hour' PRECEDING AND CURRENT ROW) AS n FROM t) s
UNION ALL
SELECT 'ulid', max(n) FROM (SELECT count(*) OVER (ORDER BY generate_ulid_at(ts) RANGE BETWEEN interval '1 hour' PRECEDING AND CURRENT ROW) AS n FROM t) s;

-- A month is a calendar month (from March 31 back to February 28), not 30 days, as for timestamptz.
CREATE TABLE in_range_months AS
SELECT ts, generate_xid_at(ts) AS a, generate_tid_at(ts) AS b, generate_ulidflake_at(ts) AS c,
       generate_ulid_at(ts) AS d, generate_euid_at(ts) AS e
FROM unnest(ARRAY[timestamptz '2025-01-31 00:00+00', '2025-02-28 00:00+00', '2025-03-01 00:00+00', '2025-03-31 00:00+00']) ts;
SELECT ts,
       count(*) OVER (ORDER BY ts RANGE BETWEEN interval '1 month' PRECEDING AND CURRENT ROW) AS month_ts,
       count(*) OVER (ORDER BY a RANGE BETWEEN interval '1 month' PRECEDING AND CURRENT ROW) AS uid11,
       count(*) OVER (ORDER BY b RANGE BETWEEN interval '1 month' PRECEDING AND CURRENT ROW) AS timeid,
       count(*) OVER (ORDER BY c RANGE BETWEEN interval '1 month' PRECEDING AND CURRENT ROW) AS ulidflake,
       count(*) OVER (ORDER BY d RANGE BETWEEN interval '1 month' PRECEDING AND CURRENT ROW) AS ulid,
       count(*) OVER (ORDER BY e RANGE BETWEEN interval '1 month' PRECEDING AND CURRENT ROW) AS euid,
       count(*) OVER (ORDER BY d RANGE BETWEEN interval '30 days' PRECEDING AND CURRENT ROW) AS ulid_30_days
FROM in_range_months ORDER BY ts;

-- Called directly, in_range(val, base, offset, sub, less) compares the times: val <= base + offset
-- (base - offset when sub), or >= when not less.
SELECT in_range(d2, d1, interval '1 hour', false, true) AS within_hour_after,
       in_range(d2, d1, interval '59 minutes', false, true) AS within_59_minutes_after,
       in_range(d1, d2, interval '1 hour', true, false) AS at_most_hour_before
FROM (SELECT generate_ulid_at('2025-03-01 12:00+00') AS d1, generate_ulid_at('2025-03-01 13:00+00') AS d2) s;

-- A negative offset is core's error (22013), for every type; an offset that is not an interval
-- has no in_range.
SELECT count(*) OVER (ORDER BY a RANGE BETWEEN interval '-1 hour' PRECEDING AND CURRENT ROW) FROM in_range_ids;
SELECT count(*) OVER (ORDER BY b RANGE BETWEEN CURRENT ROW AND interval '-1 second' FOLLOWING) FROM in_range_ids;
SELECT count(*) OVER (ORDER BY c DESC RANGE BETWEEN interval '-1 day' PRECEDING AND CURRENT ROW) FROM in_range_ids;
SELECT count(*) OVER (ORDER BY d RANGE BETWEEN interval '-1 month' PRECEDING AND CURRENT ROW) FROM in_range_ids;
\set VERBOSITY sqlstate
SELECT count(*) OVER (ORDER BY e RANGE BETWEEN interval '-1 ms' PRECEDING AND CURRENT ROW) FROM in_range_ids;
\set VERBOSITY terse
SELECT count(*) OVER (ORDER BY e RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM in_range_ids;

DROP FUNCTION in_range_counts(text, text);
DROP TABLE in_range_ids, in_range_months;
RESET TimeZone;
