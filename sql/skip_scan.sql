-- skip_scan (PostgreSQL 18+): btree skip support (support function 6) for every type. A table
-- keyed by (tenant, n), where tenant is an ID column with ten distinct values, answers
-- "WHERE n = ..." with a skip scan of its (tenant, n) index: one index search per tenant (and one
-- to find the end), where the next tenant is the current one + 1. Without skip support the scan
-- still skips, but must search for the next tenant before each probe: about twice the searches.

-- Every opclass still validates with function 6 in its family.
SELECT opc.opcname, am.amname, amvalidate(opc.oid)
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
WHERE opc.opcintype IN ('uid11'::regtype, 'timeid'::regtype, 'ulidflake'::regtype,
                        'ulid'::regtype, 'euid'::regtype) AND am.amname = 'btree'
ORDER BY 1;

SELECT format_type(amproclefttype, NULL) AS type, amproc
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
WHERE f.opfmethod = (SELECT oid FROM pg_am WHERE amname = 'btree') AND amprocnum = 6
  AND amproclefttype IN ('uid11'::regtype, 'timeid'::regtype, 'ulidflake'::regtype,
                         'ulid'::regtype, 'euid'::regtype)
ORDER BY 1;

-- Ten consecutive tenants per type (k = 1..10 as the ID's integer value), 5,000 rows each.
CREATE TABLE skip_ids (k int, n int, u uid11, t timeid, f ulidflake, l ulid, e euid);
INSERT INTO skip_ids
SELECT k, n, k::bigint::uid11, k::bigint::timeid, k::bigint::ulidflake,
       decode(lpad(to_hex(k), 32, '0'), 'hex')::ulid, decode(lpad(to_hex(k), 32, '0'), 'hex')::euid
FROM generate_series(1, 10) k, generate_series(1, 5000) n;
CREATE INDEX skip_u ON skip_ids (u, n);
CREATE INDEX skip_t ON skip_ids (t, n);
CREATE INDEX skip_f ON skip_ids (f, n);
CREATE INDEX skip_l ON skip_ids (l, n);
CREATE INDEX skip_e ON skip_ids (e, n);
VACUUM ANALYZE skip_ids;

-- The plan, with its index searches, for a query on the second column only.
CREATE FUNCTION skip_plan(col text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE format('EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) '
	                           'SELECT %I, n FROM skip_ids WHERE n = 4242', col) LOOP
		RETURN NEXT line;
	END LOOP;
END $$;

SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT skip_plan('u');
SELECT skip_plan('t');
SELECT skip_plan('f');
SELECT skip_plan('l');
SELECT skip_plan('e');

-- The rows: one per tenant, in tenant order, the same as without the index.
SELECT u, t, f, l, e FROM skip_ids WHERE n = 4242 ORDER BY u;
CREATE TEMP TABLE via_index AS
SELECT (SELECT array_agg(u ORDER BY u) FROM skip_ids WHERE n = 4242)::text
    || (SELECT array_agg(t ORDER BY t) FROM skip_ids WHERE n = 4242)::text
    || (SELECT array_agg(f ORDER BY f) FROM skip_ids WHERE n = 4242)::text
    || (SELECT array_agg(l ORDER BY l) FROM skip_ids WHERE n = 4242)::text
    || (SELECT array_agg(e ORDER BY e) FROM skip_ids WHERE n = 4242)::text AS r;
RESET enable_seqscan;
RESET enable_bitmapscan;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;
SELECT r = (SELECT array_agg(u ORDER BY u) FROM skip_ids WHERE n = 4242)::text
         || (SELECT array_agg(t ORDER BY t) FROM skip_ids WHERE n = 4242)::text
         || (SELECT array_agg(f ORDER BY f) FROM skip_ids WHERE n = 4242)::text
         || (SELECT array_agg(l ORDER BY l) FROM skip_ids WHERE n = 4242)::text
         || (SELECT array_agg(e ORDER BY e) FROM skip_ids WHERE n = 4242)::text AS same_rows
FROM via_index;
RESET enable_indexscan;
RESET enable_indexonlyscan;
RESET enable_bitmapscan;

-- The ends of the domain: a tenant at the type's minimum and one at its maximum are found too
-- (the increment and decrement stop there instead of wrapping around).
CREATE TABLE skip_ends (u uid11, f ulidflake, l ulid, n int);
INSERT INTO skip_ends
SELECT x.u, x.f, x.l, n
FROM (VALUES ('11111111111'::uid11, '0000000000000'::ulidflake, '00000000000000000000000000'::ulid),
             ('jpXCZedGfVQ', '7ZZZZZZZZZZZZ', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ')) x(u, f, l),
     generate_series(1, 3000) n;
CREATE INDEX skip_ends_u ON skip_ends (u DESC, n);
CREATE INDEX skip_ends_f ON skip_ends (f, n);
CREATE INDEX skip_ends_l ON skip_ends (l DESC, n);
VACUUM ANALYZE skip_ends;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT u FROM skip_ends WHERE n = 7 ORDER BY u DESC;
SELECT f FROM skip_ends WHERE n = 7 ORDER BY f;
SELECT l FROM skip_ends WHERE n = 7 ORDER BY l DESC;
RESET enable_seqscan;
RESET enable_bitmapscan;
