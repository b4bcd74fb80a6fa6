-- Row-level security and security-barrier views keep ^@ and <@ as index conditions: <@ is
-- LEAKPROOF, and ^@ (not leakproof: a malformed prefix is an error showing the prefix) is
-- rewritten into the <@ of its prefix range where a policy or a barrier applies.
\set VERBOSITY terse
-- enable_seqscan = off below makes sequential scans cost 1e10: no JIT for them.
SET jit = off;
CREATE TABLE sec_ids (n int, u uid11, t timeid, f ulidflake, l ulid, e euid);
INSERT INTO sec_ids
SELECT i, generate_xid_at(ts), generate_tid_at(ts, 7), generate_ulidflake_at(ts, 3), generate_ulid_at(ts), generate_euid_at(ts)
FROM (SELECT i, timestamptz '2026-01-01 00:00+00' + i * interval '1 minute' AS ts
      FROM generate_series(1, 20000) i) s;
CREATE INDEX sec_u ON sec_ids (u);
CREATE INDEX sec_t ON sec_ids (t);
CREATE INDEX sec_f ON sec_ids (f);
CREATE INDEX sec_l ON sec_ids (l);
CREATE INDEX sec_e ON sec_ids (e);
ANALYZE sec_ids;
-- Which of the operators are leakproof.
SELECT o.oprname, o.oprleft::regtype, p.proleakproof
FROM pg_operator o JOIN pg_proc p ON p.oid = o.oprcode
WHERE o.oprname IN ('<@', '^@') AND o.oprleft IN ('uid11'::regtype, 'timeid'::regtype,
      'ulidflake'::regtype, 'ulid'::regtype, 'euid'::regtype)
ORDER BY 1, format_type(o.oprleft, NULL);
ALTER TABLE sec_ids ENABLE ROW LEVEL SECURITY;
CREATE POLICY sec_even ON sec_ids USING (n % 2 = 0);
CREATE ROLE regress_idt_reader;
GRANT SELECT ON sec_ids TO regress_idt_reader;
CREATE VIEW sec_view WITH (security_barrier) AS SELECT * FROM sec_ids WHERE n % 3 = 0;
GRANT SELECT ON sec_view TO regress_idt_reader;
-- The prefixes and windows, taken as the owner (who is not subject to the policy).
SELECT left(min(u)::text, 4) AS pu, left(min(t)::text, 5) AS pt, left(min(f)::text, 5) AS pf,
       left(min(l)::text, 5) AS pl, left(min(e)::text, 5) AS pe
FROM sec_ids \gset
SET enable_seqscan = off;
SET ROLE regress_idt_reader;
-- Plans: every operator, constant right side, under the policy.
EXPLAIN (COSTS OFF) SELECT count(*) FROM sec_ids WHERE u <@ uid11_time_range('[2026-01-02,2026-01-03)');
EXPLAIN (COSTS OFF) SELECT count(*) FROM sec_ids WHERE t <@ timeid_time_range('[2026-01-02,2026-01-03)');
EXPLAIN (COSTS OFF) SELECT count(*) FROM sec_ids WHERE f <@ ulidflake_time_range('[2026-01-02,2026-01-03)');
EXPLAIN (COSTS OFF) SELECT count(*) FROM sec_ids WHERE l <@ ulid_time_range('[2026-01-02,2026-01-03)');
EXPLAIN (COSTS OFF) SELECT count(*) FROM sec_ids WHERE e <@ euid_time_range('[2026-01-02,2026-01-03)');
EXPLAIN (COSTS OFF) SELECT count(*) FROM sec_ids WHERE u ^@ 'A';
EXPLAIN (COSTS OFF) SELECT count(*) FROM sec_ids WHERE t ^@ '3';
EXPLAIN (COSTS OFF) SELECT count(*) FROM sec_ids WHERE f ^@ '0';
EXPLAIN (COSTS OFF) SELECT count(*) FROM sec_ids WHERE l ^@ '01';
EXPLAIN (COSTS OFF) SELECT count(*) FROM sec_ids WHERE e ^@ '01';
-- An euid prefix reaching the check symbol keeps the exact test as a filter.
EXPLAIN (COSTS OFF) SELECT count(*) FROM sec_ids WHERE e ^@ '0000000000000000000000000Z';
-- Behind a security-barrier view, and with a parameter (generic plan).
EXPLAIN (COSTS OFF) SELECT count(*) FROM sec_view WHERE l ^@ '01';
EXPLAIN (COSTS OFF) SELECT count(*) FROM sec_view WHERE l <@ ulid_time_range('[2026-01-02,2026-01-03)');
SET plan_cache_mode = force_generic_plan;
PREPARE sec_p(text) AS SELECT count(*) FROM sec_ids WHERE l ^@ $1;
EXPLAIN (COSTS OFF) EXECUTE sec_p('01');
-- The rows: the same as the text's, under the policy.
SELECT c, (SELECT count(*) FROM sec_ids WHERE CASE c WHEN 'u' THEN u ^@ :'pu' WHEN 't' THEN t ^@ :'pt'
             WHEN 'f' THEN f ^@ :'pf' WHEN 'l' THEN l ^@ :'pl' ELSE e ^@ :'pe' END) AS rows,
       (SELECT count(*) FROM sec_ids WHERE CASE c WHEN 'u' THEN u::text WHEN 't' THEN t::text
             WHEN 'f' THEN f::text WHEN 'l' THEN l::text ELSE e::text END
             LIKE CASE c WHEN 'u' THEN :'pu' WHEN 't' THEN :'pt' WHEN 'f' THEN :'pf'
                  WHEN 'l' THEN :'pl' ELSE :'pe' END || '%') AS text_rows
FROM unnest(ARRAY['u', 't', 'f', 'l', 'e']) c;
SELECT count(*) FROM sec_ids WHERE l <@ ulid_time_range('[2026-01-02,2026-01-03)');
EXECUTE sec_p(:'pl');
SELECT count(*) FROM sec_view WHERE e ^@ :'pe';
-- A malformed prefix is still an error, with the policy or without.
SELECT count(*) FROM sec_ids WHERE l ^@ 'U';
RESET plan_cache_mode;
RESET ROLE;
RESET enable_seqscan;
RESET jit;
DROP VIEW sec_view;
DROP TABLE sec_ids;
DROP ROLE regress_idt_reader;
