-- like: LIKE, NOT LIKE, ILIKE and NOT ILIKE on the five types return the rows of id::text with
-- the same pattern; a literal prefix followed by % is an index range (as ^@), also as a
-- parameter folded in a custom plan; the canonical text's case and alias rules hold.
--
-- 20k deterministic IDs per type (md5 of 1..20000 through the bigint and bytea casts) plus a
-- NULL id, inserted in ID order, indexed and analyzed; 2k where IDTYPES_REGRESS_SMALL is set (most
-- of CI's lanes: test/run_matrix.py; like_1.out), which keeps every plan and check.
\getenv regress_small IDTYPES_REGRESS_SMALL
\if :{?regress_small}
\set rows 2000
\else
\set rows 20000
\endif
SET timezone = 'UTC';

CREATE TABLE lk_uid11 (n int, id uid11) WITH (autovacuum_enabled = off);
CREATE TABLE lk_timeid (n int, id timeid) WITH (autovacuum_enabled = off);
CREATE TABLE lk_ulidflake (n int, id ulidflake) WITH (autovacuum_enabled = off);
CREATE TABLE lk_ulid (n int, id ulid) WITH (autovacuum_enabled = off);
CREATE TABLE lk_euid (n int, id euid) WITH (autovacuum_enabled = off);
INSERT INTO lk_uid11
SELECT i, ('x' || left(md5(i::text), 16))::bit(64)::bigint::uid11
FROM generate_series(1, :rows) i ORDER BY 2;
INSERT INTO lk_timeid
SELECT i, (('x' || left(md5(i::text), 16))::bit(64)::bigint & 9223372036854775807)::timeid
FROM generate_series(1, :rows) i ORDER BY 2;
INSERT INTO lk_ulidflake
SELECT i, (('x' || left(md5(i::text), 16))::bit(64)::bigint & 9223372036854775807)::ulidflake
FROM generate_series(1, :rows) i ORDER BY 2;
INSERT INTO lk_ulid SELECT i, decode(md5(i::text), 'hex')::ulid
FROM generate_series(1, :rows) i ORDER BY 2;
INSERT INTO lk_euid SELECT i, decode(md5(i::text), 'hex')::euid
FROM generate_series(1, :rows) i ORDER BY 2;
INSERT INTO lk_uid11 VALUES (0, NULL);
INSERT INTO lk_timeid VALUES (0, NULL);
INSERT INTO lk_ulidflake VALUES (0, NULL);
INSERT INTO lk_ulid VALUES (0, NULL);
INSERT INTO lk_euid VALUES (0, NULL);
CREATE INDEX lk_uid11_id ON lk_uid11 (id);
CREATE INDEX lk_timeid_id ON lk_timeid (id);
CREATE INDEX lk_ulidflake_id ON lk_ulidflake (id);
CREATE INDEX lk_ulid_id ON lk_ulid (id);
CREATE INDEX lk_euid_id ON lk_euid (id);
VACUUM ANALYZE lk_uid11, lk_timeid, lk_ulidflake, lk_ulid, lk_euid;

-- ---- the rows of id::text ----------------------------------------------------------------------

-- "id <cond>" against "id::text <cond>" on table tbl, cond holding a constant pattern (so the
-- planner's rewrite applies): the rows "id <cond>" returns, and how many rows (NULL id included)
-- the two disagree on, as a WHERE clause (either way) and as a value (IS DISTINCT FROM). Two
-- scans: the rows of "WHERE id <cond>" (its plan: an index range where the pattern has a
-- prefix), and one sequential scan for the rows of "WHERE id::text <cond>" and the values; the
-- rows either way are counted only where the two lists of n (unique) differ.
CREATE FUNCTION lk_check(tbl regclass, cond text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	hits bigint;
	by_id int[];
	by_text int[];
	differ bigint := 0;
	values_differ bigint;
BEGIN
	EXECUTE format('SELECT count(*), array_agg(n ORDER BY n) FROM %s WHERE id %s', tbl, cond)
		INTO hits, by_id;
	EXECUTE format('SELECT array_agg(n ORDER BY n) FILTER (WHERE id::text %2$s),
		count(*) FILTER (WHERE (id %2$s) IS DISTINCT FROM (id::text %2$s)) FROM %1$s', tbl, cond)
		INTO by_text, values_differ;
	IF by_id IS DISTINCT FROM by_text THEN
		EXECUTE format('SELECT count(*) FROM ((SELECT n FROM %1$s WHERE id %2$s
			EXCEPT ALL SELECT n FROM %1$s WHERE id::text %2$s)
			UNION ALL (SELECT n FROM %1$s WHERE id::text %2$s
			EXCEPT ALL SELECT n FROM %1$s WHERE id %2$s)) d', tbl, cond) INTO differ;
	END IF;
	RETURN hits || CASE WHEN differ + values_differ = 0 THEN '' ELSE ' DIFFER ' || differ || '/' || values_differ END;
END
$$;

-- Patterns built from one stored ID's text v (that of n = 1): prefix, lower-case prefix, infix,
-- _, escaped ordinary and wildcard characters, no wildcard, the whole text, longer than the
-- text, non-ASCII, NULL.
CREATE FUNCTION lk_patterns(v text) RETURNS TABLE (label text, pattern text) LANGUAGE sql AS $$
	VALUES ('prefix', left(v, 3) || '%'),
		('prefix %%', left(v, 3) || '%%'),
		('lower prefix', lower(left(v, 3)) || '%'),
		('upper prefix', upper(left(v, 3)) || '%'),
		('infix', '%' || substr(v, 6, 2) || '%'),
		('lower infix', '%' || lower(substr(v, 6, 2)) || '%'),
		('suffix', '%' || right(v, 1)),
		('underscore', left(v, 1) || '_' || substr(v, 3, 1) || '%'),
		('escaped symbol', left(v, 2) || '\' || substr(v, 3, 1) || '%'),
		('escaped _', '\_%'),
		('escaped %', '%\%'),
		('no wildcard', left(v, 3)),
		('whole text', v),
		('whole text %', v || '%'),
		('longer', v || '2%'),
		('all', '%'),
		('empty', ''),
		('non-ASCII', 'é%'),
		('NULL', NULL)
$$;

CREATE FUNCTION lk_matrix(tbl regclass) RETURNS TABLE (label text, "like" text, "not like" text,
	"ilike" text, "not ilike" text) LANGUAGE plpgsql AS $$
DECLARE
	v text;
BEGIN
	EXECUTE format('SELECT id::text FROM %s WHERE n = 1', tbl) INTO v;
	RETURN QUERY SELECT p.label,
		lk_check(tbl, format('LIKE %L', p.pattern)),
		lk_check(tbl, format('NOT LIKE %L', p.pattern)),
		lk_check(tbl, format('ILIKE %L', p.pattern)),
		lk_check(tbl, format('NOT ILIKE %L', p.pattern))
	FROM lk_patterns(v) p;
END
$$;

SELECT * FROM lk_matrix('lk_uid11');
SELECT * FROM lk_matrix('lk_timeid');
SELECT * FROM lk_matrix('lk_ulidflake');
SELECT * FROM lk_matrix('lk_ulid');
SELECT * FROM lk_matrix('lk_euid');

-- LIKE ... ESCAPE (core's like_escape): a literal _ after the ESCAPE character, a wildcard
-- without it, and no escape character at all
SELECT t, lk_check(t, format('LIKE %L ESCAPE ''#''', left(v, 2) || '#_%')) AS "escaped _",
	lk_check(t, format('LIKE %L ESCAPE ''#''', left(v, 2) || '_%')) AS "_",
	lk_check(t, format('LIKE %L ESCAPE ''#''', left(v, 2) || '#' || substr(v, 3, 1) || '%')) AS "escaped symbol",
	lk_check(t, format('ILIKE %L ESCAPE ''''', lower(left(v, 3)) || '%')) AS "no escape"
FROM (VALUES ('lk_uid11'::regclass, (SELECT id::text FROM lk_uid11 WHERE n = 1)),
	('lk_timeid', (SELECT id::text FROM lk_timeid WHERE n = 1)),
	('lk_ulidflake', (SELECT id::text FROM lk_ulidflake WHERE n = 1)),
	('lk_ulid', (SELECT id::text FROM lk_ulid WHERE n = 1)),
	('lk_euid', (SELECT id::text FROM lk_euid WHERE n = 1))) s(t, v);

-- euid prefixes that reach the check symbols (26 symbols) and a whole text with another check
-- symbol; timeid's display dashes (no canonical text has them)
SELECT lk_check('lk_euid', format('LIKE %L', left(id::text, 26) || '%')) AS "26 symbols",
	lk_check('lk_euid', format('LIKE %L', left(id::text, 26) ||
		CASE WHEN right(id::text, 1) = '0' THEN '1' ELSE '0' END || '%')) AS "other check"
FROM lk_euid WHERE n = 1;
SELECT lk_check('lk_timeid', format('LIKE %L', timeid_dashed(id))) AS dashed,
	lk_check('lk_timeid', format('LIKE %L', left(timeid_dashed(id), 6) || '%')) AS "dashed prefix"
FROM lk_timeid WHERE n = 1;

-- NULL ids and NULL patterns, as values
SELECT NULL::ulid LIKE '0%' AS "null id", '01M8K2V4PQ0000000000000000'::ulid LIKE NULL AS "null pattern",
	'01M8K2V4PQ0000000000000000'::ulid LIKE '01M8%' AS "like", '01M8K2V4PQ0000000000000000'::ulid LIKE '01m8%' AS "lower case",
	'01M8K2V4PQ0000000000000000'::ulid ILIKE '01m8%' AS "ilike";
SELECT id, id LIKE '01m8%' AS "like lower", id ILIKE '01m8%' AS "ilike lower", id NOT LIKE '01M8%' AS "not like"
FROM (VALUES ('01M8K2V4PQ0000000000000000'::ulid), (NULL)) v(id);

-- errors are core's
\set VERBOSITY terse
SELECT '01M8K2V4PQ0000000000000000'::ulid LIKE '01M8\';
SELECT lk_check('lk_ulid', 'LIKE ''01M8\''');
\set VERBOSITY default

-- ---- the case and alias rules are text's ---------------------------------------------------------

-- ^@ reads its prefix as input (either case), LIKE compares the canonical text (upper case)
SELECT (SELECT count(*) FROM lk_ulid WHERE id ^@ '4b') AS "^@ '4b'",
	(SELECT count(*) FROM lk_ulid WHERE id LIKE '4b%') AS "LIKE '4b%'",
	(SELECT count(*) FROM lk_ulid WHERE id::text LIKE '4b%') AS "::text LIKE '4b%'",
	(SELECT count(*) FROM lk_ulid WHERE id LIKE '4B%') AS "LIKE '4B%'",
	(SELECT count(*) FROM lk_ulid WHERE id ILIKE '4b%') AS "ILIKE '4b%'";
-- euid's aliases: ^@ reads O as 0, LIKE does not
SELECT (SELECT count(*) FROM lk_euid WHERE id ^@ replace(left(v, 3), '0', 'O')) AS "^@ alias",
	(SELECT count(*) FROM lk_euid WHERE id LIKE replace(left(v, 3), '0', 'O') || '%') AS "LIKE alias"
FROM (SELECT '0' || substr(id::text, 2) AS v FROM lk_euid WHERE id::text LIKE '0%' ORDER BY n LIMIT 1) s;

-- ---- plans -------------------------------------------------------------------------------------------

-- a constant prefix: the ^@ range as the index condition, on every type
EXPLAIN (COSTS OFF) SELECT n FROM lk_uid11 WHERE id LIKE '3x%';
EXPLAIN (COSTS OFF) SELECT n FROM lk_timeid WHERE id LIKE '4b%';
EXPLAIN (COSTS OFF) SELECT n FROM lk_ulidflake WHERE id LIKE '4B%';
EXPLAIN (COSTS OFF) SELECT n FROM lk_ulid WHERE id LIKE '4B%';
EXPLAIN (COSTS OFF) SELECT n FROM lk_euid WHERE id LIKE '4B%';
-- with an escaped symbol and with LIKE ... ESCAPE
EXPLAIN (COSTS OFF) SELECT n FROM lk_ulid WHERE id LIKE '4\B%';
EXPLAIN (COSTS OFF) SELECT n FROM lk_ulid WHERE id LIKE '4#B%' ESCAPE '#';
-- no canonical text starts with these: false (NULL for a NULL id), nothing scanned (the plan
-- without the "Replaces: Scan on ..." line PostgreSQL 19 adds to such a Result)
CREATE FUNCTION lk_plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF l !~ '^\s*Replaces: ' THEN
			RETURN NEXT l;
		END IF;
	END LOOP;
END $$;
SELECT lk_plan($q$SELECT n FROM lk_ulid WHERE id LIKE '4b%'$q$);
SELECT lk_plan($q$SELECT n FROM lk_timeid WHERE id LIKE '4b22-%'$q$);
DROP FUNCTION lk_plan(text);
-- not a prefix pattern: the operator as a filter
EXPLAIN (COSTS OFF) SELECT n FROM lk_ulid WHERE id LIKE '4_Z%';
EXPLAIN (COSTS OFF) SELECT n FROM lk_ulid WHERE id LIKE '%4B%';
EXPLAIN (COSTS OFF) SELECT n FROM lk_ulid WHERE id NOT LIKE '4B%';

-- ILIKE: the prefix folded to the text's case where it has one (Crockford upper, timeid lower);
-- not on uid11 (Base58 has both cases), nor a timeid prefix with an upper-case I (Turkish
-- locales lower it to a dotless i)
EXPLAIN (COSTS OFF) SELECT n FROM lk_ulid WHERE id ILIKE '4b%';
EXPLAIN (COSTS OFF) SELECT n FROM lk_ulidflake WHERE id ILIKE '4b%';
EXPLAIN (COSTS OFF) SELECT n FROM lk_euid WHERE id ILIKE '4b%';
EXPLAIN (COSTS OFF) SELECT n FROM lk_timeid WHERE id ILIKE '4B%';
EXPLAIN (COSTS OFF) SELECT n FROM lk_timeid WHERE id ILIKE '4I%';
EXPLAIN (COSTS OFF) SELECT n FROM lk_uid11 WHERE id ILIKE '3x%';

-- how ORMs bind starts-with: a parameter folded in a custom plan is an index range; a generic
-- plan cannot know the pattern
PREPARE lk_starts(text) AS SELECT n FROM lk_ulid WHERE id LIKE $1 || '%';
PREPARE lk_istarts(text) AS SELECT n FROM lk_timeid WHERE id ILIKE $1 || '%';
SET plan_cache_mode = force_custom_plan;
EXPLAIN (COSTS OFF) EXECUTE lk_starts('4B');
EXPLAIN (COSTS OFF) EXECUTE lk_istarts('4B');
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE lk_starts('4B');
RESET plan_cache_mode;
PREPARE lk_count(text) AS SELECT count(*) FROM lk_ulid WHERE id LIKE $1 || '%';
SET plan_cache_mode = force_custom_plan;
EXECUTE lk_count('4B');
SET plan_cache_mode = force_generic_plan;
EXECUTE lk_count('4B');
RESET plan_cache_mode;

-- the same rows with and without the index
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT count(*), min(n), max(n) FROM lk_ulid WHERE id LIKE '4B%';
SELECT count(*), min(n), max(n) FROM lk_timeid WHERE id ILIKE '4B%';
RESET enable_indexscan;
RESET enable_bitmapscan;
SELECT count(*), min(n), max(n) FROM lk_ulid WHERE id LIKE '4B%';
SELECT count(*), min(n), max(n) FROM lk_timeid WHERE id ILIKE '4B%';

-- ---- estimates -------------------------------------------------------------------------------------

-- the planner's row estimate for a query
CREATE FUNCTION lk_estimate(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::bigint;
END
$$;

-- The rows of a query, counted.
CREATE FUNCTION lk_count(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	c bigint;
BEGIN
	EXECUTE 'SELECT count(*) FROM (' || q || ') s' INTO c;
	RETURN c;
END
$$;

-- A prefix holding 0.2-3.5% of the rows: LIKE estimates as ^@ does, within 2x of the count; ILIKE
-- on a single-case type too. An infix, NOT LIKE and a uid11 ILIKE prefix are estimated from
-- the operator over the column's statistics: not one row, not every row.
SELECT t, p, c AS rows, c BETWEEN :rows * 0.002 AND :rows * 0.035 AS "0.2-3.5%",
	lk_estimate(format('SELECT n FROM %s WHERE id LIKE %L', t, p || '%'))
		= lk_estimate(format('SELECT n FROM %s WHERE id ^@ %L', t, p)) AS "as ^@",
	c BETWEEN e / 2 AND e * 2 AS "within 2x",
	lk_estimate(format('SELECT n FROM %s WHERE id ILIKE %L', t, p || '%')) BETWEEN c / 2 AND c * 2
		AS "ILIKE within 2x"
FROM (VALUES ('lk_uid11'::regclass, '3'), ('lk_timeid', '4b'), ('lk_ulidflake', '4B'),
	('lk_ulid', '4B'), ('lk_euid', '4')) s(t, p),
	LATERAL (SELECT lk_count(format('SELECT n FROM %s WHERE id::text LIKE %L', t, p || '%')) AS c,
		lk_estimate(format('SELECT n FROM %s WHERE id LIKE %L', t, p || '%')) AS e) x;
SELECT t, p, c AS rows, e BETWEEN 2 AND :rows * 0.95 AS "neither 1 row nor all", e BETWEEN c / 3 AND c * 3 AS "within 3x",
	lk_estimate(format('SELECT n FROM %s WHERE id NOT LIKE %L', t, '%' || p || '%')) BETWEEN :rows - 3 * c AND :rows
		AS "NOT LIKE"
FROM (VALUES ('lk_uid11'::regclass, '3'), ('lk_timeid', '4b'), ('lk_ulidflake', '4B'),
	('lk_ulid', '4B'), ('lk_euid', '4B')) s(t, p),
	LATERAL (SELECT lk_count(format('SELECT n FROM %s WHERE id::text LIKE %L', t, '%' || p || '%')) AS c,
		lk_estimate(format('SELECT n FROM %s WHERE id LIKE %L', t, '%' || p || '%')) AS e) x;

-- ---- partitions ----------------------------------------------------------------------------------

-- a prefix pattern prunes as ^@ does
CREATE TABLE lk_parts (id ulid) PARTITION BY RANGE (id);
CREATE TABLE lk_parts_0 PARTITION OF lk_parts FOR VALUES FROM (MINVALUE) TO ('40000000000000000000000000');
CREATE TABLE lk_parts_4 PARTITION OF lk_parts FOR VALUES FROM ('40000000000000000000000000') TO (MAXVALUE);
INSERT INTO lk_parts SELECT id FROM lk_ulid WHERE id IS NOT NULL;
EXPLAIN (COSTS OFF) SELECT count(*) FROM lk_parts WHERE id LIKE '4B%';
EXPLAIN (COSTS OFF) SELECT count(*) FROM lk_parts WHERE id LIKE '4%';
SELECT count(*) FROM lk_parts WHERE id LIKE '4B%';
SET plan_cache_mode = force_custom_plan;
PREPARE lk_parts_starts(text) AS SELECT count(*) FROM lk_parts WHERE id LIKE $1 || '%';
EXPLAIN (COSTS OFF) EXECUTE lk_parts_starts('4');
RESET plan_cache_mode;

-- ---- a nondeterministic collation -----------------------------------------------------------------

-- It may match other text than the bytes (here either case), so a prefix is not rewritten: the
-- operator gives what id::text gives, rows where the server's LIKE supports such a collation
-- (18+), its error before.
CREATE COLLATION lk_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE FUNCTION lk_same(q1 text, q2 text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	a text;
	b text;
BEGIN
	BEGIN
		EXECUTE q1 INTO a;
	EXCEPTION WHEN others THEN
		a := SQLERRM;
	END;
	BEGIN
		EXECUTE q2 INTO b;
	EXCEPTION WHEN others THEN
		b := SQLERRM;
	END;
	RETURN CASE WHEN a IS NOT DISTINCT FROM b THEN 'same' ELSE a || ' / ' || b END;
END
$$;
SELECT op, lk_same(format('SELECT count(*) FROM lk_ulid WHERE id %s %L COLLATE lk_ci', op, '4b%'),
	format('SELECT count(*) FROM lk_ulid WHERE id::text %s %L COLLATE lk_ci', op, '4b%'))
FROM unnest(ARRAY['LIKE', 'ILIKE', 'NOT LIKE']) op;
DROP FUNCTION lk_same;
DROP COLLATION lk_ci;

-- ---- row-level security ---------------------------------------------------------------------------

-- The functions are declared as core's textlike: IMMUTABLE, STRICT, PARALLEL SAFE, not LEAKPROOF
-- (a malformed pattern is an error that shows it).
SELECT DISTINCT o.oprname, p.provolatile, p.proisstrict, p.proparallel, p.proleakproof
FROM pg_operator o JOIN pg_proc p ON p.oid = o.oprcode
WHERE o.oprname IN ('~~', '!~~', '~~*', '!~~*') AND o.oprleft IN ('uid11'::regtype, 'timeid'::regtype,
	'ulidflake'::regtype, 'ulid'::regtype, 'euid'::regtype)
ORDER BY 1;
SELECT proname, provolatile, proisstrict, proparallel, proleakproof FROM pg_proc
WHERE oid IN ('textlike'::regproc, 'texticlike'::regproc) ORDER BY 1;
-- Under a policy a prefix pattern is still an index condition: through ^@, whose rewrite into
-- the leakproof <@ applies there.
SET jit = off;
CREATE TABLE lk_rls AS SELECT n, id FROM lk_ulid;
CREATE INDEX lk_rls_id ON lk_rls (id);
ANALYZE lk_rls;
ALTER TABLE lk_rls ENABLE ROW LEVEL SECURITY;
CREATE POLICY lk_even ON lk_rls USING (n % 2 = 0);
CREATE ROLE regress_idt_like;
GRANT SELECT ON lk_rls TO regress_idt_like;
SET enable_seqscan = off;
SET ROLE regress_idt_like;
EXPLAIN (COSTS OFF) SELECT n FROM lk_rls WHERE id LIKE '4B%';
EXPLAIN (COSTS OFF) SELECT n FROM lk_rls WHERE id ILIKE '4b%';
SELECT (SELECT count(*) FROM lk_rls WHERE id LIKE '4B%') AS "like",
	(SELECT count(*) FROM lk_rls WHERE id::text LIKE '4B%') AS "text like",
	(SELECT count(*) FROM lk_rls WHERE id ILIKE '4b%') AS "ilike";
RESET ROLE;
RESET enable_seqscan;
RESET jit;
DROP TABLE lk_rls;
DROP ROLE regress_idt_like;

DROP TABLE lk_parts, lk_uid11, lk_timeid, lk_ulidflake, lk_ulid, lk_euid;
DROP FUNCTION lk_check, lk_patterns, lk_matrix, lk_estimate, lk_count;
