-- sql_edition.sql: the checks of test/scripts/sql_edition.sh, which runs this file's sections as
-- the role that installed the SQL edition, in the database where the native edition is beside it.
-- What comes before the first check sets up. Each section from a line "-- check: <name>" to the
-- next is one check, run in a session of its own, which passes when it prints nothing (its
-- queries print a line for each failure); a "-- check (pg_tle): <name>" section runs only where
-- the edition came through pg_tle. psql variables: core (the schema of uuidv7() and its functions
-- to compare with: pg_catalog on 18+, public, idtypes_uuidv7's, before), tle (true where installed
-- through pg_tle), version (the edition's), package (its pg_tle package) and next (the package of
-- version || '.99').

CREATE FUNCTION err(cmd text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE s text; m text; d text; h text; r text;
BEGIN
	EXECUTE cmd INTO r;
	RETURN 'ok ' || coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL,
		h = PG_EXCEPTION_HINT;
	RETURN s || '|' || m || '|' || coalesce(d, '') || '|' || coalesce(h, '');
END
$$;
-- sample values, with each type's smallest and largest
CREATE TABLE v AS
SELECT m::uuid::ulid AS u, m::uuid::euid AS e, ('x' || substr(m, 1, 16))::bit(64)::bigint::uid11 AS x,
	(('x' || substr(m, 1, 16))::bit(64)::bigint & 9223372036854775807)::timeid AS t,
	(('x' || substr(m, 17, 16))::bit(64)::bigint & 9223372036854775807)::ulidflake AS f
FROM (SELECT md5(i::text) AS m FROM generate_series(1, 400) i) s
UNION ALL SELECT '00000000000000000000000000', '000000000000000000000000000', '11111111111', '2222222222222', '0000000000000'
UNION ALL SELECT '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'ZZZZZZZZZZZZZZZZZZZZZZZZZW3', 'jpXCZedGfVQ', 'bzzzzzzzzzzzz', '7ZZZZZZZZZZZZ';
CREATE TABLE texts(x text);
INSERT INTO texts VALUES (''), (' '), ('jpXCZedGfVQ'), ('jpXCZedGfVR'), ('zzzzzzzzzzz'), ('NQm6nKp8qFD'),
	('NQm6nKp8qF0'), ('NQm6nKp8qFDx'), ('NQm6 Kp8qFD'), ('3kxnlhr3gxq23'), ('3kxn-lhr-3gxq-23'),
	('3kxn-lhr3-gxq-23'), ('3kxnlhr3gxq23ab'), ('c222222222222'), ('3kxn-lhr-3gxq-2A'), ('3kxnl-hr-3gxq-23'),
	('3kxnlhr3gxq2é'), ('3kxn-lhr-3gxq-2é'), ('3KXNLHR3GXQ23'), ('00CMXB6TAK4SA'), ('00cmxb6tak4sa'),
	('8000000000000'), ('00CMXB6TAK4SU'), ('00CMXB6TAK4S'), ('01ARZ3NDEKTSV4RRFFQ69G5FAV'),
	('01arz3ndektsv4rrffq69g5fav'), ('80000000000000000000000000'), ('01ARZ3NDEKTSV4RRFFQ69G5FAU'),
	('01ARZ3NDEKTSV4RRFFQ69G5FA'), ('01ARZ3NDEKTSV4RRFFQ69G5FAV '), (E'01ARZ3NDEKTSV4RRFFQ69G5FA\t'),
	('0190b6f4-8b5c-7d2a-9f3e-1a2b3c4d5e6f'), ('0190B6F48B5C7D2A9F3E1A2B3C4D5E6F'),
	('0190b6f4-8b5c-7d2a-9f3e-1a2b3c4d5e6g'), ('0190b6f48-b5c-7d2a-9f3e-1a2b3c4d5e6f'),
	('C8EE934SR007G5Q94QKKXFRFV8C'), ('C8EE934SR007G5Q94QKKXFRFV8D'), ('c8ee934sr007g5q94qkkxfrfv8c'),
	('C8EE934SR007G5Q94QKKXFRFV9Z'), ('C8EE934SR007G5Q94QKKXFRFVZZ'), ('O1ARZ3NDEKTSV4RRFFQ69G5FAVI'),
	('ÄÖÜ'), ('01ARZ3NDEKTSV4RRFFQ69G5FAé'), ('01ARZ3NDEKTSV4RRFFQ69G5Fé'), (E'01ARZ3NDEKTSV4RRFFQ69G5F\u200b'),
	('01ARZ3NDEKTSV4RRFFQ69G5F😀'), (E'\u0301abc'), (E'\u00ad'), (E'\x7f'), ('8'), ('7Z'), ('z'), ('c'), ('b'),
	('NQm6nKp8qFE'), ('NQm6nKp8qF'), ('N'), ('3kxn-'), ('3kxnl-'), ('3kxn-lhr-3gxq-234'), ('U'), ('é'),
	('7ZZZZZZZZZZZZZZZZZZZZZZZZZZZ'), ('01ARZ3NDEKTSV4RRFFQ69G5FAVV'), ('C8EE934SR007G5Q94QKKXFRFVZ'),
	('3kxn-lhr'), ('ab-c'), ('8ZZZZZZZZZZZZ'), ('7ZZZZZZZZZZZZZ');
CREATE TABLE types AS SELECT unnest(ARRAY['uid11', 'timeid', 'ulidflake', 'ulid', 'euid']) AS typ;
-- prefixes: some of each length of sample values' texts (either case where it reads both)
CREATE TABLE p AS
SELECT DISTINCT typ, p FROM (
	SELECT 'ulid' AS typ, left(u::text, k) AS p FROM (SELECT * FROM v LIMIT 30) v, generate_series(0, 26) k WHERE (k + length(u::text)) % 4 = 0
	UNION ALL SELECT 'euid', left(e::text, k) FROM (SELECT * FROM v LIMIT 30) v, generate_series(0, 27) k WHERE k % 3 = 0 OR k > 24
	UNION ALL SELECT 'euid', lower(left(e::text, k)) FROM (SELECT * FROM v LIMIT 10) v, generate_series(24, 27) k
	-- the value's 26 symbols with another check bit: its range holds the value, its text does not
	UNION ALL SELECT 'euid', left(e::text, 25) || translate(substr(e::text, 26, 1), '0123456789ABCDEFGHJKMNPQRSTVWXYZ',
		'1032547698BADCFEHGKJNMQPSRVTXWZY') FROM (SELECT * FROM v LIMIT 10) v
	UNION ALL SELECT 'uid11', left(x::text, k) FROM (SELECT * FROM v LIMIT 30) v, generate_series(0, 11) k WHERE k % 2 = 0
	UNION ALL SELECT 'uid11', left('NQm6nKp8qFE', k) FROM generate_series(0, 11) k
	UNION ALL SELECT 'timeid', left(t::text, k) FROM (SELECT * FROM v LIMIT 30) v, generate_series(0, 13) k WHERE k % 3 = 0
	UNION ALL SELECT 'timeid', left(timeid_dashed(t), k) FROM (SELECT * FROM v LIMIT 10) v, generate_series(0, 16) k
	UNION ALL SELECT 'ulidflake', lower(left(f::text, k)) FROM (SELECT * FROM v LIMIT 30) v, generate_series(0, 13) k WHERE k % 3 = 1
	UNION ALL SELECT typ, x FROM types, texts WHERE length(x) <= 28) s;
-- time windows: every kind of bound, around each format's epoch and era
CREATE TABLE w AS
SELECT tstzrange(a, b, bounds) AS w FROM
	unnest(ARRAY['-infinity', '1969-12-31 23:59:59.9995+00', '1970-01-01+00', '2011-11-11 11:11:11.111+00',
		'2011-11-11 11:11:11.1115+00', '2024-01-01+00', '2024-06-06 06:06:06.666+00',
		'2024-06-06 06:06:06.6665+00', '2081-07-24 23:48:42.663+00', '2151-03-25 18:46:22.214+00',
		'2255-06-05 23:47:34.740991+00', '3084-01-01+00', '10889-08-02 05:31:50.655+00',
		'infinity', NULL]::timestamptz[]) a,
	unnest(ARRAY['2024-06-06 06:06:06.667+00', '2024-06-06 06:06:07+00', '2081-07-24 23:48:42.664+00',
		'2300-01-01+00', 'infinity', NULL, '3000-01-01+00']::timestamptz[]) b,
	unnest(ARRAY['[)', '[]', '(]', '()']) bounds
WHERE a IS NULL OR b IS NULL OR a <= b
UNION ALL SELECT 'empty'::tstzrange;
-- the documented vectors (docs/formats.md) and sql/io.sql's literals: vec, filled by the script
CREATE TABLE vec (x text);
-- the tables of the index conditions and pruning checks
CREATE TABLE ids (u uuid PRIMARY KEY, x bigint, t bigint);
CREATE INDEX ON ids (x);
CREATE INDEX ON ids (t);
INSERT INTO ids SELECT m::uuid, ('x' || substr(m, 1, 16))::bit(64)::bigint, ('x' || substr(m, 1, 16))::bit(64)::bigint & 9223372036854775807
FROM (SELECT md5(i::text) AS m FROM generate_series(1, 20000) i) s;
ANALYZE ids;
CREATE TABLE parts (u uuid, n int) PARTITION BY RANGE (u);
CREATE TABLE parts_2025 PARTITION OF parts FOR VALUES
	FROM (idtypes_sql.ulid_first_at('2025-01-01+00')) TO (idtypes_sql.ulid_first_at('2026-01-01+00'));
CREATE TABLE parts_2026 PARTITION OF parts FOR VALUES
	FROM (idtypes_sql.ulid_first_at('2026-01-01+00')) TO (idtypes_sql.ulid_first_at('2027-01-01+00'));
-- plan(generic, query): EXPLAIN's lines for the query with $1 = '01J' and $2 = a day of
-- November 2026, prepared, in a custom (generic false) or generic (true) plan, without sequential
-- or bitmap scans; with generic NULL, of the query itself, without sequential scans.
CREATE FUNCTION plan(generic bool, q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	l text;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	IF generic IS NULL THEN
		RETURN QUERY EXECUTE 'EXPLAIN (COSTS OFF) ' || q;
		RETURN;
	END IF;
	PERFORM set_config('enable_bitmapscan', 'off', true),
		set_config('plan_cache_mode', CASE WHEN generic THEN 'force_generic_plan' ELSE 'force_custom_plan' END, true);
	EXECUTE 'PREPARE pq(text, tstzrange) AS ' || q;
	FOR l IN EXECUTE $e$EXPLAIN (COSTS OFF) EXECUTE pq('01J', '[2026-11-01, 2026-11-02)')$e$ LOOP
		RETURN NEXT l;
	END LOOP;
	DEALLOCATE pq;
END
$$;
-- index_cond(query, column): the query's custom and generic plans that do not bound the column
-- in an index condition on both sides, or scan a table whole
CREATE FUNCTION index_cond(q text, col text) RETURNS SETOF text LANGUAGE sql AS $$
	SELECT CASE WHEN g THEN 'generic' ELSE 'custom' END || ' plan of ' || q || ': '
		|| (SELECT string_agg(l, ' / ') FROM plan(g, q) l)
	FROM (VALUES (false), (true)) s(g)
	WHERE NOT EXISTS (SELECT FROM plan(g, q) l WHERE l ~ format('Index Cond: .*\(%s >= .*%s <= ', col, col))
		OR EXISTS (SELECT FROM plan(g, q) l WHERE l LIKE '%Seq Scan%')
$$;

-- Every value the project documents (docs/formats.md's vectors) and feeds its I/O tests
-- (sql/io.sql's literals): either both editions read it, as the same bytes and the same text, or
-- both raise the same error.
-- check: the documented vectors and the I/O tests' values: the same bytes, text or error
SELECT typ || ' ' || x || ': ' || n || ' <> ' || s FROM (
	SELECT typ, x, err(format('SELECT encode(%s_send(%L::%s), ''hex'') || '' '' || %L::%s::text', typ, x, typ, x, typ)) AS n,
		err(format('SELECT encode(%s(idtypes_sql.%s_from_text(%L)), ''hex'') || '' '' || idtypes_sql.%s_to_text(idtypes_sql.%s_from_text(%L))',
			CASE WHEN typ IN ('ulid', 'euid') THEN 'uuid_send' ELSE 'int8send' END, typ, x, typ, typ, x)) AS s
	FROM types, vec) q
WHERE n <> s
UNION ALL
SELECT 'only ' || count(*) || ' values read' FROM types, vec
WHERE err(format('SELECT %L::%s::text', x, typ)) LIKE 'ok %' HAVING count(*) < 40;

-- check: text out: the native text
SELECT 'ulid ' || u FROM v WHERE u::text IS DISTINCT FROM idtypes_sql.ulid_to_text(u::uuid)
UNION ALL SELECT 'euid ' || e FROM v WHERE e::text IS DISTINCT FROM idtypes_sql.euid_to_text(e::uuid)
UNION ALL SELECT 'uid11 ' || x FROM v WHERE x::text IS DISTINCT FROM idtypes_sql.uid11_to_text(x::bigint)
UNION ALL SELECT 'timeid ' || t FROM v WHERE t::text IS DISTINCT FROM idtypes_sql.timeid_to_text(t::bigint)
UNION ALL SELECT 'timeid dashed ' || t FROM v WHERE timeid_dashed(t) IS DISTINCT FROM idtypes_sql.timeid_dashed(t::bigint)
UNION ALL SELECT 'ulidflake ' || f FROM v WHERE f::text IS DISTINCT FROM idtypes_sql.ulidflake_to_text(f::bigint);

-- check: text in: the native bits
SELECT 'ulid ' || u FROM v WHERE idtypes_sql.ulid_from_text(lower(u::text)) IS DISTINCT FROM u::uuid
UNION ALL SELECT 'euid ' || e FROM v WHERE idtypes_sql.euid_from_text(lower(e::text)) IS DISTINCT FROM e::uuid
UNION ALL SELECT 'uid11 ' || x FROM v WHERE idtypes_sql.uid11_from_text(x::text) IS DISTINCT FROM x::bigint
UNION ALL SELECT 'timeid ' || t FROM v WHERE idtypes_sql.timeid_from_text(timeid_dashed(t)) IS DISTINCT FROM t::bigint
UNION ALL SELECT 'ulidflake ' || f FROM v WHERE idtypes_sql.ulidflake_from_text(lower(f::text)) IS DISTINCT FROM f::bigint;

-- check: invalid text: the native error
SELECT typ || ' ' || x || ': ' || n || ' <> ' || s FROM (
	SELECT typ, x, err(format('SELECT %L::%s::text', x, typ)) AS n,
		err(format('SELECT idtypes_sql.%s_to_text(idtypes_sql.%s_from_text(%L))', typ, typ, x)) AS s
	FROM types, texts) q
WHERE n <> s;

-- check: prefix bounds: the native range's ends, or its error
SELECT typ || ' ' || p || ': ' || n || ' <> ' || s FROM (
	SELECT typ, p,
		err(format('SELECT %srange_lo(%s_prefix_range(%L))::text || %L || %srange_hi(%s_prefix_range(%L))::text',
			typ, typ, p, ' ', typ, typ, p)) AS n,
		err(format('SELECT idtypes_sql.%s_to_text(idtypes_sql.%s_prefix_lo(%L)) || %L || idtypes_sql.%s_to_text(idtypes_sql.%s_prefix_hi(%L))',
			typ, typ, p, ' ', typ, typ, p)) AS s
	FROM p WHERE typ <> 'uid11') q
WHERE n <> s
UNION ALL
SELECT 'uid11 ' || p || ': ' || n || ' <> ' || s FROM (
	SELECT p, err(format('SELECT uid11_prefix_range(%L)', p)) AS n,
		err(format('SELECT idtypes_sql.uid11_prefix_lo(%L)', p)) AS s FROM p WHERE typ = 'uid11') q
WHERE (n LIKE 'ok%') <> (s LIKE 'ok%') OR (n NOT LIKE 'ok%' AND n <> s);

-- The predicates with more than a range: uid11's (a range across 2^63, the prefixes of the text
-- of 2^63, NQm6nKp8qFD) and euid's (26 and 27 symbols reach into the check bits).
-- check: starts_with: the same rows as ^@
WITH ok AS (SELECT typ, p FROM p WHERE err(format('SELECT %s_prefix_range(%L)', typ, p)) LIKE 'ok%'
		AND (p LIKE 'NQm%' OR length(p) < 2 OR (typ = 'euid' AND length(p) >= 25) OR p < '0'
			OR md5(p) < '2')),
	vs AS (SELECT * FROM v TABLESAMPLE BERNOULLI (3) REPEATABLE (1)
		UNION ALL SELECT * FROM (SELECT * FROM v LIMIT 10) s)
SELECT 'uid11 ' || x || ' ^@ ' || p FROM ok, vs WHERE typ = 'uid11'
	AND (x ^@ p) IS DISTINCT FROM idtypes_sql.uid11_starts_with(x::bigint, p)
UNION ALL SELECT 'euid ' || e || ' ^@ ' || p FROM ok, vs WHERE typ = 'euid'
	AND (e ^@ p) IS DISTINCT FROM idtypes_sql.euid_starts_with(e::uuid, p)
UNION ALL SELECT 'too few matches' WHERE (SELECT count(*) FROM ok, vs WHERE typ = 'uid11' AND x ^@ p) < 10
	OR (SELECT count(*) FROM ok, vs WHERE typ = 'euid' AND length(p) >= 26 AND e ^@ p) < 1;

-- check: time-window bounds: the native range's ends
SELECT typ || ' ' || w || ': ' || n || ' <> ' || s FROM (
	SELECT typ, w,
		err(format('SELECT %srange_lo(%s_time_range(%L))::text || %L || %srange_hi(%s_time_range(%L))::text',
			typ, typ, w, ' ', typ, typ, w)) AS n,
		err(format('SELECT idtypes_sql.%s_to_text(idtypes_sql.%s_time_lo(%L)) || %L || idtypes_sql.%s_to_text(idtypes_sql.%s_time_hi(%L))',
			typ, typ, w, ' ', typ, typ, w)) AS s
	FROM w, types WHERE typ <> 'uid11') q
WHERE n <> s
UNION ALL
SELECT 'uid11 ' || x || ' <@ ' || w FROM w, (SELECT * FROM v TABLESAMPLE BERNOULLI (4) REPEATABLE (1)
	UNION ALL SELECT * FROM v WHERE x IN ('11111111111', 'jpXCZedGfVQ')) v
WHERE (x <@ uid11_time_range(w)) IS DISTINCT FROM idtypes_sql.uid11_in_time_range(x::bigint, w)
UNION ALL
SELECT 'uid11 bounds ' || w FROM w
WHERE uid11range_lo(uid11_time_range(w)) < 'NQm6nKp8qFD' AND uid11range_hi(uid11_time_range(w)) < 'NQm6nKp8qFD'
	AND NOT isempty(uid11_time_range(w))
	AND (uid11range_lo(uid11_time_range(w))::bigint, uid11range_hi(uid11_time_range(w))::bigint)
		IS DISTINCT FROM (idtypes_sql.uid11_time_lo(w), idtypes_sql.uid11_time_hi(w));

-- check: first_at and the fields: the native values
SELECT 'first_at ' || a FROM unnest(ARRAY['1969-01-01+00', '1970-01-01+00', '2011-11-11 11:11:11.1111+00',
		'2024-01-01+00', '2026-11-27 12:00:00.0005+00', '2081-07-24 23:48:42.663+00', '2300-01-01+00',
		'3084-01-01+00', '10889-08-02 05:31:50.656+00']::timestamptz[]) a
WHERE (uid11_first_at(a)::bigint, timeid_first_at(a)::bigint, ulidflake_first_at(a)::bigint, ulid_first_at(a)::uuid, euid_first_at(a)::uuid)
	IS DISTINCT FROM (idtypes_sql.uid11_first_at(a), idtypes_sql.timeid_first_at(a), idtypes_sql.ulidflake_first_at(a),
		idtypes_sql.ulid_first_at(a), idtypes_sql.euid_first_at(a))
UNION ALL
SELECT 'fields ' || u FROM v
WHERE (xid_timestamp(x), xid_random(x), timeid_timestamp(t), timeid_clock_id(t), ulidflake_timestamp(f), ulidflake_sid(f),
		ulid_timestamp(u), euid_timestamp(e), euid_extension(e))
	IS DISTINCT FROM (idtypes_sql.xid_timestamp(x::bigint), idtypes_sql.xid_random(x::bigint), idtypes_sql.timeid_timestamp(t::bigint),
		idtypes_sql.timeid_clock_id(t::bigint), idtypes_sql.ulidflake_timestamp(f::bigint), idtypes_sql.ulidflake_sid(f::bigint),
		idtypes_sql.ulid_timestamp(u::uuid), idtypes_sql.euid_timestamp(e::uuid), idtypes_sql.euid_extension(e::uuid));

-- check: generator arguments: the native errors
SELECT c || ': ' || n || ' <> ' || s FROM (
	SELECT c, err('SELECT ' || c || '::text') AS n, err('SELECT idtypes_sql.' || c || '::text') AS s
	FROM unnest(ARRAY['generate_tid(-1)', 'generate_tid(1024)', 'generate_ulidflake(32)', 'generate_ulidflake(-1)',
		'generate_euid(32768)', 'generate_euid(-1)']) c) q
WHERE split_part(n, '|', 1) <> split_part(s, '|', 1) OR split_part(n, '|', 2) <> split_part(s, '|', 2)
	OR split_part(n, '|', 3) <> split_part(s, '|', 3);

-- check: generators at a given time: the native time and layout, fresh random bits, the native errors
CREATE TEMP TABLE at AS SELECT ts FROM unnest(ARRAY['1970-01-01+00', '2011-11-11 11:11:11.111+00', '2011-11-11 11:11:11.1109+00',
	'2024-01-01+00', '2024-06-06 06:06:06.6665+00', '2081-07-24 23:48:42.663+00', '2151-03-25 18:46:22.214+00',
	'2255-06-05 23:47:34.740991+00', '3084-01-01+00', '1969-12-31 23:59:59.999999+00', '10889-08-02 05:31:50.655+00',
	'10889-08-02 05:31:50.656+00', '200000-01-01+00', 'infinity', '-infinity', '4000-01-01+00']::timestamptz[]) ts;
CREATE TEMP TABLE calls AS SELECT * FROM (VALUES ('generate_xid_at(%L)'), ('generate_uid11_xid_at(%L)'),
	('generate_tid_at(%L, 7)'), ('generate_timeid_at(%L, 7)'), ('generate_tid_at(%L, 1024)'), ('generate_ulidflake_at(%L)'),
	('generate_ulidflake_at(%L, 9)'), ('generate_ulidflake_at(%L, 32)'), ('generate_ulid_at(%L)'), ('generate_euid_at(%L)'),
	('generate_euid_at(%L, 300)'), ('generate_euid_at(%L, -1)')) c(f);
-- the same error, or a value of the same time and layout (the random bits masked)
SELECT f || ' at ' || ts || ': ' || n || ' <> ' || s FROM (
	SELECT f, ts, err(format('SELECT ' || f || '::text', ts)) AS n,
		err(format('SELECT idtypes_sql.' || f || '::text', ts)) AS s FROM calls, at) q
WHERE (n LIKE 'ok %') <> (s LIKE 'ok %') OR (n NOT LIKE 'ok %' AND n <> s)
	OR (n LIKE 'ok %' AND CASE
		WHEN f LIKE '%xid%' THEN (substr(n, 4)::uid11::bigint >> 22) <> (substr(s, 4)::bigint >> 22)
		WHEN f LIKE '%tid%' OR f LIKE '%timeid%' THEN substr(n, 4)::timeid::bigint <> substr(s, 4)::bigint
		WHEN f LIKE '%ulidflake%' THEN (substr(n, 4)::ulidflake::bigint >> 20) <> (substr(s, 4)::bigint >> 20)
			OR (f LIKE '%9)' AND ulidflake_sid(substr(n, 4)::ulidflake) <> (substr(s, 4)::bigint & 31))
		WHEN f LIKE '%ulid_at%' THEN ulid_timestamp(substr(n, 4)::ulid) <> ulid_timestamp(substr(s, 4)::uuid::ulid)
		ELSE euid_timestamp(substr(n, 4)::euid) <> euid_timestamp(substr(s, 4)::uuid::euid)
			OR euid_extension(substr(n, 4)::euid) IS DISTINCT FROM euid_extension(substr(s, 4)::uuid::euid)
	END)
UNION ALL
SELECT 'too few values' WHERE (SELECT count(*) FROM calls, at WHERE err(format('SELECT idtypes_sql.' || f || '::text', ts)) LIKE 'ok %') < 40
UNION ALL
SELECT 'not random' FROM (SELECT idtypes_sql.generate_xid_at('2024-01-01+00') AS x, idtypes_sql.generate_ulidflake_at('2024-01-01+00') AS f,
	idtypes_sql.generate_ulid_at('2024-01-01+00') AS u, idtypes_sql.generate_euid_at('2024-01-01+00', 5) AS e
	FROM generate_series(1, 500)) g
HAVING count(DISTINCT x) < 490 OR count(DISTINCT f) < 490 OR count(DISTINCT u) < 500 OR count(DISTINCT e) < 500
UNION ALL
SELECT 'session clock id' WHERE timeid_clock_id(idtypes_sql.generate_tid_at(now())::timeid) <> timeid_clock_id(idtypes_sql.generate_tid()::timeid)
UNION ALL
SELECT 'aliases' FROM v WHERE (idtypes_sql.uid11_timestamp(x::bigint), idtypes_sql.uid11_random(x::bigint))
	IS DISTINCT FROM (xid_timestamp(x), xid_random(x))
	OR idtypes_sql.generate_uid11_xid() IS NULL OR timeid_clock_id(idtypes_sql.generate_timeid(3)::timeid) <> 3
	OR idtypes_sql.generate_timeid() IS NULL OR idtypes_sql.generate_timeid_at(now()) IS NULL
	OR idtypes_sql.generate_uid11_random() IS NULL;

-- check: generators: layout, time, distinct, order within the session
CREATE TEMP TABLE g AS
SELECT n, clock_timestamp() AS at, idtypes_sql.generate_xid() AS x, idtypes_sql.generate_uid11() AS r,
	idtypes_sql.generate_tid() AS t, idtypes_sql.generate_tid(7) AS t7, idtypes_sql.generate_ulidflake() AS f,
	idtypes_sql.generate_ulidflake(5) AS f5, idtypes_sql.generate_ulid() AS u, idtypes_sql.generate_ulid_monotonic() AS m,
	idtypes_sql.generate_euid() AS e
FROM generate_series(1, 3000) n;
-- apart: another extension in the same millisecond waits for the next one
CREATE TEMP TABLE g300 AS SELECT n, idtypes_sql.generate_euid(300) AS e300 FROM generate_series(1, 3000) n;
ALTER TABLE g ADD e300 uuid;
UPDATE g SET e300 = g300.e300 FROM g300 WHERE g.n = g300.n;
SELECT 'not read back' FROM g WHERE idtypes_sql.uid11_to_text(x)::uid11::bigint <> x OR idtypes_sql.uid11_to_text(r)::uid11::bigint <> r
	OR idtypes_sql.timeid_to_text(t)::timeid::bigint <> t OR idtypes_sql.ulidflake_to_text(f)::ulidflake::bigint <> f
	OR idtypes_sql.ulid_to_text(u)::ulid::uuid <> u OR idtypes_sql.euid_to_text(e)::euid::uuid <> e LIMIT 1;
SELECT 'time ' || n FROM g
WHERE abs(extract(epoch FROM xid_timestamp(x::uid11) - at)) > 1 OR abs(extract(epoch FROM timeid_timestamp(t::timeid) - at)) > 1
	OR abs(extract(epoch FROM ulidflake_timestamp(f::ulidflake) - at)) > 1 OR abs(extract(epoch FROM ulid_timestamp(u::ulid) - at)) > 1
	OR abs(extract(epoch FROM ulid_timestamp(m::ulid) - at)) > 1 OR abs(extract(epoch FROM euid_timestamp(e::euid) - at)) > 1 LIMIT 3;
SELECT 'layout ' || n FROM g
WHERE timeid_clock_id(t7::timeid) <> 7 OR ulidflake_sid(f5::ulidflake) <> 5 OR euid_extension(e::euid) IS NOT NULL
	OR euid_extension(e300::euid) <> 300 OR timeid_clock_id(t::timeid) <> (SELECT timeid_clock_id(t::timeid) FROM g LIMIT 1) LIMIT 3;
SELECT 'duplicates' FROM g HAVING count(DISTINCT x) + count(DISTINCT r) + count(DISTINCT t) + count(DISTINCT t7) + count(DISTINCT f)
	+ count(DISTINCT f5) + count(DISTINCT u) + count(DISTINCT m) + count(DISTINCT e) + count(DISTINCT e300) <> 10 * count(*);
SELECT 'order ' || n FROM (SELECT n, lag(t::timeid) OVER o < t::timeid AND lag(t7::timeid) OVER o < t7::timeid
		AND lag(u::ulid) OVER o < u::ulid AND lag(m::ulid) OVER o < m::ulid AND lag(e::euid) OVER o < e::euid
		AND lag(e300::euid) OVER o < e300::euid AS ok FROM g WINDOW o AS (ORDER BY n)) s WHERE NOT ok LIMIT 3;
SELECT 'not random ' || bit FROM generate_series(0, 63) bit
WHERE (SELECT count(*) FROM g WHERE (r >> bit) & 1 = 1) NOT BETWEEN 1200 AND 1800
	OR (SELECT count(*) FROM g WHERE get_bit(uuid_send(u), 127 - bit) = 1) NOT BETWEEN 1200 AND 1800;

-- TIDs faster than one a microsecond run ahead of the clock, as the native ones: at most a second,
-- then they wait. A last just past that second (as a fast session leaves it) is gone on from in
-- order, after a wait: no error for a given clock id, no new clock id for the session's.
-- check: generate_timeid(): up to a second ahead of the clock, then waiting, in order
CREATE TEMP TABLE first_tid AS SELECT idtypes_sql.generate_timeid();
CREATE TEMP TABLE ahead AS
SELECT n, clock_timestamp() AS at,
	CASE WHEN n IN (1, 1501) THEN set_config('idtypes_sql.tid_last', (idtypes_sql._now_us() + 1000500)::text, false) END AS s,
	CASE WHEN n <= 1500 THEN idtypes_sql.generate_timeid(5) ELSE idtypes_sql.generate_timeid() END AS t
FROM generate_series(1, 3000) n;
SELECT 'not in order: ' || n FROM (SELECT n, t > lag(t) OVER (ORDER BY n) AS ok FROM ahead) s WHERE NOT ok AND n <> 1501 LIMIT 1;
SELECT 'more than a second ahead: ' || n FROM ahead WHERE timeid_timestamp(t::timeid) > at + interval '1.01 s' LIMIT 1;
SELECT 'another clock id: ' || n FROM ahead WHERE n > 1500 AND timeid_clock_id(t::timeid) <> timeid_clock_id(idtypes_sql.generate_timeid()::timeid) LIMIT 1;

-- generate_tid_at(ts, clock_id) IMMUTABLE and generate_tid_at(ts) STABLE, with their aliases, as the
-- native ones; one of them in an index expression.
-- check: generate_tid_at(): the native edition's volatility
SELECT 'volatility' WHERE (SELECT count(*) FROM pg_proc p JOIN pg_proc n ON n.proname = p.proname
		AND n.proargtypes = p.proargtypes AND n.pronamespace = (SELECT extnamespace FROM pg_extension WHERE extname = 'idtypes')
	WHERE p.pronamespace = 'idtypes_sql'::regnamespace AND p.proname IN ('generate_tid_at', 'generate_timeid_at')
		AND p.provolatile = n.provolatile) <> 4;
CREATE TEMP TABLE at_index (ts timestamptz);
CREATE INDEX ON at_index (idtypes_sql.generate_tid_at(ts, 3));

-- The monotonic ULID's last plus one within the millisecond (a last 1 ms ahead of the clock is gone
-- on from): its random bits' last 32 to all ones, then carried into the 32 above (where the clock
-- passed that millisecond between the calls, it starts afresh, and nothing is checked).
-- check: generate_ulid_monotonic(): the last plus one, carried past 32 bits
SELECT 'not counted on: ' || h1 || ' ' || h2 FROM (
	SELECT left(s, 12) AS ms, replace(m1, '-', '') AS h1, replace(m2, '-', '') AS h2 FROM (
		SELECT set_config('idtypes_sql.ulid_monotonic_last', lpad(to_hex(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint + 1), 12, '0')
				|| '0001' || '00000005' || 'fffffffe', false) AS s,
			idtypes_sql.generate_ulid_monotonic()::text AS m1, idtypes_sql.generate_ulid_monotonic()::text AS m2) q) r
WHERE left(h2, 12) = ms AND (right(h1, 20) <> '000100000005ffffffff' OR right(h2, 20) <> '00010000000600000000' OR left(h1, 12) <> ms);

-- check: the predicates as index conditions, in custom and generic plans
SELECT * FROM index_cond('SELECT count(*) FROM ids WHERE idtypes_sql.ulid_starts_with(u, $1)', 'u')
UNION ALL SELECT * FROM index_cond('SELECT count(*) FROM ids WHERE idtypes_sql.euid_starts_with(u, $1)', 'u')
UNION ALL SELECT * FROM index_cond('SELECT count(*) FROM ids WHERE idtypes_sql.ulid_in_time_range(u, $2)', 'u')
UNION ALL SELECT * FROM index_cond('SELECT count(*) FROM ids WHERE idtypes_sql.euid_in_time_range(u, $2)', 'u')
UNION ALL SELECT * FROM index_cond($q$SELECT count(*) FROM ids WHERE idtypes_sql.uid11_starts_with(x, 'NQm' || substr($1, 3))$q$, 'x')
UNION ALL SELECT * FROM index_cond('SELECT count(*) FROM ids WHERE idtypes_sql.uid11_in_time_range(x, $2)', 'x')
UNION ALL SELECT * FROM index_cond('SELECT count(*) FROM ids WHERE idtypes_sql.timeid_in_time_range(t, $2)', 't')
UNION ALL SELECT * FROM index_cond('SELECT count(*) FROM ids WHERE idtypes_sql.ulidflake_starts_with(t, $1)', 't');

-- A constant prefix whose range cannot cross 2^63 leaves no filter behind.
-- check: uid11 constant prefix: index condition only
SELECT l FROM plan(NULL, $q$SELECT * FROM ids WHERE idtypes_sql.uid11_starts_with(x, 'NQm6')$q$) l WHERE l LIKE '%Filter%';

-- uuid (PostgreSQL 18's functions, for 15 to 17): against core's on 18+, the native idtypes_uuidv7's
-- before; the uuid predicates against the native uuid ^@ text and <@ uuidv7_time_range().
-- check: uuid_extract_version and uuid_extract_timestamp: core's (18+) or idtypes_uuidv7's, on RFC 9562's vectors and 20,000 uuids of every version and variant
SELECT 'differ: ' || u FROM (SELECT md5(i::text)::uuid AS u FROM generate_series(1, 20000) i
	UNION ALL VALUES ('c232ab00-9414-11ec-b3c8-9f6bdeced846'::uuid), ('919108f7-52d1-4320-9bac-f847db4148a8'),
	('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'), ('ffffffff-ffff-7fff-bfff-ffffffffffff'),
	('017f22e2-79b0-7cc3-18c4-dc0c0c07398f'), ('00000000-0000-1000-8000-000000000000'),
	('ffffffff-ffff-1fff-bfff-ffffffffffff'), ('00000000-0000-0000-0000-000000000000')) s
WHERE idtypes_sql.uuid_extract_version(u) IS DISTINCT FROM :core.uuid_extract_version(u)
	OR idtypes_sql.uuid_extract_timestamp(u) IS DISTINCT FROM :core.uuid_extract_timestamp(u)
LIMIT 5;

-- check: uuidv7(): version 7, the variant, the clock's time, increasing within the session
CREATE TEMP TABLE v7 AS SELECT n, idtypes_sql.uuidv7() AS u, clock_timestamp() AS after FROM generate_series(1, 20000) n;
INSERT INTO v7 SELECT 20000 + n, idtypes_sql.uuidv7(), clock_timestamp() FROM generate_series(1, 20000) n;
SELECT 'uuidv7: ' || concat_ws(' ', count(*), bool_and(:core.uuid_extract_version(u) = 7),
	bool_and(substr(u::text, 20, 1) IN ('8', '9', 'a', 'b')),
	bool_and(:core.uuid_extract_timestamp(u) <= after + interval '20 ms' AND :core.uuid_extract_timestamp(u) > after - interval '1 s'),
	bool_and(u > prev))
FROM (SELECT u, after, lag(u) OVER (ORDER BY n) AS prev FROM v7) s
HAVING NOT (count(*) = 40000 AND bool_and(:core.uuid_extract_version(u) = 7)
	AND bool_and(substr(u::text, 20, 1) IN ('8', '9', 'a', 'b'))
	AND bool_and(:core.uuid_extract_timestamp(u) <= after + interval '20 ms' AND :core.uuid_extract_timestamp(u) > after - interval '1 s')
	AND bool_and(u > prev OR prev IS NULL));

-- check: uuidv7(interval): the shifted time and the errors of core's (18+) or idtypes_uuidv7's
SET timezone = 'America/New_York';
SELECT 'shift ' || i FROM unnest(ARRAY['1 day', '-1 day', '1 month', '-10 years', '1000 years', '-50 years 3 months',
	'1 hour 30 minutes', '-1 millisecond']::interval[]) i
WHERE abs(extract(epoch FROM :core.uuid_extract_timestamp(idtypes_sql.uuidv7(i)) - (clock_timestamp() + i))) > 1;
SELECT 'error ' || i || ': ' || n || ' <> ' || e FROM (
	SELECT i, err(format('SELECT %s.uuidv7(%L::interval)', :'core', i)) AS n, err(format('SELECT idtypes_sql.uuidv7(%L::interval)', i)) AS e
	FROM unnest(ARRAY['-2000 years', '9000 years', '300000 years'] || CASE WHEN current_setting('server_version_num')::int >= 170000
		THEN ARRAY['infinity', '-infinity'] ELSE '{}' END) i) q
WHERE n IS DISTINCT FROM e OR n IS NULL;
SELECT 'strict' WHERE idtypes_sql.uuidv7(NULL::interval) IS NOT NULL;

-- check: uuid_starts_with and uuid_in_time_range: the rows of the native ^@ and <@ uuidv7_time_range(), the native errors
CREATE TEMP TABLE u7 AS SELECT idtypes_sql.uuidv7(n * interval '1 minute') AS u FROM generate_series(-500, 500) n;
SELECT 'prefix ' || p FROM (SELECT DISTINCT left(u::text, k) AS p FROM (SELECT u FROM u7 LIMIT 10) s, generate_series(1, 36, 5) k
	UNION ALL VALUES (''), ('0'), ('ff'), (upper(left((SELECT u::text FROM u7 ORDER BY u LIMIT 1), 14)))) ps
WHERE (SELECT count(*) FROM u7 WHERE idtypes_sql.uuid_starts_with(u, p)) <> (SELECT count(*) FROM u7 WHERE u ^@ p);
SELECT 'window ' || w FROM (SELECT tstzrange(now() - n * interval '70 minutes', now() + n * interval '30 minutes', b) AS w
	FROM generate_series(0, 8) n, unnest(ARRAY['[)', '[]', '(]', '()']) b UNION ALL VALUES ('empty'::tstzrange), ('(,)')) ws
WHERE (SELECT count(*) FROM u7 WHERE idtypes_sql.uuid_in_time_range(u, w)) <> (SELECT count(*) FROM u7 WHERE u <@ uuidv7_time_range(w));
SELECT 'first_at' WHERE idtypes_sql.uuidv7_first_at(now()) <> lower(uuidv7_time_range(tstzrange(now(), NULL)));
SELECT 'error ' || p || ': ' || n || ' <> ' || e FROM (
	SELECT p, err(format('SELECT count(*) FROM u7 WHERE u ^@ %L', p)) AS n,
		err(format('SELECT count(*) FROM u7 WHERE idtypes_sql.uuid_starts_with(u, %L)', p)) AS e
	FROM unnest(ARRAY['019b-', 'g', '01234567--', '-', '0123456789abcdef0123456789abcdef0', '01234567-89ab-cdef-0123-456789abcdef0',
		'0123456789abcdef0123456789abcdef0123456', '0123é', '0123456789abcdef0123456789abcdef0é', 'ABCDEF12-', '0 1', E'01\t']) p) q
WHERE n IS DISTINCT FROM e OR n IS NULL;

-- check: the uuid predicates as index conditions, in custom and generic plans
SELECT * FROM index_cond('SELECT count(*) FROM ids WHERE idtypes_sql.uuid_starts_with(u, left($1, 2))', 'u')
UNION ALL SELECT * FROM index_cond('SELECT count(*) FROM ids WHERE idtypes_sql.uuid_in_time_range(u, $2)', 'u');

-- Pruning: a window in 2026 scans one partition, at plan time and at run time.
-- check: pruning, in custom and generic plans
SELECT CASE WHEN g THEN 'generic' ELSE 'custom' END || ' plan: ' || string_agg(l, ' / ')
FROM (VALUES (false), (true)) s(g), plan(g, 'SELECT count(*) FROM parts WHERE idtypes_sql.ulid_in_time_range(u, $2)') l
GROUP BY g
HAVING NOT bool_or(l LIKE '%parts_2026%') OR bool_or(l LIKE '%parts_2025 %');

-- The pg_tle package's update path: the package of a later version (made by the generator) adds it
-- with an update path from the installed one; ALTER EXTENSION moves to it, and what the generators
-- made and their counters stay.
-- check (pg_tle): pg_tle: the update path to a later version
CREATE TABLE kept AS SELECT idtypes_sql.generate_ulid() AS u, idtypes_sql.generate_xid() AS x FROM generate_series(1, 100);
CREATE TEMP TABLE before AS SELECT last_value FROM idtypes_sql._counter;
\i :next
ALTER EXTENSION idtypes_sql UPDATE;
SELECT 'version ' || extversion FROM pg_extension WHERE extname = 'idtypes_sql' AND extversion <> :'version' || '.99';
SELECT 'no update path' WHERE NOT EXISTS (SELECT FROM pgtle.extension_update_paths('idtypes_sql')
	WHERE source = :'version' AND target = :'version' || '.99' AND path = :'version' || '--' || :'version' || '.99');
SELECT 'rows lost' WHERE (SELECT count(DISTINCT u) + count(DISTINCT x) FROM kept) <> 200;
SELECT 'counter reset' FROM before WHERE (SELECT last_value FROM idtypes_sql._counter) < before.last_value;
SELECT 'generators' WHERE idtypes_sql.generate_xid() IN (SELECT x FROM kept) OR idtypes_sql.generate_ulid() IS NULL;
SELECT 'members ' || count(*) FROM pg_depend
WHERE refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idtypes_sql') AND deptype = 'e'
HAVING count(*) <> (SELECT count(*) FROM pg_proc WHERE pronamespace = 'idtypes_sql'::regnamespace)
	+ (SELECT count(*) FROM pg_class WHERE relnamespace = 'idtypes_sql'::regnamespace);

-- The package run again (its version installed, and a later one since): nothing changes, no error.
-- check (pg_tle): pg_tle: the package run again changes nothing
CREATE TEMP TABLE again AS SELECT (SELECT extversion FROM pg_extension WHERE extname = 'idtypes_sql') AS v,
	(SELECT string_agg(pg_get_functiondef(oid), '' ORDER BY oid) FROM pg_proc WHERE pronamespace = 'idtypes_sql'::regnamespace) AS defs,
	(SELECT string_agg(version, ' ' ORDER BY version) FROM pgtle.available_extension_versions() WHERE name = 'idtypes_sql') AS versions;
SET client_min_messages = warning;
\i :package
SELECT 'changed' FROM again
WHERE v IS DISTINCT FROM (SELECT extversion FROM pg_extension WHERE extname = 'idtypes_sql')
	OR defs IS DISTINCT FROM (SELECT string_agg(pg_get_functiondef(oid), '' ORDER BY oid) FROM pg_proc WHERE pronamespace = 'idtypes_sql'::regnamespace)
	OR versions IS DISTINCT FROM (SELECT string_agg(version, ' ' ORDER BY version) FROM pgtle.available_extension_versions() WHERE name = 'idtypes_sql');

-- The move to the native edition, as docs/managed.md tells it: a table whose columns the SQL
-- edition filled, converted in place. ulid, euid and uid11 keep the table's file (binary-coercible
-- casts); timeid and ulidflake rewrite it (their casts reject a negative bigint).
-- check: move to native: the same rows and answers, the file kept
CREATE TABLE moved (u uuid PRIMARY KEY DEFAULT idtypes_sql.generate_ulid(), e uuid NOT NULL DEFAULT idtypes_sql.generate_euid(),
	x bigint NOT NULL DEFAULT idtypes_sql.generate_xid(), t bigint NOT NULL DEFAULT idtypes_sql.generate_tid(),
	f bigint NOT NULL DEFAULT idtypes_sql.generate_ulidflake(), n int);
CREATE INDEX moved_x ON moved (x);
CREATE INDEX moved_e ON moved (e);
INSERT INTO moved (n) SELECT generate_series(1, 2000);
INSERT INTO moved (x, n) VALUES (idtypes_sql.uid11_from_text('NQm6nKp8qFD'), 0), (idtypes_sql.uid11_from_text('jpXCZedGfVQ'), -1);
CREATE TEMP TABLE before AS SELECT pg_relation_filenode('moved') AS file,
	(SELECT md5(string_agg(concat_ws(' ', idtypes_sql.ulid_to_text(u), idtypes_sql.euid_to_text(e), idtypes_sql.uid11_to_text(x),
		idtypes_sql.timeid_to_text(t), idtypes_sql.ulidflake_to_text(f)), ',' ORDER BY n)) FROM moved) AS texts,
	(SELECT count(*) FROM moved WHERE idtypes_sql.ulid_starts_with(u, (SELECT left(idtypes_sql.ulid_to_text(u), 9) FROM moved ORDER BY u LIMIT 1))) AS prefix,
	(SELECT count(*) FROM moved WHERE idtypes_sql.uid11_starts_with(x, 'N')) AS xprefix,
	(SELECT count(*) FROM moved WHERE idtypes_sql.euid_in_time_range(e, tstzrange(now() - interval '1 hour', NULL))) AS hour;
ALTER TABLE moved ALTER u DROP DEFAULT, ALTER u TYPE ulid, ALTER u SET DEFAULT generate_ulid(),
	ALTER e DROP DEFAULT, ALTER e TYPE euid, ALTER e SET DEFAULT generate_euid(),
	ALTER x DROP DEFAULT, ALTER x TYPE uid11 USING x::uid11, ALTER x SET DEFAULT generate_xid();
SELECT 'file rewritten by ulid, euid or uid11' FROM before WHERE pg_relation_filenode('moved') <> file;
ALTER TABLE moved ALTER t DROP DEFAULT, ALTER t TYPE timeid USING t::timeid, ALTER t SET DEFAULT generate_tid(),
	ALTER f DROP DEFAULT, ALTER f TYPE ulidflake USING f::ulidflake, ALTER f SET DEFAULT generate_ulidflake();
SELECT 'texts differ' FROM before
WHERE texts <> (SELECT md5(string_agg(concat_ws(' ', u, e, x, t, f), ',' ORDER BY n)) FROM moved);
SELECT 'prefix ' || prefix FROM before WHERE prefix <> (SELECT count(*) FROM moved WHERE u ^@ (SELECT left(min(u)::text, 9) FROM moved))
	OR xprefix <> (SELECT count(*) FROM moved WHERE x ^@ 'N') OR xprefix < 1;
SELECT 'window ' || hour FROM before WHERE hour <> (SELECT count(*) FROM moved WHERE e <@ euid_time_range(tstzrange(now() - interval '1 hour', NULL)))
	OR hour < 2000;
SELECT 'types' WHERE (SELECT string_agg(format_type(atttypid, NULL), ' ' ORDER BY attnum) FROM pg_attribute
	WHERE attrelid = 'moved'::regclass AND attnum > 0) <> 'ulid euid uid11 timeid ulidflake integer';
INSERT INTO moved (n) SELECT generate_series(2001, 2010);
SELECT 'native defaults' WHERE (SELECT count(DISTINCT u) + count(DISTINCT x) + count(DISTINCT t) FROM moved) <> 3 * 2012;

-- Then the SQL edition goes, and nothing of the table with it.
-- check: move to native: the SQL edition dropped cleanly
SET client_min_messages = warning;
\if :tle
-- the extension's schema stays after DROP EXTENSION (CREATE EXTENSION made it): empty, it goes
DROP EXTENSION idtypes_sql;
DROP SCHEMA idtypes_sql;
SELECT FROM pgtle.uninstall_extension('idtypes_sql');
\else
DROP SCHEMA idtypes_sql CASCADE;
\endif
SELECT 'left behind' WHERE to_regnamespace('idtypes_sql') IS NOT NULL;
SELECT 'table changed' WHERE (SELECT count(*) FROM moved) <> 2012
	OR (SELECT count(*) FROM pg_attrdef WHERE adrelid = 'moved'::regclass) <> 5;
INSERT INTO moved (n) VALUES (2011);
