-- prefix_index: ^@ and <@ become btree index range scans (planner support), with the same rows.
--
-- 100k deterministic IDs per type (md5 of 1..100000 through the bigint and bytea casts), inserted
-- in ID order like time-ordered IDs, analyzed, normal planner settings; 10k where
-- IDTYPES_REGRESS_SMALL is set (most of CI's lanes: test/run_matrix.py; prefix_index_1.out),
-- which keeps every plan and check. probe: the second row whose prefixes are queried one by one.
\getenv regress_small IDTYPES_REGRESS_SMALL
\if :{?regress_small}
\set rows 10000
\set probe 7777
\else
\set rows 100000
\set probe 77777
\endif
SET timezone = 'UTC';

CREATE TABLE pi_uid11 (n int, id uid11) WITH (autovacuum_enabled = off);
CREATE TABLE pi_timeid (n int, id timeid) WITH (autovacuum_enabled = off);
CREATE TABLE pi_ulidflake (n int, id ulidflake) WITH (autovacuum_enabled = off);
CREATE TABLE pi_ulid (n int, id ulid) WITH (autovacuum_enabled = off);
CREATE TABLE pi_euid (n int, id euid) WITH (autovacuum_enabled = off);
INSERT INTO pi_uid11
SELECT i, ('x' || left(md5(i::text), 16))::bit(64)::bigint::uid11
FROM generate_series(1, :rows) i ORDER BY 2;
INSERT INTO pi_timeid
SELECT i, (('x' || left(md5(i::text), 16))::bit(64)::bigint & 9223372036854775807)::timeid
FROM generate_series(1, :rows) i ORDER BY 2;
INSERT INTO pi_ulidflake
SELECT i, (('x' || left(md5(i::text), 16))::bit(64)::bigint & 9223372036854775807)::ulidflake
FROM generate_series(1, :rows) i ORDER BY 2;
INSERT INTO pi_ulid SELECT i, decode(md5(i::text), 'hex')::ulid
FROM generate_series(1, :rows) i ORDER BY 2;
INSERT INTO pi_euid SELECT i, decode(md5(i::text), 'hex')::euid
FROM generate_series(1, :rows) i ORDER BY 2;
CREATE INDEX pi_uid11_id ON pi_uid11 (id);
CREATE INDEX pi_timeid_id ON pi_timeid (id);
CREATE INDEX pi_ulidflake_id ON pi_ulidflake (id);
CREATE INDEX pi_ulid_id ON pi_ulid (id);
CREATE INDEX pi_euid_id ON pi_euid (id);
VACUUM ANALYZE pi_uid11, pi_timeid, pi_ulidflake, pi_ulid, pi_euid;

-- ---- plans with a constant right side ------------------------------------------------------------

-- ^@ gives the prefix's [lo, hi] as the index condition (exact: no recheck filter)
EXPLAIN (COSTS OFF) SELECT n, id FROM pi_uid11 WHERE id ^@ '6o6';
EXPLAIN (COSTS OFF) SELECT n, id FROM pi_timeid WHERE id ^@ '47d';
EXPLAIN (COSTS OFF) SELECT n, id FROM pi_timeid WHERE id ^@ '47da-tq3';
EXPLAIN (COSTS OFF) SELECT n, id FROM pi_ulidflake WHERE id ^@ '259';
EXPLAIN (COSTS OFF) SELECT n, id FROM pi_ulid WHERE id ^@ '12m';
EXPLAIN (COSTS OFF) SELECT n, id FROM pi_euid WHERE id ^@ '4aj';
-- euid prefixes that reach the check symbols: the range, then the text as a filter
EXPLAIN (COSTS OFF) SELECT n, id FROM pi_euid WHERE id ^@ '4AJDKC2FX5E9H4XM3RQXX0X44Z'
ORDER BY 1;
-- a prefix past the type's maximum: lo > hi, which the btree sees as matching nothing
EXPLAIN (COSTS OFF) SELECT n, id FROM pi_ulid WHERE id ^@ '8';
-- the function form is supported too
EXPLAIN (COSTS OFF) SELECT n, id FROM pi_uid11 WHERE uid11_starts_with(id, '6o6');

-- <@ with a prefix range and with a time range (both fold to constants)
EXPLAIN (COSTS OFF) SELECT count(*) FROM pi_uid11 WHERE id <@ uid11_prefix_range('6o6');
EXPLAIN (COSTS OFF) SELECT count(*) FROM pi_timeid WHERE id <@ timeid_prefix_range('47d');
EXPLAIN (COSTS OFF) SELECT count(*) FROM pi_ulidflake WHERE id <@ ulidflake_prefix_range('259');
EXPLAIN (COSTS OFF) SELECT count(*) FROM pi_ulid WHERE id <@ ulid_prefix_range('12M');
EXPLAIN (COSTS OFF) SELECT count(*) FROM pi_euid WHERE id <@ euid_prefix_range('4AJ');
EXPLAIN (COSTS OFF) SELECT n, id FROM pi_uid11
WHERE id <@ uid11_time_range('[2024-07-19,2024-07-20)');
EXPLAIN (COSTS OFF) SELECT n, id FROM pi_timeid
WHERE id <@ timeid_time_range('[2024-07-19,2024-07-26)');
EXPLAIN (COSTS OFF) SELECT n, id FROM pi_ulidflake
WHERE id <@ ulidflake_time_range('[2100-01-01,2100-01-08)');
EXPLAIN (COSTS OFF) SELECT n, id FROM pi_ulid WHERE id <@ ulid_time_range('[2024-01-01,2025-01-01)');
EXPLAIN (COSTS OFF) SELECT n, id FROM pi_euid WHERE id <@ euid_time_range('[2024-07-01,2024-08-01)');
-- open bounds: the next ID inward
EXPLAIN (COSTS OFF) SELECT n, id FROM pi_uid11 WHERE id <@ '(6o611111111,6o6zzzzzzzz)';

-- ---- plans with a parameter (generic plans) and an outer column --------------------------------

PREPARE pi_uid11_sw(text) AS
	SELECT count(*), sum(hashtext(id::text)) FROM pi_uid11 WHERE id ^@ $1;
PREPARE pi_timeid_sw(text) AS
	SELECT count(*), sum(hashtext(id::text)) FROM pi_timeid WHERE id ^@ $1;
PREPARE pi_ulidflake_sw(text) AS
	SELECT count(*), sum(hashtext(id::text)) FROM pi_ulidflake WHERE id ^@ $1;
PREPARE pi_ulid_sw(text) AS
	SELECT count(*), sum(hashtext(id::text)) FROM pi_ulid WHERE id ^@ $1;
PREPARE pi_euid_sw(text) AS
	SELECT count(*), sum(hashtext(id::text)) FROM pi_euid WHERE id ^@ $1;
PREPARE pi_uid11_in(uid11range) AS
	SELECT count(*), sum(hashtext(id::text)) FROM pi_uid11 WHERE id <@ $1;
PREPARE pi_timeid_in(timeidrange) AS
	SELECT count(*), sum(hashtext(id::text)) FROM pi_timeid WHERE id <@ $1;
PREPARE pi_ulidflake_in(ulidflakerange) AS
	SELECT count(*), sum(hashtext(id::text)) FROM pi_ulidflake WHERE id <@ $1;
PREPARE pi_ulid_in(ulidrange) AS
	SELECT count(*), sum(hashtext(id::text)) FROM pi_ulid WHERE id <@ $1;
PREPARE pi_euid_in(euidrange) AS
	SELECT count(*), sum(hashtext(id::text)) FROM pi_euid WHERE id <@ $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE pi_uid11_sw('6o6');
EXPLAIN (COSTS OFF) EXECUTE pi_timeid_sw('47d');
EXPLAIN (COSTS OFF) EXECUTE pi_ulidflake_sw('259');
EXPLAIN (COSTS OFF) EXECUTE pi_ulid_sw('12M');
EXPLAIN (COSTS OFF) EXECUTE pi_euid_sw('4AJ');
EXPLAIN (COSTS OFF) EXECUTE pi_uid11_in('[6o611111111,6o6zzzzzzzz]');
EXPLAIN (COSTS OFF) EXECUTE pi_timeid_in('[47d2222222222,47dzzzzzzzzzz]');
EXPLAIN (COSTS OFF) EXECUTE pi_ulidflake_in('[2590000000000,259ZZZZZZZZZZ]');
EXPLAIN (COSTS OFF) EXECUTE pi_ulid_in(ulid_prefix_range('12M'));
EXPLAIN (COSTS OFF) EXECUTE pi_euid_in(euid_prefix_range('4AJ'));

-- a column of another relation (nested loop, parameterized index scan)
EXPLAIN (COSTS OFF) SELECT v.p, t.id FROM (VALUES ('6o6'), ('Zv7')) v(p) JOIN pi_uid11 t ON t.id ^@ v.p;
SELECT v.p, t.id FROM (VALUES ('6o6'), ('Zv7')) v(p) JOIN pi_uid11 t ON t.id ^@ v.p ORDER BY t.id;

-- ---- row estimates ------------------------------------------------------------------------------

-- The RESTRICT estimator of ^@ and <@ (and the support function, for the function form) reads
-- the column's histogram: the planner's row estimate is within a factor of 2 of the true count
-- (the estimates themselves vary a little with ANALYZE's sample).
CREATE FUNCTION pi_estimate(stmt text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || stmt INTO plan;
	RETURN (plan->0->'Plan'->>'Plan Rows')::float8;
END $$;
CREATE FUNCTION pi_count(stmt text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	c bigint;
BEGIN
	EXECUTE 'SELECT count(*) FROM (' || stmt || ') s' INTO c;
	RETURN c;
END $$;
SELECT stmt, pi_count(stmt) AS actual,
       pi_estimate(stmt) BETWEEN pi_count(stmt) / 2.0 AND pi_count(stmt) * 2.0 AS estimate_ok
FROM (VALUES ('SELECT id FROM pi_uid11 WHERE id ^@ ''Z'''),
             ('SELECT id FROM pi_uid11 WHERE id ^@ ''Zv'''),
             ('SELECT id FROM pi_uid11 WHERE uid11_starts_with(id, ''Zv'')'),
             ('SELECT id FROM pi_uid11 WHERE id <@ uid11_time_range(''[2024-01-01,2025-01-01)'')'),
             ('SELECT id FROM pi_timeid WHERE id ^@ ''6d'''),
             ('SELECT id FROM pi_timeid WHERE id <@ timeid_prefix_range(''6d'')'),
             ('SELECT id FROM pi_ulidflake WHERE id ^@ ''49'''),
             ('SELECT id FROM pi_ulidflake WHERE ulidflake_contained(id, ''[4000000000000,4ZZZZZZZZZZZZ]'')'),
             ('SELECT id FROM pi_ulid WHERE id ^@ ''64'''),
             ('SELECT id FROM pi_ulid WHERE id <@ ulid_time_range(''[2000-01-01,2100-01-01)'')'),
             ('SELECT id FROM pi_euid WHERE id ^@ ''R'''),
             ('SELECT id FROM pi_euid WHERE id ^@ ''RK'''),
             ('SELECT id FROM pi_euid WHERE euid_starts_with(id, ''rk'')')) v(stmt);
-- an empty range: one row (the planner's minimum); the whole domain: every row
SELECT pi_estimate('SELECT id FROM pi_ulid WHERE id ^@ ''8''') AS beyond_max,
       pi_estimate('SELECT id FROM pi_ulid WHERE id ^@ ''''') AS whole_domain,
       pi_estimate('SELECT id FROM pi_ulid WHERE id <@ ''(,)''') AS unbounded;
DROP FUNCTION pi_estimate(text), pi_count(text);

-- ---- the rows: index scans and sequential scans of the same predicate agree ----------------------

-- the constant-prefix queries above, through the index ...
SELECT 'uid11' AS type, count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM pi_uid11 WHERE id ^@ '6o6'
UNION ALL
SELECT 'timeid', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM pi_timeid WHERE id ^@ '47d'
UNION ALL
SELECT 'ulidflake', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM pi_ulidflake WHERE id ^@ '259'
UNION ALL
SELECT 'ulid', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM pi_ulid WHERE id ^@ '12m'
UNION ALL
SELECT 'euid', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM pi_euid WHERE id ^@ '4aj'
UNION ALL
SELECT 'euid 26', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM pi_euid WHERE id ^@ '4AJDKC2FX5E9H4XM3RQXX0X44Z'
ORDER BY 1;
-- ... and without it
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM pi_uid11 WHERE id ^@ '6o6';
SELECT 'uid11' AS type, count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM pi_uid11 WHERE id ^@ '6o6'
UNION ALL
SELECT 'timeid', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM pi_timeid WHERE id ^@ '47d'
UNION ALL
SELECT 'ulidflake', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM pi_ulidflake WHERE id ^@ '259'
UNION ALL
SELECT 'ulid', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM pi_ulid WHERE id ^@ '12m'
UNION ALL
SELECT 'euid', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM pi_euid WHERE id ^@ '4aj'
UNION ALL
SELECT 'euid 26', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM pi_euid WHERE id ^@ '4AJDKC2FX5E9H4XM3RQXX0X44Z'
ORDER BY 1;
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;

-- Every length 0..full of the prefixes of two IDs per type, the second in the type's other
-- spellings (lower case for Crockford types, aliases for euid, display dashes for timeid): q is
-- the prefix queried, p its canonical spelling and canon the text that must start with p. Plus
-- prefixes past the maximum, the maximum itself, and euid prefixes whose last symbols hold other
-- check bits than the ID's (its range holds the ID, its text does not start the ID's text).
CREATE TEMP TABLE pi_probe (k serial, t text, q text, p text, canon text, exact bool);
INSERT INTO pi_probe (t, q, p, canon, exact)
SELECT DISTINCT * FROM (
	SELECT 'uid11', left(id::text, l), left(id::text, l), 'id::text', true
	FROM pi_uid11, generate_series(0, 11) l WHERE n IN (1, :probe)
	UNION ALL
	SELECT 'timeid', left(id::text, l), left(id::text, l), 'id::text', true
	FROM pi_timeid, generate_series(0, 13) l WHERE n = 1
	UNION ALL
	SELECT 'timeid', left(timeid_dashed(id), l), left(timeid_dashed(id), l), 'timeid_dashed(id)', true
	FROM pi_timeid, generate_series(0, 16) l WHERE n = :probe
	UNION ALL
	SELECT 'ulidflake', CASE n WHEN 1 THEN left(id::text, l) ELSE lower(left(id::text, l)) END,
	       left(id::text, l), 'id::text', true
	FROM pi_ulidflake, generate_series(0, 13) l WHERE n IN (1, :probe)
	UNION ALL
	SELECT 'ulid', CASE n WHEN 1 THEN left(id::text, l) ELSE lower(left(id::text, l)) END,
	       left(id::text, l), 'id::text', true
	FROM pi_ulid, generate_series(0, 26) l WHERE n IN (1, :probe)
	UNION ALL
	SELECT 'euid', CASE n WHEN 1 THEN left(id::text, l)
	                      ELSE translate(left(id::text, l), '01', CASE l % 2 WHEN 0 THEN 'oi' ELSE 'OL' END) END,
	       left(id::text, l), 'id::text', l <= 25
	FROM pi_euid, generate_series(0, 27) l WHERE n IN (1, :probe)
	UNION ALL
	-- the 26th symbol is 3 value bits and 2 check bits: keep the value, change the check bits
	SELECT 'euid', left(id::text, 25) || sym, left(id::text, 25) || sym, 'id::text', false
	FROM pi_euid,
	     LATERAL (SELECT strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(id::text, 26, 1)) - 1 AS d) x,
	     LATERAL (SELECT substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((d & 28) | c) + 1, 1) AS sym
	              FROM generate_series(0, 3) c WHERE c <> d & 3) y
	WHERE n IN (1, :probe)
	UNION ALL
	-- check 127 ("no check")
	SELECT 'euid', left(id::text, 25) || sym || 'Z', left(id::text, 25) || sym || 'Z', 'id::text', false
	FROM pi_euid,
	     LATERAL (SELECT strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(id::text, 26, 1)) - 1 AS d) x,
	     LATERAL (SELECT substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (d | 3) + 1, 1) AS sym) y
	WHERE n IN (1, :probe)
	UNION ALL
	VALUES ('uid11', 'jpXCZedGfVQ', 'jpXCZedGfVQ', 'id::text', true),
	       ('uid11', 'jq', 'jq', 'id::text', true),
	       ('timeid', 'bzzzzzzzzzzzz', 'bzzzzzzzzzzzz', 'id::text', true),
	       ('timeid', 'c', 'c', 'id::text', true),
	       ('ulidflake', '7zzzzzzzzzzzz', '7ZZZZZZZZZZZZ', 'id::text', true),
	       ('ulidflake', '8', '8', 'id::text', true),
	       ('ulid', '8', '8', 'id::text', true),
	       ('euid', 'zzzzzzzzzzzzzzzzzzzzzzzzzz', 'ZZZZZZZZZZZZZZZZZZZZZZZZZZ', 'id::text', false)
) s;

-- "count:hash" of a query's first row: the rows' count and the sum of their texts' hashes, the
-- same for the same rows in any order (an md5 of the ordered texts cost a sort and a string of
-- every row for each of the prefixes that match every row, a third of this file under qemu-user)
CREATE FUNCTION pi_digest(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	c bigint;
	h text;
BEGIN
	EXECUTE stmt INTO c, h;
	RETURN c || ':' || coalesce(h, '');
END $$;

-- The text test reads each ID's canonical texts stored once (the conversion per row per probe
-- took about 2.4 of this file's 16 s on amd64): pi_text_<type> (id, id::text, and
-- timeid_dashed(id) for timeid).
DO $$
DECLARE
	t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['uid11', 'timeid', 'ulidflake', 'ulid', 'euid'] LOOP
		EXECUTE format('CREATE TEMP TABLE pi_text_%1$s AS SELECT id, id::text AS text, %2$s AS dashed
			FROM pi_%1$s', t, CASE t WHEN 'timeid' THEN 'timeid_dashed(id)' ELSE 'NULL::text' END);
	END LOOP;
END $$;

-- ^@ and <@ <type>_prefix_range() with constants, the same through the generic plans, and
-- the text test
CREATE TEMP TABLE pi_by_index AS
SELECT k, t, q, p, exact,
       pi_digest(format('SELECT count(*), sum(hashtext(id::text)) FROM pi_%s WHERE id ^@ %L', t, q)) AS sw,
       pi_digest(format('EXECUTE pi_%s_sw(%L)', t, q)) AS sw_generic,
       pi_digest(format('SELECT count(*), sum(hashtext(id::text)) FROM pi_%s WHERE id <@ %s_prefix_range(%L)', t, t, q)) AS rng,
       pi_digest(format('EXECUTE pi_%s_in(%s_prefix_range(%L))', t, t, q)) AS rng_generic,
       pi_digest(format('SELECT count(*), sum(hashtext(id::text)) FROM pi_text_%s WHERE %s LIKE %L', t,
           CASE canon WHEN 'id::text' THEN 'text' WHEN 'timeid_dashed(id)' THEN 'dashed' END, p || '%')) AS by_text
FROM pi_probe;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
CREATE TEMP TABLE pi_by_seqscan AS
SELECT k,
       pi_digest(format('SELECT count(*), sum(hashtext(id::text)) FROM pi_%s WHERE id ^@ %L', t, q)) AS sw,
       pi_digest(format('SELECT count(*), sum(hashtext(id::text)) FROM pi_%s WHERE id <@ %s_prefix_range(%L)', t, t, q)) AS rng
FROM pi_probe;
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;

-- rows: IDs found per prefix length (all probes); wrong: probes where ^@ (index, generic
-- plan, sequential scan) differs from the text test, or <@ the prefix range differs between
-- plans or, where the prefix is exact, from the text test
SELECT i.t AS type, length(i.q) AS len, count(*) AS probes,
       sum(split_part(i.sw, ':', 1)::bigint) AS rows,
       count(*) FILTER (WHERE i.sw <> i.by_text OR i.sw_generic <> i.by_text OR s.sw <> i.by_text
                        OR i.rng <> s.rng OR i.rng_generic <> s.rng
                        OR (i.exact AND i.rng <> i.by_text)) AS wrong
FROM pi_by_index i JOIN pi_by_seqscan s USING (k)
GROUP BY 1, 2 ORDER BY 1, 2;

-- where the euid prefix reaches the check symbols the range may be a superset
SELECT count(*) AS probes,
       count(*) FILTER (WHERE split_part(rng, ':', 1)::int > split_part(by_text, ':', 1)::int)
           AS superset,
       count(*) FILTER (WHERE rng = by_text) AS same
FROM pi_by_index WHERE t = 'euid' AND NOT exact;

RESET plan_cache_mode;
DEALLOCATE ALL;
DROP FUNCTION pi_digest(text);
DROP TABLE pi_uid11, pi_timeid, pi_ulidflake, pi_ulid, pi_euid;
DROP TABLE pi_text_uid11, pi_text_timeid, pi_text_ulidflake, pi_text_ulid, pi_text_euid;
