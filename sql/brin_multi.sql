-- brin_multi (PostgreSQL 14+, which has minmax-multi): <type>_minmax_multi_ops indexes on each
-- type validate, are built and used by the planner, and return the same rows as a sequential scan.
\set VERBOSITY terse

-- 20000 rows whose values grow with their position (what BRIN is for). h runs over the whole
-- unsigned 64-bit range, so half the uid11 values are >= 2^63.
CREATE TABLE brin_ids AS
SELECT i AS n, h::uid11 AS a, (i * 461168601842738)::timeid AS b,
       (i * 461168601842738)::ulidflake AS c,
       (int8send(h) || int8send(i))::ulid AS d, (int8send(h) || int8send(i))::euid AS e
FROM (SELECT i, (CASE WHEN x >= 9223372036854775808 THEN x - 18446744073709551616 ELSE x END)::bigint AS h
      FROM (SELECT i, i::numeric * 922337203685477 AS x FROM generate_series(0, 19999) i) s) t;
ANALYZE brin_ids;

-- The opclasses exist and validate.
SELECT opc.opcname, opc.opcdefault AS dflt, amvalidate(opc.oid) AS valid
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
WHERE am.amname = 'brin' AND opc.opcname LIKE '%minmax_multi_ops' AND opc.opcintype IN
      ('uid11'::regtype, 'timeid'::regtype, 'ulidflake'::regtype, 'ulid'::regtype, 'euid'::regtype)
ORDER BY 1;

-- ---- minmax-multi ------------------------------------------------------------------------------

-- uid11
CREATE INDEX brin_ids_a_minmax_multi ON brin_ids USING brin (a uid11_minmax_multi_ops) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM brin_ids WHERE a >= 'LGatbzXpd4s' AND a <= 'Z7e9fzDhhn7';
SELECT count(*), min(n), max(n), min(a), max(a) FROM brin_ids WHERE a >= 'LGatbzXpd4s' AND a <= 'Z7e9fzDhhn7';
SELECT n FROM brin_ids WHERE a = 'LGatbzXpd4s' OR a = 'Z7e9fzDhhn7' ORDER BY n;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*), min(n), max(n), min(a), max(a) FROM brin_ids WHERE a >= 'LGatbzXpd4s' AND a <= 'Z7e9fzDhhn7';
SELECT n FROM brin_ids WHERE a = 'LGatbzXpd4s' OR a = 'Z7e9fzDhhn7' ORDER BY n;
RESET enable_bitmapscan;
DROP INDEX brin_ids_a_minmax_multi;

-- timeid
CREATE INDEX brin_ids_b_minmax_multi ON brin_ids USING brin (b timeid_minmax_multi_ops) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM brin_ids WHERE b >= '3agtnagtnaejk' AND b <= '4tnagtnagthtk';
SELECT count(*), min(n), max(n), min(b), max(b) FROM brin_ids WHERE b >= '3agtnagtnaejk' AND b <= '4tnagtnagthtk';
SELECT n FROM brin_ids WHERE b = '3agtnagtnaejk' OR b = '4tnagtnagthtk' ORDER BY n;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*), min(n), max(n), min(b), max(b) FROM brin_ids WHERE b >= '3agtnagtnaejk' AND b <= '4tnagtnagthtk';
SELECT n FROM brin_ids WHERE b = '3agtnagtnaejk' OR b = '4tnagtnagthtk' ORDER BY n;
RESET enable_bitmapscan;
DROP INDEX brin_ids_b_minmax_multi;

-- ulidflake
CREATE INDEX brin_ids_c_minmax_multi ON brin_ids USING brin (c ulidflake_minmax_multi_ops) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM brin_ids WHERE c >= '06CSK6CSK6CD8' AND c <= '0ZZZZZZZZZY28';
SELECT count(*), min(n), max(n), min(c), max(c) FROM brin_ids WHERE c >= '06CSK6CSK6CD8' AND c <= '0ZZZZZZZZZY28';
SELECT n FROM brin_ids WHERE c = '06CSK6CSK6CD8' OR c = '0ZZZZZZZZZY28' ORDER BY n;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*), min(n), max(n), min(c), max(c) FROM brin_ids WHERE c >= '06CSK6CSK6CD8' AND c <= '0ZZZZZZZZZY28';
SELECT n FROM brin_ids WHERE c = '06CSK6CSK6CD8' OR c = '0ZZZZZZZZZY28' ORDER BY n;
RESET enable_bitmapscan;
DROP INDEX brin_ids_c_minmax_multi;

-- ulid
CREATE INDEX brin_ids_d_minmax_multi ON brin_ids USING brin (d ulid_minmax_multi_ops) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM brin_ids WHERE d >= '3ZZJWJ78MWC3NG0000000009RF' AND d <= '400T6VHEP6Z8D00000000009RJ';
SELECT count(*), min(n), max(n), min(d), max(d) FROM brin_ids WHERE d >= '3ZZJWJ78MWC3NG0000000009RF' AND d <= '400T6VHEP6Z8D00000000009RJ';
SELECT n FROM brin_ids WHERE d = '3ZZJWJ78MWC3NG0000000009RF' OR d = '400T6VHEP6Z8D00000000009RJ' ORDER BY n;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*), min(n), max(n), min(d), max(d) FROM brin_ids WHERE d >= '3ZZJWJ78MWC3NG0000000009RF' AND d <= '400T6VHEP6Z8D00000000009RJ';
SELECT n FROM brin_ids WHERE d = '3ZZJWJ78MWC3NG0000000009RF' OR d = '400T6VHEP6Z8D00000000009RJ' ORDER BY n;
RESET enable_bitmapscan;
DROP INDEX brin_ids_d_minmax_multi;

-- euid
CREATE INDEX brin_ids_e_minmax_multi ON brin_ids USING brin (e euid_minmax_multi_ops) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM brin_ids WHERE e >= 'ZZFKPS2T3HZAW0000000002E2VM' AND e <= 'ZZYBJ8X2KH53P0000000002E3W2';
SELECT count(*), min(n), max(n), min(e), max(e) FROM brin_ids WHERE e >= 'ZZFKPS2T3HZAW0000000002E2VM' AND e <= 'ZZYBJ8X2KH53P0000000002E3W2';
SELECT n FROM brin_ids WHERE e = 'ZZFKPS2T3HZAW0000000002E2VM' OR e = 'ZZYBJ8X2KH53P0000000002E3W2' ORDER BY n;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*), min(n), max(n), min(e), max(e) FROM brin_ids WHERE e >= 'ZZFKPS2T3HZAW0000000002E2VM' AND e <= 'ZZYBJ8X2KH53P0000000002E3W2';
SELECT n FROM brin_ids WHERE e = 'ZZFKPS2T3HZAW0000000002E2VM' OR e = 'ZZYBJ8X2KH53P0000000002E3W2' ORDER BY n;
RESET enable_bitmapscan;
DROP INDEX brin_ids_e_minmax_multi;

-- The brin index summarizes rows added later too.
CREATE INDEX brin_ids_a_late ON brin_ids USING brin (a uid11_minmax_multi_ops) WITH (pages_per_range = 4);
INSERT INTO brin_ids (n, a) VALUES (-1, 'jpXCZedGfVQ'), (-2, '11111111111');
SELECT brin_summarize_new_values('brin_ids_a_late') >= 0 AS summarized;
SET enable_seqscan = off;
SELECT n, a FROM brin_ids WHERE a = 'jpXCZedGfVQ' OR a = '11111111111' ORDER BY n;
RESET enable_seqscan;

DROP TABLE brin_ids;
