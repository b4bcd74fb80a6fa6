-- bench/scale_prune.sql: part 2 of bench/scale.sh (`make bench-scale`): a table PARTITION BY RANGE
-- (id ulid) with :parts daily partitions from 2026-01-01 and :part_rows rows spread evenly over
-- them; then the planning + execution ms (EXPLAIN ANALYZE) of a one-day and a one-hour
-- `<@ ulid_time_range(...)` window and of a 5- and a 7-symbol `^@` prefix, each against the same
-- rows asked with the btree operators (timed twice: the A/A pair shows the noise) and against the
-- same query with partition pruning off (the planner then scans every partition's index, as it
-- did before ^@ and <@ were rewritten). 15 interleaved rounds of one warm session (noise falls on
-- every query alike), after one untimed round; prints the medians, "|"-separated (psql -At).

CREATE TABLE parted (id ulid NOT NULL, n int) PARTITION BY RANGE (id);
SELECT format('CREATE TABLE parted_%s PARTITION OF parted FOR VALUES FROM (%L) TO (%L)', d,
		ulid_first_at(timestamptz '2026-01-01 00:00+00' + d * interval '1 day'),
		ulid_first_at(timestamptz '2026-01-01 00:00+00' + (d + 1) * interval '1 day'))
FROM generate_series(0, :parts - 1) d \gexec
INSERT INTO parted
SELECT generate_ulid_at(timestamptz '2026-01-01 00:00+00' + (g::float8 / :part_rows) * :parts * interval '1 day'), g
FROM generate_series(0, :part_rows - 1) g;
CREATE INDEX ON parted (id);
VACUUM ANALYZE parted;

-- The window: the day in the middle of the partitions, its first hour, and a 5- and a 7-symbol
-- prefix inside it (the 7-symbol one about 33 seconds of IDs): the narrow ones read few rows, and
-- the partitions' overhead is most of their cost. Each query in its rewritten form and with the
-- btree operators over the same rows.
CREATE TEMP TABLE queries AS
WITH w AS (
	SELECT f, f + interval '1 day' AS t, f + interval '1 hour' AS h,
		ulid_first_at(f) AS lo, ulid_first_at(f + interval '1 day') AS hi, ulid_first_at(f + interval '1 hour') AS hhi
	FROM (SELECT timestamptz '2026-01-01 00:00+00' + (:parts / 2) * interval '1 day' AS f) s),
p AS (SELECT left(id::text, 5) AS p5, left(id::text, 7) AS p7 FROM parted, w WHERE id >= w.lo ORDER BY id LIMIT 1)
SELECT ord, label, form, CASE WHEN form LIKE 'btree%' THEN btree ELSE ours END AS sql
FROM (
	SELECT 1, 'one-day <@ window', format('SELECT count(*) FROM parted WHERE id <@ ulid_time_range(%L)', format('[%s,%s)', f, t)),
		format('SELECT count(*) FROM parted WHERE id >= %L AND id < %L', lo, hi) FROM w
	UNION ALL
	SELECT 2, '^@ ' || p5, format('SELECT count(*) FROM parted WHERE id ^@ %L', p5),
		format('SELECT count(*) FROM parted WHERE id >= %L AND id <= %L',
			ulidrange_first(ulid_prefix_range(p5)), ulidrange_last(ulid_prefix_range(p5))) FROM p
	UNION ALL
	SELECT 3, 'one-hour <@ window', format('SELECT count(*) FROM parted WHERE id <@ ulid_time_range(%L)', format('[%s,%s)', f, h)),
		format('SELECT count(*) FROM parted WHERE id >= %L AND id < %L', lo, hhi) FROM w
	UNION ALL
	SELECT 4, '^@ ' || p7, format('SELECT count(*) FROM parted WHERE id ^@ %L', p7),
		format('SELECT count(*) FROM parted WHERE id >= %L AND id <= %L',
			ulidrange_first(ulid_prefix_range(p7)), ulidrange_last(ulid_prefix_range(p7))) FROM p
) q(ord, label, ours, btree),
(VALUES ('pruned'), ('btree'), ('btree A/A'), ('pruning off')) f(form);
CREATE TEMP TABLE ms (label text, form text, v float8);
CREATE FUNCTION pg_temp.run(query text, pruning bool) RETURNS float8 LANGUAGE plpgsql AS $f$
DECLARE l text; p float8; e float8;
BEGIN
	PERFORM set_config('enable_partition_pruning', pruning::text, true);
	FOR l IN EXECUTE 'EXPLAIN (ANALYZE, SUMMARY) ' || query LOOP
		IF l ~ '^Planning Time' THEN p := substring(l from '([0-9.]+) ms')::float8; END IF;
		IF l ~ '^Execution Time' THEN e := substring(l from '([0-9.]+) ms')::float8; END IF;
	END LOOP;
	RETURN p + e;
END $f$;
SELECT count(pg_temp.run(sql, form <> 'pruning off')) FROM queries \g /dev/null
DO $d$
BEGIN
	FOR r IN 1..15 LOOP
		INSERT INTO ms SELECT label, form, pg_temp.run(sql, form <> 'pruning off') FROM queries ORDER BY random();
	END LOOP;
END $d$;
SELECT 'query', 'ms pruned', 'ms btree operators', 'ms btree operators (A/A)', 'ms pruning off';
SELECT label,
	round((percentile_cont(0.5) WITHIN GROUP (ORDER BY v) FILTER (WHERE form = 'pruned'))::numeric, 3),
	round((percentile_cont(0.5) WITHIN GROUP (ORDER BY v) FILTER (WHERE form = 'btree'))::numeric, 3),
	round((percentile_cont(0.5) WITHIN GROUP (ORDER BY v) FILTER (WHERE form = 'btree A/A'))::numeric, 3),
	round((percentile_cont(0.5) WITHIN GROUP (ORDER BY v) FILTER (WHERE form = 'pruning off'))::numeric, 3)
FROM ms JOIN (SELECT DISTINCT ord, label FROM queries) o USING (label) GROUP BY ord, label ORDER BY ord;
