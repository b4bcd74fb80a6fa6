-- bench/planning_vacuumed.sql: the planning time on a table grown since ANALYZE and vacuumed since
-- (the normal state of an append-only table between its insert-triggered autovacuum and the next
-- autoanalyze), against the same rows analyzed. Run by bench/bench.sh once per size (psql
-- variable rows; 2,000,000 and 20,000,000 by default): pv_grown_<rows> holds rows / 2 ulids over
-- 20 days, analyzed, then rows / 2 more in the last day, vacuumed (the cumulative statistics then
-- count rows / 2 as modified since ANALYZE, and the planner checks that count against the index
-- once per VACUUM); pv_analyzed_<rows> the same rows, vacuumed and analyzed. plan_vac_step(round)
-- plans a three-way self-join with the newest hour's condition on each, the analyzed table twice
-- (the A/A line), into plan_vac_result, with bench/planning.sql's plan_ms() (run before it).
\set ON_ERROR_STOP on
SELECT format('pv_grown_%s', :rows) AS grown, format('pv_analyzed_%s', :rows) AS analyzed \gset
CREATE TABLE :"grown" (id ulid, v int) WITH (autovacuum_enabled = off);
CREATE TABLE :"analyzed" (id ulid, v int) WITH (autovacuum_enabled = off);
INSERT INTO :"grown" SELECT generate_ulid_at(now() - interval '20 days'
	+ interval '19 days' * i / (:rows / 2)), i % 1000 FROM generate_series(1, :rows / 2) i;
ALTER TABLE :"grown" ADD PRIMARY KEY (id);
-- The rows' counts reach the cumulative statistics before ANALYZE, as they do within a second.
SELECT pg_stat_force_next_flush() \g /dev/null
ANALYZE :"grown";
INSERT INTO :"grown" SELECT generate_ulid_at(now() - interval '1 day'
	+ interval '1 day' * i / (:rows / 2)), i % 1000 FROM generate_series(1, :rows / 2) i;
INSERT INTO :"analyzed" SELECT * FROM :"grown" ORDER BY id;
ALTER TABLE :"analyzed" ADD PRIMARY KEY (id);
SELECT pg_stat_force_next_flush() \g /dev/null
VACUUM :"grown", :"analyzed";
ANALYZE :"analyzed";

CREATE TABLE IF NOT EXISTS plan_vac_result (round int, rows bigint, contestant text, value float8);

-- One round, each size: the three contestants in turn, starting with a different one each round;
-- one untimed plan first (the catalog caches of this session, and the grown table's check).
CREATE OR REPLACE FUNCTION plan_vac_step(rnd int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	names text[] := ARRAY['analyzed', 'analyzed (A/A)', 'grown, vacuumed'];
	n bigint;
	c text;
	t text;
	q text;
BEGIN
	FOR n IN SELECT substr(relname, 13)::bigint FROM pg_class WHERE relname ~ '^pv_analyzed_[0-9]+$'
	LOOP
		FOR k IN 0 .. 2 LOOP
			c := names[(k + rnd) % 3 + 1];
			t := format(CASE WHEN c LIKE 'grown%' THEN 'pv_grown_%s' ELSE 'pv_analyzed_%s' END, n);
			q := format('SELECT * FROM %1$I a JOIN %1$I b USING (id) JOIN %1$I c USING (id)
				WHERE a.id <@ ulid_time_range(tstzrange(now() - interval ''1 hour'', now()))', t);
			PERFORM plan_ms(q, 1);
			INSERT INTO plan_vac_result VALUES (rnd, n, c, plan_ms(q, 200));
		END LOOP;
	END LOOP;
END $$;
