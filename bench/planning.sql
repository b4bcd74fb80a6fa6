-- bench/planning.sql: the planning time of a query on a table of IDs grown since ANALYZE, against
-- the same query on the same rows analyzed (run by bench/bench.sh; plan_step(round) per round,
-- the line itself at the end of bench/report.sql). The rows: 100,000 ulids over 20 days, then
-- 10,000 in the last 10 minutes (a tenth: ten histogram buckets), as on a table whose IDs grow
-- all day between two autovacuum runs. plan_grown was analyzed before the 10,000, plan_analyzed
-- after them, and plan_analyzed_aa is a copy of plan_analyzed (the A/A line). The query is a
-- three-way self-join on the ID, whose planning looks up the ID column's statistics many times
-- (selectivity, join and cost estimates); on the grown table each lookup gets the statistics
-- extended by the rows added since ANALYZE, which needs the index's largest ID.
\set ON_ERROR_STOP on
DO $$
DECLARE
	t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['plan_grown', 'plan_analyzed', 'plan_analyzed_aa'] LOOP
		EXECUTE format('CREATE TABLE %I (id ulid PRIMARY KEY, v int) WITH (autovacuum_enabled = off)', t);
		EXECUTE format('INSERT INTO %I SELECT generate_ulid_at(now() - interval ''20 days''
			+ interval ''20 days'' * i / 100000), i %% 1000 FROM generate_series(1, 100000) i', t);
	END LOOP;
END $$;
-- The rows' counts reach the cumulative statistics before ANALYZE, as they do within a second.
SELECT pg_stat_force_next_flush() \g /dev/null
ANALYZE plan_grown;
DO $$
DECLARE
	t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['plan_grown', 'plan_analyzed', 'plan_analyzed_aa'] LOOP
		EXECUTE format('INSERT INTO %I SELECT generate_ulid_at(now() - interval ''10 minutes''
			+ interval ''10 minutes'' * i / 10000), i %% 1000 FROM generate_series(1, 10000) i', t);
	END LOOP;
END $$;
ANALYZE plan_analyzed, plan_analyzed_aa;

CREATE TABLE plan_result (round int, contestant text, value float8);

-- The mean planning time of q, in ms, over reps plans (EXPLAIN's own Planning Time).
CREATE FUNCTION plan_ms(q text, reps int) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
	plan json;
	total float8 := 0;
BEGIN
	FOR i IN 1 .. reps LOOP
		EXECUTE 'EXPLAIN (FORMAT JSON, SUMMARY) ' || q INTO plan;
		total := total + (plan -> 0 ->> 'Planning Time')::float8;
	END LOOP;
	RETURN total / reps;
END $$;

-- One round: each table in turn, starting with a different one each round; one untimed plan
-- first (the catalog caches of this session).
CREATE FUNCTION plan_step(rnd int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	names text[] := ARRAY['plan_analyzed', 'plan_analyzed_aa', 'plan_grown'];
	t text;
	q text;
BEGIN
	FOR k IN 0 .. 2 LOOP
		t := names[(k + rnd) % 3 + 1];
		q := format('SELECT * FROM %1$I a JOIN %1$I b USING (id) JOIN %1$I c USING (id) WHERE a.v < 10', t);
		PERFORM plan_ms(q, 1);
		INSERT INTO plan_result VALUES (rnd, t, plan_ms(q, 200));
	END LOOP;
END $$;
