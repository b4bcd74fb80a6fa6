-- plan.sql (\ir by partman.sql and timescaledb.sql): pg_temp.plan(query), the text of
-- EXPLAIN (COSTS OFF) of the query, and pg_temp.scans(plan, pattern), how many times it names a
-- scan matching the pattern.
CREATE FUNCTION pg_temp.plan(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	line text;
	plan text := '';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		plan := plan || line || E'\n';
	END LOOP;
	RETURN plan;
END
$$;
CREATE FUNCTION pg_temp.scans(plan text, pattern text) RETURNS int LANGUAGE sql
RETURN (SELECT count(*) FROM regexp_matches(plan, pattern, 'g'));
