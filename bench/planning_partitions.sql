-- bench/planning_partitions.sql: planning a query over many partitions grown and vacuumed since
-- ANALYZE, with the new-rows estimates on and off. Run by bench/bench.sh once (psql variable
-- parts, 1,500 by default: more than the 1,024 columns an earlier new-rows check cache held);
-- pp_parts is a ulid table hash-partitioned into that many, 100 rows each over 20 days, analyzed,
-- then 100 more each in the last day, vacuumed: the planner checks each partition's new rows
-- against its index once per VACUUM, then keeps the check. plan_part_step(round) plans
-- `EXPLAIN EXECUTE` of a prepared newest-hour count three ways: estimates off (the baseline),
-- off again (the A/A line) and on, each after one untimed plan, into plan_part_result, with
-- bench/planning.sql's plan_ms() (run before it). Target: on within 1.2x of off.
\set ON_ERROR_STOP on
CREATE TABLE pp_parts (id ulid, v int) PARTITION BY HASH (id);
SELECT format('CREATE TABLE pp_parts_%s PARTITION OF pp_parts FOR VALUES WITH (MODULUS %s, REMAINDER %s)
	WITH (autovacuum_enabled = off)', i, :parts, i) FROM generate_series(0, :parts - 1) i \gexec
CREATE INDEX ON pp_parts (id);
INSERT INTO pp_parts SELECT generate_ulid_at(now() - interval '20 days'
	+ interval '19 days' * i / (:parts * 100)), i % 1000 FROM generate_series(1, :parts * 100) i;
SELECT pg_stat_force_next_flush() \g /dev/null
ANALYZE pp_parts;
INSERT INTO pp_parts SELECT generate_ulid_at(now() - interval '1 day'
	+ interval '1 day' * i / (:parts * 100)), i % 1000 FROM generate_series(1, :parts * 100) i;
SELECT pg_stat_force_next_flush() \g /dev/null
VACUUM pp_parts;

CREATE TABLE IF NOT EXISTS plan_part_result (round int, contestant text, value float8);

CREATE OR REPLACE FUNCTION plan_part_step(rnd int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	names text[] := ARRAY['estimates off', 'estimates off (A/A)', 'estimates on'];
	c text;
	q text := 'EXECUTE pp_newest_hour(ulid_time_range(tstzrange(now() - interval ''1 hour'', now())))';
BEGIN
	IF NOT EXISTS (SELECT FROM pg_prepared_statements WHERE name = 'pp_newest_hour') THEN
		PREPARE pp_newest_hour(ulidrange) AS SELECT count(*) FROM pp_parts WHERE id <@ $1;
	END IF;
	-- Each EXECUTE plans anew (a generic plan, kept after five, would be planned once).
	PERFORM set_config('plan_cache_mode', 'force_custom_plan', false);
	FOR k IN 0 .. 2 LOOP
		c := names[(k + rnd) % 3 + 1];
		PERFORM set_config('idtypes.new_row_estimates', CASE WHEN c = 'estimates on' THEN 'on' ELSE 'off' END, false);
		PERFORM plan_ms(q, 1);
		INSERT INTO plan_part_result VALUES (rnd, c, plan_ms(q, 10));
	END LOOP;
	PERFORM set_config('idtypes.new_row_estimates', 'on', false);
END $$;
