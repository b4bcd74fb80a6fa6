-- brin: minmax indexes (the default opclass) on each type are built and used by the planner,
-- and return the same rows as a sequential scan. minmax-multi (14+) is in brin_multi.
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

-- ---- minmax (the default) ----------------------------------------------------------------------

-- uid11
CREATE INDEX brin_ids_a_minmax ON brin_ids USING brin (a) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM brin_ids WHERE a >= 'LGatbzXpd4s' AND a <= 'Z7e9fzDhhn7';
SELECT count(*), min(n), max(n), min(a), max(a) FROM brin_ids WHERE a >= 'LGatbzXpd4s' AND a <= 'Z7e9fzDhhn7';
SELECT n FROM brin_ids WHERE a = 'LGatbzXpd4s' OR a = 'Z7e9fzDhhn7' ORDER BY n;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*), min(n), max(n), min(a), max(a) FROM brin_ids WHERE a >= 'LGatbzXpd4s' AND a <= 'Z7e9fzDhhn7';
SELECT n FROM brin_ids WHERE a = 'LGatbzXpd4s' OR a = 'Z7e9fzDhhn7' ORDER BY n;
RESET enable_bitmapscan;
DROP INDEX brin_ids_a_minmax;

-- timeid
CREATE INDEX brin_ids_b_minmax ON brin_ids USING brin (b) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM brin_ids WHERE b >= '3agtnagtnaejk' AND b <= '4tnagtnagthtk';
SELECT count(*), min(n), max(n), min(b), max(b) FROM brin_ids WHERE b >= '3agtnagtnaejk' AND b <= '4tnagtnagthtk';
SELECT n FROM brin_ids WHERE b = '3agtnagtnaejk' OR b = '4tnagtnagthtk' ORDER BY n;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*), min(n), max(n), min(b), max(b) FROM brin_ids WHERE b >= '3agtnagtnaejk' AND b <= '4tnagtnagthtk';
SELECT n FROM brin_ids WHERE b = '3agtnagtnaejk' OR b = '4tnagtnagthtk' ORDER BY n;
RESET enable_bitmapscan;
DROP INDEX brin_ids_b_minmax;

-- ulidflake
CREATE INDEX brin_ids_c_minmax ON brin_ids USING brin (c) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM brin_ids WHERE c >= '06CSK6CSK6CD8' AND c <= '0ZZZZZZZZZY28';
SELECT count(*), min(n), max(n), min(c), max(c) FROM brin_ids WHERE c >= '06CSK6CSK6CD8' AND c <= '0ZZZZZZZZZY28';
SELECT n FROM brin_ids WHERE c = '06CSK6CSK6CD8' OR c = '0ZZZZZZZZZY28' ORDER BY n;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*), min(n), max(n), min(c), max(c) FROM brin_ids WHERE c >= '06CSK6CSK6CD8' AND c <= '0ZZZZZZZZZY28';
SELECT n FROM brin_ids WHERE c = '06CSK6CSK6CD8' OR c = '0ZZZZZZZZZY28' ORDER BY n;
RESET enable_bitmapscan;
DROP INDEX brin_ids_c_minmax;

-- ulid
CREATE INDEX brin_ids_d_minmax ON brin_ids USING brin (d) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM brin_ids WHERE d >= '3ZZJWJ78MWC3NG0000000009RF' AND d <= '400T6VHEP6Z8D00000000009RJ';
SELECT count(*), min(n), max(n), min(d), max(d) FROM brin_ids WHERE d >= '3ZZJWJ78MWC3NG0000000009RF' AND d <= '400T6VHEP6Z8D00000000009RJ';
SELECT n FROM brin_ids WHERE d = '3ZZJWJ78MWC3NG0000000009RF' OR d = '400T6VHEP6Z8D00000000009RJ' ORDER BY n;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*), min(n), max(n), min(d), max(d) FROM brin_ids WHERE d >= '3ZZJWJ78MWC3NG0000000009RF' AND d <= '400T6VHEP6Z8D00000000009RJ';
SELECT n FROM brin_ids WHERE d = '3ZZJWJ78MWC3NG0000000009RF' OR d = '400T6VHEP6Z8D00000000009RJ' ORDER BY n;
RESET enable_bitmapscan;
DROP INDEX brin_ids_d_minmax;

-- euid
CREATE INDEX brin_ids_e_minmax ON brin_ids USING brin (e) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM brin_ids WHERE e >= 'ZZFKPS2T3HZAW0000000002E2VM' AND e <= 'ZZYBJ8X2KH53P0000000002E3W2';
SELECT count(*), min(n), max(n), min(e), max(e) FROM brin_ids WHERE e >= 'ZZFKPS2T3HZAW0000000002E2VM' AND e <= 'ZZYBJ8X2KH53P0000000002E3W2';
SELECT n FROM brin_ids WHERE e = 'ZZFKPS2T3HZAW0000000002E2VM' OR e = 'ZZYBJ8X2KH53P0000000002E3W2' ORDER BY n;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*), min(n), max(n), min(e), max(e) FROM brin_ids WHERE e >= 'ZZFKPS2T3HZAW0000000002E2VM' AND e <= 'ZZYBJ8X2KH53P0000000002E3W2';
SELECT n FROM brin_ids WHERE e = 'ZZFKPS2T3HZAW0000000002E2VM' OR e = 'ZZYBJ8X2KH53P0000000002E3W2' ORDER BY n;
RESET enable_bitmapscan;
DROP INDEX brin_ids_e_minmax;

DROP TABLE brin_ids;
