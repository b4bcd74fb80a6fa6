-- timescaledb.sql: the checks of test/scripts/timescaledb.sh, run by psql -At in a database with
-- idtypes and timescaledb, the session's TimeZone UTC. Prints one line per check, "ok: ..." or
-- "FAILED: ...". psql variable skew: an interval the partitioning functions are shifted by ('0' for
-- none; set to see the checks fail).

\ir plan.sql

-- check(t, skew): a hypertable hy_<t> on an id of type t, chunked by day through partition_func =
-- the ID's time, rows of six days; the scans of a day's time range and of a prefix.
CREATE FUNCTION pg_temp.check(t text, skew text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	gen text := CASE t WHEN 'uid11' THEN 'generate_xid_at' WHEN 'timeid' THEN 'generate_tid_at'
		ELSE 'generate_' || t || '_at' END;
	h text := 'hy_' || t;
	d date := current_date - 1;
	chunks int; plan text; scanned int; got int; want int; prefix text;
BEGIN
	EXECUTE format('CREATE FUNCTION public.%I(public.%I) RETURNS timestamptz
		LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS %L', t || '_time', t,
		format('SELECT public.%I($1) + interval %L', t || '_timestamp', skew));
	EXECUTE format('CREATE TABLE %I (id %I NOT NULL, day date NOT NULL)', h, t);
	PERFORM create_hypertable(h::regclass, by_range('id', interval '1 day', partition_func => ('public.' || t || '_time')::regproc));
	EXECUTE format($q$INSERT INTO %I SELECT %s(d + random() * interval '1 day'), d::date
		FROM generate_series(-5, 0) k, LATERAL (SELECT ($1 + k)::timestamptz AS d) s, generate_series(1, 40)$q$, h, gen)
		USING current_date;
	EXECUTE format('ANALYZE %I', h);

	chunks := (SELECT count(*) FROM show_chunks(h::regclass));
	plan := pg_temp.plan(format('SELECT count(*) FROM %I WHERE id <@ %I(%L)',
		h, t || '_time_range', format('[%s, %s 24:00)', d, d)));
	scanned := pg_temp.scans(plan, 'Scan on _hyper_');
	EXECUTE format('SELECT count(*) FROM %I WHERE id <@ %I(%L)', h, t || '_time_range', format('[%s, %s 24:00)', d, d)) INTO got;
	EXECUTE format('SELECT count(*) FROM %I WHERE day = $1', h) INTO want USING d;
	RETURN NEXT CASE WHEN chunks = 6 AND scanned = 1 AND got = want AND got = 40
		THEN format('ok: %s: 6 daily chunks; id <@ %s_time_range(one day) scans one chunk, %s rows as that day has', t, t, got)
		ELSE format('FAILED: %s: %s chunks (want 6); <@ one day: %s chunks scanned (want 1), %s rows (that day: %s, want 40); plan: %s',
			t, chunks, scanned, got, want, plan) END;

	EXECUTE format($q$SELECT left(id::text, length(id::text) - 4) FROM %I
		WHERE day = $1 AND %I(id) BETWEEN $1 + time '01:00' AND $1 + time '23:00' ORDER BY id LIMIT 1$q$, h, t || '_timestamp')
		INTO prefix USING d;
	plan := pg_temp.plan(format('SELECT count(*) FROM %I WHERE id ^@ %L', h, prefix));
	scanned := pg_temp.scans(plan, 'Scan on _hyper_');
	EXECUTE format('SELECT count(*) FROM %I WHERE id ^@ %L', h, prefix) INTO got;
	EXECUTE format('SELECT count(*) FROM %I WHERE left(id::text, length($1)) = $1', h) INTO want USING prefix;
	RETURN NEXT CASE WHEN scanned = 1 AND got = want AND got >= 1
		THEN format('ok: %s: id ^@ ''%s'' scans one chunk, %s rows as a filter on the text', t, prefix, got)
		ELSE format('FAILED: %s: ^@ ''%s'': %s chunks scanned (want 1), %s rows (text filter: %s); plan: %s',
			t, prefix, scanned, got, want, plan) END;
END
$$;
-- Each type in a transaction of its own.
SELECT pg_temp.check('uid11', :'skew');
SELECT pg_temp.check('timeid', :'skew');
SELECT pg_temp.check('ulidflake', :'skew');
SELECT pg_temp.check('ulid', :'skew');
SELECT pg_temp.check('euid', :'skew');
