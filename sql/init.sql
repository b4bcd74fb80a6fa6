CREATE EXTENSION idtypes;
SELECT idtypes_version();
-- Helpers of the tests of estimates (est_rows: the planner's rows; est_within: against the rows
-- returned), plain PL/pgSQL: creating them loads no idtypes library.
CREATE FUNCTION est_rows(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
	RETURN (plan->0->'Plan'->>'Plan Rows')::float8;
END $$;
-- A query's estimate against the rows it returns: 'within <factor>x', else both numbers.
CREATE FUNCTION est_within(q text, factor float8) RETURNS text LANGUAGE plpgsql AS $$
DECLARE est float8 := est_rows(q); actual bigint;
BEGIN
	EXECUTE 'SELECT count(*) FROM (' || q || ') s' INTO actual;
	RETURN CASE WHEN greatest(est, 1) / greatest(actual, 1) BETWEEN 1 / factor AND factor
	            THEN format('within %sx', factor)
	            ELSE format('%s estimated, %s rows', est, actual) END;
END $$;
