-- bench/report.sql: medians and per-round ratios of the results (run by bench/bench.sh).
-- A ratio is the contestant's time over its reference's time in the same round, and the table
-- shows the median of those ratios over the rounds (below 1: faster than the reference). The
-- reference is the baseline of the same width (bigint or uuid) of the same round (for the
-- generate workloads, timed right before the contestant: table paired, bench_step), except for ^@
-- and <@, whose reference is BETWEEN with the same bounds on the same contestant. The views stay in the (throwaway) database for
-- bench.sh to write them out as CSV.
\pset footer off
\pset null ''
CREATE VIEW ratio AS
SELECT r.workload, r.contestant, r.round, r.value,
       coalesce(p.value, ref.value) AS reference_value, p.value IS NOT NULL AS paired,
       r.value / nullif(coalesce(p.value, ref.value), 0) AS ratio,
       CASE WHEN ref.workload = r.workload THEN ref.contestant ELSE 'BETWEEN, same bounds' END AS reference
FROM result r
JOIN contestant c ON c.name = r.contestant
JOIN result ref ON ref.round = r.round
 AND ref.contestant = CASE WHEN r.workload IN ('range: ^@ prefix', 'range: <@ time range')
                           THEN r.contestant ELSE c.baseline END
 AND ref.workload = CASE r.workload WHEN 'range: ^@ prefix' THEN 'range: BETWEEN prefix bounds'
                                    WHEN 'range: <@ time range' THEN 'range: BETWEEN time bounds'
                                    ELSE r.workload END
LEFT JOIN paired p ON p.round = r.round AND p.workload = r.workload AND p.contestant = r.contestant
 AND p.baseline = ref.contestant AND ref.workload = r.workload;

CREATE VIEW summary AS
SELECT workload, contestant, reference,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS median,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio) AS ratio,
       min(ratio) AS lo, max(ratio) AS hi
FROM ratio GROUP BY workload, contestant, reference;

-- The order of the workloads in the tables (and in bench.sh's CSV).
CREATE VIEW workload_order AS
SELECT DISTINCT workload, ord FROM work
UNION SELECT 'btree size', 16
UNION SELECT 'concurrent insert (pgbench, 4 clients)', 17;

-- One table per width: each workload's baseline median, then each contestant's median ratio.
SELECT format('%s rows, %s rounds; %s', current_setting('bench.n'), (SELECT max(round) FROM result),
              version()) AS "benchmark";

\echo
\echo 64-bit types: medians in ms (index size in bytes, concurrent insert in ms per 100k rows), ratios against bigint
SELECT s.workload,
       round((SELECT median FROM summary b WHERE b.workload = s.workload AND b.contestant = 'bigint')::numeric, 1) AS "bigint",
       max(CASE contestant WHEN 'bigint_aa' THEN to_char(ratio, 'FM90.00"x"') END) AS "bigint A/A",
       max(CASE contestant WHEN 'uid11' THEN to_char(ratio, 'FM990.00"x"') END) AS "uid11 (xid)",
       max(CASE contestant WHEN 'timeid' THEN to_char(ratio, 'FM990.00"x"') END) AS "timeid",
       max(CASE contestant WHEN 'ulidflake' THEN to_char(ratio, 'FM990.00"x"') END) AS "ulidflake"
FROM summary s JOIN workload_order w USING (workload)
GROUP BY s.workload, w.ord ORDER BY w.ord, s.workload;

\echo
\echo 128-bit types: medians in ms (index size in bytes, concurrent insert in ms per 100k rows), ratios against uuid (gen_random_uuid)
SELECT s.workload,
       round((SELECT median FROM summary b WHERE b.workload = s.workload AND b.contestant = 'uuid')::numeric, 1) AS "uuid",
       max(CASE contestant WHEN 'uuid_aa' THEN to_char(ratio, 'FM90.00"x"') END) AS "uuid A/A",
       max(CASE contestant WHEN 'uuidv7' THEN to_char(ratio, 'FM990.00"x"') END) AS "uuidv7",
       max(CASE contestant WHEN 'ulid' THEN to_char(ratio, 'FM990.00"x"') END) AS "ulid",
       max(CASE contestant WHEN 'ulid_mono' THEN to_char(ratio, 'FM990.00"x"') END) AS "ulid (monotonic)",
       max(CASE contestant WHEN 'euid' THEN to_char(ratio, 'FM990.00"x"') END) AS "euid"
FROM summary s JOIN workload_order w USING (workload)
GROUP BY s.workload, w.ord ORDER BY w.ord, s.workload;

-- Every generator against a random bigint timed right before it (bench_step): the cost of making
-- an ID, whatever its width.
CREATE VIEW generate_vs_bigint AS
SELECT r.workload, r.contestant,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY r.value / nullif(p.value, 0)) AS ratio,
       min(r.value / nullif(p.value, 0)) AS lo, max(r.value / nullif(p.value, 0)) AS hi
FROM result r
JOIN paired p ON p.round = r.round AND p.workload = r.workload AND p.contestant = r.contestant
 AND p.baseline = 'bigint'
GROUP BY r.workload, r.contestant;
\echo
\echo Every generator against a random bigint timed right before it (median of the per-round ratios):
\pset tuples_only on
SELECT format('%s: %s', g.workload,
              string_agg(format('%s %sx', g.contestant, to_char(g.ratio, 'FM990.00')), ', ' ORDER BY c.ord))
FROM generate_vs_bigint g JOIN contestant c ON c.name = g.contestant JOIN workload_order w USING (workload)
GROUP BY g.workload, w.ord ORDER BY w.ord;
\pset tuples_only off

\echo
\echo Concurrent insert, rows per second (median):
SELECT contestant, round(1e8 / median) AS rows_per_s
FROM summary WHERE workload = 'concurrent insert (pgbench, 4 clients)'
ORDER BY (SELECT ord FROM contestant WHERE name = contestant);

\echo
\echo Spread of the per-round ratios (min .. max) where it exceeds 10%:
SELECT workload, contestant, to_char(lo, 'FM990.00') || ' .. ' || to_char(hi, 'FM990.00') AS ratios
FROM summary WHERE hi - lo > 0.1 AND contestant NOT IN ('bigint', 'uuid')
ORDER BY workload, contestant;

\echo
\echo Rows each range workload counts (^@ and <@ must count the rows BETWEEN counts with the same bounds):
CREATE FUNCTION pg_temp.rows_of(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	EXECUTE q INTO n;
	RETURN n;
END $$;
\pset tuples_only on
SELECT format('range rows: %s: ^@ %s, BETWEEN %s; <@ %s, BETWEEN %s', contestant,
              max(n) FILTER (WHERE workload = 'range: ^@ prefix'),
              max(n) FILTER (WHERE workload = 'range: BETWEEN prefix bounds'),
              max(n) FILTER (WHERE workload = 'range: <@ time range'),
              max(n) FILTER (WHERE workload = 'range: BETWEEN time bounds'))
FROM (SELECT contestant, workload, pg_temp.rows_of(q) AS n FROM window_sql
      WHERE workload <> 'range: BETWEEN (1%)') w
JOIN contestant c ON c.name = w.contestant
GROUP BY contestant, c.ord ORDER BY c.ord;
\pset tuples_only off

-- The planning time on a table grown since ANALYZE (bench/planning.sql): medians of the per-round
-- means, and the median per-round ratio against the analyzed table, with the A/A line.
CREATE VIEW plan_summary AS
SELECT r.contestant, percentile_cont(0.5) WITHIN GROUP (ORDER BY r.value) AS median_ms,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY r.value / nullif(b.value, 0)) AS ratio,
       min(r.value / nullif(b.value, 0)) AS lo, max(r.value / nullif(b.value, 0)) AS hi
FROM plan_result r JOIN plan_result b ON b.round = r.round AND b.contestant = 'plan_analyzed'
GROUP BY r.contestant;
\echo
\echo Planning a three-way self-join on the ID (bench/planning.sql), ratios against the analyzed table:
\pset tuples_only on
SELECT format('planning: grown since ANALYZE %s ms, analyzed %s ms: %sx (A/A %sx; target: within 1.5x)',
              to_char(g.median_ms, 'FM990.000'), to_char(a.median_ms, 'FM990.000'),
              to_char(g.ratio, 'FM990.00'), to_char(aa.ratio, 'FM990.00'))
FROM plan_summary g, plan_summary a, plan_summary aa
WHERE g.contestant = 'plan_grown' AND a.contestant = 'plan_analyzed' AND aa.contestant = 'plan_analyzed_aa';
\pset tuples_only off

-- The same on tables grown since ANALYZE and vacuumed since (bench/planning_vacuumed.sql), per
-- size: the planner's check of the new rows against the index, kept across plans.
CREATE VIEW plan_vac_summary AS
SELECT r.rows, r.contestant, percentile_cont(0.5) WITHIN GROUP (ORDER BY r.value) AS median_ms,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY r.value / nullif(b.value, 0)) AS ratio,
       min(r.value / nullif(b.value, 0)) AS lo, max(r.value / nullif(b.value, 0)) AS hi
FROM plan_vac_result r
JOIN plan_vac_result b ON b.round = r.round AND b.rows = r.rows AND b.contestant = 'analyzed'
GROUP BY r.rows, r.contestant;
\echo
\echo Planning the newest hour of a three-way self-join on tables grown and vacuumed since ANALYZE (bench/planning_vacuumed.sql):
\pset tuples_only on
SELECT format('planning, %s rows: grown and vacuumed %s ms, analyzed %s ms: %sx (A/A %sx; target: within 1.2x)',
              g.rows, to_char(g.median_ms, 'FM990.000'), to_char(a.median_ms, 'FM990.000'),
              to_char(g.ratio, 'FM990.00'), to_char(aa.ratio, 'FM990.00'))
FROM plan_vac_summary g
JOIN plan_vac_summary a ON a.rows = g.rows AND a.contestant = 'analyzed'
JOIN plan_vac_summary aa ON aa.rows = g.rows AND aa.contestant = 'analyzed (A/A)'
WHERE g.contestant = 'grown, vacuumed'
ORDER BY g.rows;
\pset tuples_only off
CREATE VIEW plan_part_summary AS
SELECT r.contestant, percentile_cont(0.5) WITHIN GROUP (ORDER BY r.value) AS median_ms,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY r.value / nullif(b.value, 0)) AS ratio
FROM plan_part_result r
JOIN plan_part_result b ON b.round = r.round AND b.contestant = 'estimates off'
GROUP BY r.contestant;
\echo
\echo Planning the newest hour over many partitions grown and vacuumed since ANALYZE (bench/planning_partitions.sql):
\pset tuples_only on
SELECT format('planning, %s partitions: estimates on %s ms, off %s ms: %sx (A/A %sx; target: within 1.2x)',
              (SELECT count(*) FROM pg_inherits WHERE inhparent = to_regclass('pp_parts')),
              to_char(o.median_ms, 'FM990.000'), to_char(f.median_ms, 'FM990.000'),
              to_char(o.ratio, 'FM990.00'), to_char(aa.ratio, 'FM990.00'))
FROM plan_part_summary o
JOIN plan_part_summary f ON f.contestant = 'estimates off'
JOIN plan_part_summary aa ON aa.contestant = 'estimates off (A/A)'
WHERE o.contestant = 'estimates on';
\pset tuples_only off
