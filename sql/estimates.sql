-- Estimates of <@ and ^@ know that IDs are made in time order: rows added since ANALYZE sit
-- above the histogram, up to the index's actual largest ID. 19,900 rows over 20 days, analyzed,
-- then 2,000 rows in the last 10 minutes, as on a busy table between two autovacuum runs.
CREATE TABLE est_ids (n int, u uid11, t timeid, f ulidflake, l ulid, e euid)
WITH (autovacuum_enabled = off);
INSERT INTO est_ids
SELECT i, generate_xid_at(ts), generate_tid_at(ts, 1), generate_ulidflake_at(ts), generate_ulid_at(ts), generate_euid_at(ts)
FROM (SELECT i, now() - interval '20 days' + (interval '20 days' - interval '2 hours') * i / 19900 AS ts
      FROM generate_series(1, 19900) i) s;
CREATE INDEX est_u ON est_ids (u);
CREATE INDEX est_t ON est_ids (t);
CREATE INDEX est_f ON est_ids (f);
CREATE INDEX est_l ON est_ids (l);
CREATE INDEX est_e ON est_ids (e);
ANALYZE est_ids;
INSERT INTO est_ids
SELECT i, generate_xid_at(ts), generate_tid_at(ts, 1), generate_ulidflake_at(ts), generate_ulid_at(ts), generate_euid_at(ts)
FROM (SELECT i, now() - interval '10 minutes' + interval '10 minutes' * i / 2000 AS ts
      FROM generate_series(1, 2000) i) s;
-- The planner's row estimate of a query.
CREATE FUNCTION est_rows(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
	RETURN (plan->0->'Plan'->>'Plan Rows')::float8;
END $$;
-- est / actual for a condition on each column, against a factor.
CREATE FUNCTION est_ratio(cond text, factor float8) RETURNS TABLE (col text, ratio_ok text) LANGUAGE plpgsql AS $$
DECLARE c text; ty text; est float8; actual bigint; q text;
BEGIN
	FOR c, ty IN VALUES ('u', 'uid11'), ('t', 'timeid'), ('f', 'ulidflake'), ('l', 'ulid'), ('e', 'euid') LOOP
		q := format('SELECT * FROM est_ids WHERE ' || cond, c, ty);
		est := est_rows(q);
		EXECUTE 'SELECT count(*) FROM (' || q || ') s' INTO actual;
		col := c;
		ratio_ok := CASE WHEN greatest(est, 1) / greatest(actual, 1) BETWEEN 1 / factor AND factor
		                 THEN format('within %sx', factor)
		                 ELSE format('%s estimated, %s rows', est, actual) END;
		RETURN NEXT;
	END LOOP;
END $$;
-- The last hour, not yet analyzed: within 3x of the 2,000 rows.
SELECT * FROM est_ratio('%I <@ %s_time_range(tstzrange(now() - interval ''1 hour'', now()))', 3);
-- An analyzed day, 10 days ago: within 2x.
SELECT * FROM est_ratio('%I <@ %s_time_range(tstzrange(now() - interval ''10 days'', now() - interval ''9 days''))', 2);
-- Everything from an hour ago on, open-ended.
SELECT * FROM est_ratio('%I <@ %s_time_range(tstzrange(now() - interval ''1 hour'', NULL))', 3);
-- A prefix of analyzed rows, 10 days back (a prefix of the newest rows would cover more or less
-- of the span between the histogram and the new rows depending on the time of day).
SELECT left(l::text, 5) AS pl FROM est_ids WHERE n = 9950 \gset
SELECT CASE WHEN est_rows(format('SELECT * FROM est_ids WHERE l ^@ %L', :'pl'))
                 / (SELECT count(*) FROM est_ids WHERE l ^@ :'pl') BETWEEN 1 / 3.0 AND 3
            THEN 'within 3x' ELSE 'off' END AS analyzed_prefix;
-- The function form and the operator form are estimated alike.
SELECT est_rows('SELECT * FROM est_ids WHERE l <@ ulid_time_range(tstzrange(now() - interval ''1 hour'', now()))')
     = est_rows('SELECT * FROM est_ids WHERE ulid_contained(l, ulid_time_range(tstzrange(now() - interval ''1 hour'', now())))')
       AS same_contained,
       est_rows(format('SELECT * FROM est_ids WHERE l ^@ %L', :'pl'))
     = est_rows(format('SELECT * FROM est_ids WHERE ulid_starts_with(l, %L)', :'pl')) AS same_prefix;
DROP TABLE est_ids;
DROP FUNCTION est_ratio(text, float8);
DROP FUNCTION est_rows(text);
