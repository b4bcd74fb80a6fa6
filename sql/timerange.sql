-- timerange: <type>_time_range(tstzrange), every ID whose time lies in the window.
--
-- Bound inclusivity is honoured at the format's unit (ms; microseconds for timeid; uid11 reads
-- the xid profile), infinite bounds are the era's limits, an empty window or one outside the era
-- gives an empty range, and the result is closed: the lowest ID of the first unit to the highest
-- of the last.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';

-- One window per row, every type per column group: the range and the times of its two ends.
CREATE TEMP TABLE tr_windows (label text, w tstzrange);
INSERT INTO tr_windows VALUES
	('one ms [.480,.481)', '[2024-07-19 16:40:46.480,2024-07-19 16:40:46.481)'),
	('one ms (.480,.481]', '(2024-07-19 16:40:46.480,2024-07-19 16:40:46.481]'),
	('open (.480,.481)', '(2024-07-19 16:40:46.480,2024-07-19 16:40:46.481)'),
	('sub-ms [.4805,.4815]', '[2024-07-19 16:40:46.4805,2024-07-19 16:40:46.4815]'),
	('instant [.480310]', '[2024-07-19 16:40:46.480310,2024-07-19 16:40:46.480310]'),
	('one us (.48031,.480312)', '(2024-07-19 16:40:46.48031,2024-07-19 16:40:46.480312)'),
	('empty', 'empty'),
	('unbounded', '(,)'),
	('-infinity..infinity', '[-infinity,infinity]'),
	('PostgreSQL''s extremes', '[4714-11-24 00:00:00+00 BC,294276-12-31 23:59:59.999999+00]'),
	('from the last PG instant', '[294276-12-31 23:59:59.999999+00,)');

SELECT label, r, xid_timestamp(lower(r)) AS first_time, xid_random(lower(r)) AS first_random,
       xid_timestamp(upper(r)) AS last_time, xid_random(upper(r)) AS last_random
FROM tr_windows, LATERAL uid11_time_range(w) r ORDER BY label;

SELECT label, r, timeid_timestamp(lower(r)) AS first_time, timeid_timestamp(upper(r)) AS last_time
FROM tr_windows, LATERAL timeid_time_range(w) r ORDER BY label;

SELECT label, r, ulidflake_timestamp(lower(r)) AS first_time,
       ulidflake_timestamp(upper(r)) AS last_time
FROM tr_windows, LATERAL ulidflake_time_range(w) r ORDER BY label;

SELECT label, r, ulid_timestamp(lower(r)) AS first_time, ulid_timestamp(upper(r)) AS last_time
FROM tr_windows, LATERAL ulid_time_range(w) r ORDER BY label;

SELECT label, r, euid_timestamp(lower(r)) AS first_time, euid_timestamp(upper(r)) AS last_time,
       euid_extension(lower(r)) AS first_ext, euid_extension(upper(r)) AS last_ext
FROM tr_windows, LATERAL euid_time_range(w) r ORDER BY label;

-- ---- the eras' edges ----------------------------------------------------------------------------

-- uid11 (xid): 2011-11-11T11:11:11.111Z .. 2151-03-25T18:46:22.214Z (42-bit ms)
SELECT uid11_time_range('[2000-01-01,2011-11-11 11:11:11.111)') AS before_epoch,
       uid11_time_range('[2000-01-01,2011-11-11 11:11:11.111]') AS epoch_ms,
       uid11_time_range('[2151-03-25 18:46:22.214,)') AS last_ms,
       uid11_time_range('(2151-03-25 18:46:22.214,)') AS after_last;

-- timeid: 1970-01-01 .. 2^53-1 us = 2255-06-05T23:47:34.740991Z (no pre-1970 TIDs)
SELECT timeid_time_range('(,1970-01-01)') AS before_1970,
       timeid_time_range('(,1970-01-01]') AS first_us,
       timeid_time_range('[2255-06-05 23:47:34.740991,)') AS last_us,
       timeid_time_range('(2255-06-05 23:47:34.740991,)') AS after_last;

-- ulidflake: 2024-01-01 .. + 2^43-1 ms
SELECT ulidflake_time_range('[2023-01-01,2024-01-01)') AS before_epoch,
       ulidflake_time_range('[2023-01-01,2024-01-01]') AS epoch_ms,
       ulidflake_timestamp(upper(ulidflake_time_range('(,)'))) AS last_time,
       ulidflake_time_range(tstzrange('2024-01-01'::timestamptz + (2 ^ 43 - 1) * interval '1 ms',
                                      NULL)) AS last_ms,
       ulidflake_time_range(tstzrange('2024-01-01'::timestamptz + (2 ^ 43 - 1) * interval '1 ms',
                                      NULL, '()')) AS after_last;

-- ulid: 1970 .. 2^48-1 ms; euid: 1970 .. 2^45-1 ms
SELECT ulid_timestamp(upper(ulid_time_range('(,)'))) AS ulid_last,
       ulid_time_range('(10889-08-02 05:31:50.655,)') AS after_ulid,
       euid_timestamp(upper(euid_time_range('(,)'))) AS euid_last,
       euid_time_range('(3084-12-12 12:41:28.831,)') AS after_euid,
       ulid_time_range('(,1970-01-01)') AS before_1970;

-- Unbounded, infinite and PostgreSQL's extreme bounds all mean the whole era.
SELECT bool_and(uid11_time_range(w) = uid11_time_range('(,)')) AS uid11,
       bool_and(timeid_time_range(w) = timeid_time_range('(,)')) AS timeid,
       bool_and(ulidflake_time_range(w) = ulidflake_time_range('(,)')) AS ulidflake,
       bool_and(ulid_time_range(w) = ulid_time_range('(,)')) AS ulid,
       bool_and(euid_time_range(w) = euid_time_range('(,)')) AS euid
FROM (VALUES ('[-infinity,infinity]'::tstzrange), ('(-infinity,infinity)'),
             ('[4714-11-24 00:00:00+00 BC,294276-12-31 23:59:59.999999+00]'),
             ('(,294276-12-31 23:59:59.999999+00)'), ('[-infinity,)')) v(w);

-- ---- every ID lies in the window of its own time, and not just outside it -----------------------

CREATE TEMP TABLE tr_ids AS
SELECT ('x' || left(md5(i::text), 16))::bit(64)::bigint AS b, decode(md5(i::text), 'hex') AS h
FROM generate_series(1, 2000) i;

SELECT 'uid11' AS type,
       count(*) FILTER (WHERE id <@ uid11_time_range(tstzrange(t, t, '[]'))) AS at_its_time,
       count(*) FILTER (WHERE id <@ uid11_time_range(tstzrange(t, t + '1 ms', '[)'))) AS in_its_ms,
       count(*) FILTER (WHERE id <@ uid11_time_range(tstzrange(t, NULL, '()'))) AS after_it,
       count(*) FILTER (WHERE id <@ uid11_time_range(tstzrange(NULL, t, '()'))) AS before_it
FROM (SELECT b::uid11 AS id, xid_timestamp(b::uid11) AS t FROM tr_ids) s
UNION ALL
SELECT 'timeid',
       count(*) FILTER (WHERE id <@ timeid_time_range(tstzrange(t, t, '[]'))),
       count(*) FILTER (WHERE id <@ timeid_time_range(tstzrange(t, t + '1 us', '[)'))),
       count(*) FILTER (WHERE id <@ timeid_time_range(tstzrange(t, NULL, '()'))),
       count(*) FILTER (WHERE id <@ timeid_time_range(tstzrange(NULL, t, '()')))
FROM (SELECT (b & 9223372036854775807)::timeid AS id,
             timeid_timestamp((b & 9223372036854775807)::timeid) AS t FROM tr_ids) s
UNION ALL
SELECT 'ulidflake',
       count(*) FILTER (WHERE id <@ ulidflake_time_range(tstzrange(t, t, '[]'))),
       count(*) FILTER (WHERE id <@ ulidflake_time_range(tstzrange(t, t + '1 ms', '[)'))),
       count(*) FILTER (WHERE id <@ ulidflake_time_range(tstzrange(t, NULL, '()'))),
       count(*) FILTER (WHERE id <@ ulidflake_time_range(tstzrange(NULL, t, '()')))
FROM (SELECT (b & 9223372036854775807)::ulidflake AS id,
             ulidflake_timestamp((b & 9223372036854775807)::ulidflake) AS t FROM tr_ids) s
UNION ALL
SELECT 'ulid',
       count(*) FILTER (WHERE id <@ ulid_time_range(tstzrange(t, t, '[]'))),
       count(*) FILTER (WHERE id <@ ulid_time_range(tstzrange(t, t + '1 ms', '[)'))),
       count(*) FILTER (WHERE id <@ ulid_time_range(tstzrange(t, NULL, '()'))),
       count(*) FILTER (WHERE id <@ ulid_time_range(tstzrange(NULL, t, '()')))
FROM (SELECT h::ulid AS id, ulid_timestamp(h::ulid) AS t FROM tr_ids) s
UNION ALL
SELECT 'euid',
       count(*) FILTER (WHERE id <@ euid_time_range(tstzrange(t, t, '[]'))),
       count(*) FILTER (WHERE id <@ euid_time_range(tstzrange(t, t + '1 ms', '[)'))),
       count(*) FILTER (WHERE id <@ euid_time_range(tstzrange(t, NULL, '()'))),
       count(*) FILTER (WHERE id <@ euid_time_range(tstzrange(NULL, t, '()')))
FROM (SELECT h::euid AS id, euid_timestamp(h::euid) AS t FROM tr_ids) s;

-- The xid time range of an xid prefix's times covers the prefix (the uid11 spec's xid prefixes).
SELECT count(*) AS prefixes,
       count(*) FILTER (WHERE uid11_time_range(xid_prefix_time_range(p)) @> uid11_prefix_range(p))
           AS covered
FROM (SELECT DISTINCT left(b::uid11::text, n) AS p FROM tr_ids, generate_series(1, 11) n) s;
