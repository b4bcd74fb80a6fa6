-- uuidv7_core: PostgreSQL 18's uuidv7(), uuidv7(interval), uuid_extract_timestamp() and
-- uuid_extract_version(), from the extension idtypes_uuidv7 on 15 to 17 and core's own on 18+:
-- the same queries print the same on every server, so ours are checked against core 18's.
-- :core names core's functions on 18+ and ours before; :ours names ours (on 18+ they call core's).
\set VERBOSITY default
SET client_min_messages = warning; -- 18+: a notice that core has these
CREATE EXTENSION idtypes_uuidv7;
RESET client_min_messages;
SELECT CASE WHEN current_setting('server_version_num')::int >= 180000 THEN 'pg_catalog'
	ELSE 'public' END AS core \gset
\set ours public
SET timezone = 'UTC';
-- Properties as core 18's catalog has them.
SELECT proname, pg_get_function_arguments(oid) AS args, prorettype::regtype, provolatile,
       proparallel, proleakproof, proisstrict
FROM pg_proc WHERE pronamespace = :'core'::regnamespace
	AND proname IN ('uuidv7', 'uuid_extract_timestamp', 'uuid_extract_version')
ORDER BY 1, 2;
-- The comments are on the extension's functions, none on core's (on 18+ an unqualified name in
-- COMMENT ON would find core's).
SELECT count(*) FILTER (WHERE p.pronamespace = 'public'::regnamespace) AS ours_commented,
       count(*) FILTER (WHERE p.pronamespace = 'pg_catalog'::regnamespace) AS core_commented_by_us
FROM pg_description d JOIN pg_proc p ON d.objoid = p.oid AND d.classoid = 'pg_proc'::regclass
WHERE d.description LIKE '%(as PostgreSQL 18''s %';
-- Extraction: RFC 9562's v1, v4 and v7 examples (the v1 and v7 at 2022-02-22 19:22:22 UTC), a v7
-- of the last ms, another variant, nil and max, NULL.
SELECT u, :core.uuid_extract_version(u) AS version, :core.uuid_extract_timestamp(u) AS ts
FROM (VALUES ('c232ab00-9414-11ec-b3c8-9f6bdeced846'::uuid), ('919108f7-52d1-4320-9bac-f847db4148a8'),
	('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'), ('ffffffff-ffff-7fff-bfff-ffffffffffff'),
	('017f22e2-79b0-7cc3-18c4-dc0c0c07398f'), ('017f22e2-79b0-7cc3-d8c4-dc0c0c07398f'),
	('00000000-0000-0000-0000-000000000000'), ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
	('00000000-0000-1000-8000-000000000000'), ('ffffffff-ffff-1fff-bfff-ffffffffffff'),
	(NULL)) v(u);
-- Ours and core's agree on 200,000 uuids of every version and variant (on 15 to 17 ours twice);
-- 20,000 where IDTYPES_REGRESS_SMALL is set (the lanes under qemu-user), still about 1,250 of each
-- version.
\getenv regress_small IDTYPES_REGRESS_SMALL
\if :{?regress_small}
\set md5_rows 20000
\else
\set md5_rows 200000
\endif
SELECT count(*) FILTER (WHERE :ours.uuid_extract_version(u) IS DISTINCT FROM :core.uuid_extract_version(u)
	OR :ours.uuid_extract_timestamp(u) IS DISTINCT FROM :core.uuid_extract_timestamp(u)) AS differ
FROM (SELECT md5(i::text)::uuid AS u FROM generate_series(1, :md5_rows) i) s;
-- uuidv7(): version 7, the variant, the time of the clock (which the step may pass by 245 ns an
-- ID), and a backend's IDs increasing in their 60 bits of ms and 4096ths of a ms (core 18's
-- step), across statements too.
CREATE TEMP TABLE v7 AS
SELECT n, :core.uuidv7() AS u, clock_timestamp() AS after FROM generate_series(1, 20000) n;
INSERT INTO v7 SELECT 20000 + n, :core.uuidv7(), clock_timestamp() FROM generate_series(1, 20000) n;
SELECT count(*) AS ids,
       bool_and(:core.uuid_extract_version(u) = 7) AS version_7,
       bool_and(substr(u::text, 20, 1) IN ('8', '9', 'a', 'b')) AS variant,
       bool_and(:core.uuid_extract_timestamp(u) <= after + interval '20 ms'
	        AND :core.uuid_extract_timestamp(u) > after - interval '1 s') AS clock,
       bool_and(key > prev_key) AS time_bits_increase, bool_and(u > prev) AS increase
FROM (SELECT u, after, left(replace(u::text, '-', ''), 12) || substr(replace(u::text, '-', ''), 14, 3) AS key,
             lag(left(replace(u::text, '-', ''), 12) || substr(replace(u::text, '-', ''), 14, 3), 1, '')
                 OVER (ORDER BY n) AS prev_key,
             lag(u, 1, '00000000-0000-0000-0000-000000000000') OVER (ORDER BY n) AS prev
      FROM v7) s;
-- Ours and core's share the backend's clock (on 18+ ours calls core's): interleaved, still
-- increasing.
SELECT bool_and(a < b AND a > prev_b) AS interleaved_increase
FROM (SELECT a, b, lag(b, 1, '00000000-0000-0000-0000-000000000000') OVER (ORDER BY n) AS prev_b
      FROM (SELECT n, :ours.uuidv7() AS a, :core.uuidv7() AS b FROM generate_series(1, 20000) n) g) s;
-- uuidv7(interval): the clock shifted as timestamptz + interval shifts it (the session's time
-- zone for days and months), past 2262 too (where ns no longer fit 64 bits). The 40,000 UUIDs
-- above step the backend's clock at least 1/4096 ms each, so a fast server ends them up to 10 ms
-- ahead of the clock: waited out first.
SELECT pg_sleep(0.02);
SET timezone = 'America/New_York';
SELECT bool_and(t BETWEEN date_trunc('milliseconds', before + shift) AND after + shift) AS shifted
FROM (SELECT shift, clock_timestamp() AS before, :core.uuid_extract_timestamp(:core.uuidv7(shift)) AS t,
             clock_timestamp() AS after
      FROM (VALUES (interval '-1 day'), (interval '1 month'), (interval '-6 months 3 hours'),
                   (interval '-50 years'), (interval '1000 years'), (interval '8000 years'),
                   (interval '0.0005 s')) v(shift)) s;
SELECT extract(year FROM :core.uuid_extract_timestamp(:core.uuidv7(interval '1000 years')))
       = extract(year FROM now()) + 1000 AS a_thousand_years;
SELECT :core.uuidv7(NULL::interval) IS NULL AS strict;
RESET timezone;
-- Errors: before 1970 or past the 48 bits of ms (SQLSTATE 22008, with core 18's message and
-- detail), an interval timestamptz cannot add (core's own error).
-- 2,000 years back is before 1970 on any date this runs (60 years back is not from 2030 on)
SELECT :core.uuidv7(interval '-2000 years');
\echo :LAST_ERROR_SQLSTATE
SELECT :core.uuidv7(interval '9000 years');
\echo :LAST_ERROR_SQLSTATE
SELECT :core.uuidv7(interval '300000 years');
\echo :LAST_ERROR_SQLSTATE
-- An infinite interval (17+; 15 and 16 have none): 22008 with core 18's message and detail.
DO $$
DECLARE
	state text;
	msg text;
	detail text;
BEGIN
	IF current_setting('server_version_num')::int >= 170000 THEN
		BEGIN
			PERFORM uuidv7('infinity'::interval);
			RAISE EXCEPTION 'uuidv7(''infinity'') made a uuid';
		EXCEPTION WHEN datetime_field_overflow THEN
			GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
			IF msg <> 'interval out of range for UUID version 7'
				OR detail <> 'UUID version 7 does not support infinite intervals.' THEN
				RAISE EXCEPTION 'uuidv7(''infinity''): % % %', state, msg, detail;
			END IF;
		END;
	END IF;
END $$;
DROP EXTENSION idtypes_uuidv7;
