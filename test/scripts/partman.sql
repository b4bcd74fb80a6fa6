-- partman.sql: the checks of test/scripts/partman.sh, run by psql -At in a database with idtypes
-- and pg_partman (schema partman), the session's TimeZone UTC. Prints one line per check, "ok: ..."
-- or "FAILED: ...". psql variable skew: an interval the encoders under test are shifted by ('' for
-- none; set to see the checks fail).

\ir plan.sql

-- Without the README's step, create_parent refuses a custom-typed control column.
CREATE TABLE refused (id ulid NOT NULL) PARTITION BY RANGE (id);
CREATE FUNCTION pg_temp.refused() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	v text := (SELECT extversion FROM pg_extension WHERE extname = 'pg_partman');
BEGIN
	PERFORM partman.create_parent('public.refused', 'id', '1 day',
		p_time_encoder := 'ulid_first_at', p_time_decoder := 'ulid_timestamp');
	RETURN 'FAILED: create_parent on a ulid column without the README''s step: accepted';
EXCEPTION WHEN OTHERS THEN
	IF SQLERRM LIKE '%Supplied column is of type ulid%' THEN
		RETURN format('ok: pg_partman %s refuses a ulid control column as shipped (the README''s step is needed)', v);
	END IF;
	RETURN 'FAILED: create_parent on a ulid column without the README''s step: expected its type error, got: ' || SQLERRM;
END
$$;
SELECT pg_temp.refused();

-- The README's recipe: the five ID types are classified with text by check_control_type, and a
-- decoder from text to time per type.
DO $$
DECLARE
	def text := pg_get_functiondef('partman.check_control_type(text, text, text)'::regprocedure);
BEGIN
	IF def NOT LIKE '%''ulid''%' THEN
		def := replace(def, $s$WHEN typname IN ('text', 'varchar') THEN$s$,
			$s$WHEN typname IN ('text', 'varchar', 'uid11', 'timeid', 'ulidflake', 'ulid', 'euid') THEN$s$);
		IF def NOT LIKE '%''ulid''%' THEN
			RAISE EXCEPTION 'partman.check_control_type is not the function this recipe expects';
		END IF;
		EXECUTE def;
	END IF;
END $$;
CREATE FUNCTION public.uid11_partman_decoder(text) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT public.uid11_timestamp($1::public.uid11)';
CREATE FUNCTION public.timeid_partman_decoder(text) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT public.timeid_timestamp($1::public.timeid)';
CREATE FUNCTION public.ulidflake_partman_decoder(text) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT public.ulidflake_timestamp($1::public.ulidflake)';
CREATE FUNCTION public.ulid_partman_decoder(text) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT public.ulid_timestamp($1::public.ulid)';
CREATE FUNCTION public.euid_partman_decoder(text) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT public.euid_timestamp($1::public.euid)';
-- uuid: pg_partman passes the decoder a bound's or a row's text. A bound (uuidv7_first_at) has
-- all bits but the time zero, no v7 version: the decoder reads the first 48 bits of any uuid
-- (uuidv7_to_ulid() would refuse the bound).
CREATE FUNCTION public.uuid_partman_decoder(text) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
	AS 'SELECT public.ulid_timestamp($1::uuid::public.ulid)';
-- the tests' own: a UUIDv7 at a time, and a UUIDv7's time
CREATE FUNCTION uuid_gen_at(timestamptz) RETURNS uuid
	LANGUAGE sql AS 'SELECT ulid_to_uuidv7(generate_ulid_at($1))';
CREATE FUNCTION uuid_time_of(uuid) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE AS 'SELECT ulid_timestamp(uuidv7_to_ulid($1))';

-- check(t, skew): a table ev_<t> partitioned by day on an id of type t (uuid: UUIDv7 values),
-- through create_parent, rows, run_maintenance, retention and the scans of a day's time range and
-- of a prefix; a line per check.
CREATE FUNCTION pg_temp.check(t text, skew text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	-- the generator at a time, the encoder (first ID at a time), the ID's time, the time range
	gen text := CASE t WHEN 'uid11' THEN 'generate_xid_at' WHEN 'timeid' THEN 'generate_tid_at'
		WHEN 'uuid' THEN 'uuid_gen_at' ELSE 'generate_' || t || '_at' END;
	first_at text := CASE t WHEN 'uuid' THEN 'uuidv7_first_at' ELSE t || '_first_at' END;
	time_of text := CASE t WHEN 'uuid' THEN 'uuid_time_of' ELSE t || '_timestamp' END;
	time_range text := CASE t WHEN 'uuid' THEN 'uuidv7_time_range' ELSE t || '_time_range' END;
	enc text := 'public.' || first_at;
	p text := 'ev_' || t;
	today date := current_date;
	d date := current_date - 1;
	exact int; n int; lo date; hi date;
	total int; good int; indefault int; recent int;
	child text; plan text; scanned int; got int; want int; prefix text;
	children text := format($q$
		SELECT count(*) FILTER (WHERE i.child_start_time = date_trunc('day', i.child_start_time)
			AND pg_get_expr(c.relpartbound, c.oid) = format('FOR VALUES FROM (%%L) TO (%%L)',
				%1$s(i.child_start_time), %1$s(i.child_start_time + interval '1 day'))),
			count(*), min(i.child_start_time::date), max(i.child_start_time::date)
		FROM partman.show_partitions('public.%2$s') s,
			LATERAL partman.show_partition_info(s.partition_schemaname || '.' || s.partition_tablename,
				p_parent_table := 'public.%2$s') i, pg_class c
		WHERE c.oid = (s.partition_schemaname || '.' || s.partition_tablename)::regclass$q$, first_at, 'ev_' || t);
BEGIN
	IF skew <> '' THEN
		EXECUTE format('CREATE FUNCTION %I(timestamptz) RETURNS %s LANGUAGE sql IMMUTABLE
			AS %L', t || '_skewed_first_at', t, format('SELECT public.%s($1 + interval %L)', first_at, skew));
		enc := 'public.' || t || '_skewed_first_at';
	END IF;
	EXECUTE format('CREATE TABLE %I (id %s NOT NULL, day date NOT NULL) PARTITION BY RANGE (id)', p, t);
	PERFORM partman.create_parent('public.' || p, 'id', '1 day', p_premake := 2,
		p_start_partition := (today - 6)::text, p_time_encoder := enc,
		p_time_decoder := 'public.' || t || '_partman_decoder');
	-- 40 rows a day at random times, and one at the first and one at the last unit of the day
	EXECUTE format($q$INSERT INTO %1$I
		SELECT %2$s(d + random() * interval '1 day'), d::date FROM generate_series(-6, 0) k,
			LATERAL (SELECT ($1 + k)::timestamptz AS d) s, generate_series(1, 40)
		UNION ALL
		SELECT %2$s(d), d::date FROM generate_series(-6, 0) k, LATERAL (SELECT ($1 + k)::timestamptz AS d) s
		UNION ALL
		SELECT %2$s(d + interval '1 day' - $2), d::date
		FROM generate_series(-6, 0) k, LATERAL (SELECT ($1 + k)::timestamptz AS d) s$q$, p, gen)
		USING today,
			CASE WHEN t = 'timeid' THEN interval '1 microsecond' ELSE interval '1 millisecond' END;
	EXECUTE format('ANALYZE %I', p);

	EXECUTE children INTO exact, n, lo, hi;
	RETURN NEXT CASE WHEN n = 9 AND exact = 9 AND lo = today - 6 AND hi = today + 2
		THEN format('ok: %s: create_parent made 9 daily children %s..%s, bounds exactly %s(day) .. %s(day + 1)',
			t, lo, hi, first_at, first_at)
		ELSE format('FAILED: %s: create_parent: %s children (%s..%s, want 9, %s..%s), %s with exact bounds',
			t, n, lo, hi, today - 6, today + 2, exact) END;

	EXECUTE format($q$SELECT count(*), count(*) FILTER (WHERE tableoid::regclass::text =
			(SELECT partition_table FROM partman.show_partition_name('public.%1$s', %2$s(id)::text))
			AND %2$s(id)::date = day), count(*) FILTER (WHERE tableoid = 'public.%1$s_default'::regclass)
		FROM %1$I$q$, p, time_of) INTO total, good, indefault;
	RETURN NEXT CASE WHEN total = 294 AND good = 294 AND indefault = 0
		THEN format('ok: %s: all 294 rows of seven days (random times, first and last unit of each day) landed in their day''s child', t)
		ELSE format('FAILED: %s: rows: %s (want 294), %s in their day''s child, %s in the default', t, total, good, indefault) END;

	UPDATE partman.part_config SET premake = 5 WHERE parent_table = 'public.' || p;
	PERFORM partman.run_maintenance('public.' || p);
	EXECUTE children INTO exact, n, lo, hi;
	RETURN NEXT CASE WHEN n = 12 AND exact = 12 AND hi = today + 5
		THEN format('ok: %s: run_maintenance (premake 5) made the future children up to %s, bounds exact', t, hi)
		ELSE format('FAILED: %s: run_maintenance: %s children (%s..%s, want 12 up to %s), %s with exact bounds',
			t, n, lo, hi, today + 5, exact) END;

	UPDATE partman.part_config SET retention = '3 days', retention_keep_table = false
	WHERE parent_table = 'public.' || p;
	PERFORM partman.run_maintenance('public.' || p);
	EXECUTE children INTO exact, n, lo, hi;
	EXECUTE format('SELECT count(*), count(*) FILTER (WHERE day >= $1 - 3) FROM %I', p) INTO total, recent USING today;
	RETURN NEXT CASE WHEN lo = today - 3 AND n = 9 AND total = 168 AND recent = 168
		THEN format('ok: %s: retention of 3 days dropped the children before %s and only their rows (168 left)', t, lo)
		ELSE format('FAILED: %s: retention: children from %s (want %s), %s (want 9), rows left and recent: %s %s (want 168 168)',
			t, lo, today - 3, n, total, recent) END;

	-- <@ a day's time range: one child scanned, the right one; the same count as a filter on time.
	child := (SELECT partition_table FROM partman.show_partition_name('public.' || p, d::text));
	plan := pg_temp.plan(format('SELECT count(*) FROM %I WHERE id <@ %s(%L)',
		p, time_range, format('[%s, %s 24:00)', d, d)));
	scanned := pg_temp.scans(plan, 'Scan on ');
	EXECUTE format('SELECT count(*) FROM %I WHERE id <@ %s(%L)', p, time_range, format('[%s, %s 24:00)', d, d)) INTO got;
	EXECUTE format('SELECT count(*) FROM %I WHERE %s(id) >= $1 AND %s(id) < $1 + 1', p, time_of, time_of) INTO want USING d;
	RETURN NEXT CASE WHEN scanned = 1 AND strpos(plan, 'Scan on ' || child || ' ') > 0 AND got = want AND got = 42
		THEN format('ok: %s: id <@ %s(one day) scans %s only, %s rows as the time filter', t, time_range, child, got)
		ELSE format('FAILED: %s: <@ one day: %s scans (want 1 of %s), %s rows (time filter: %s, want 42); plan: %s',
			t, scanned, child, got, want, plan) END;

	-- ^@ the text of a row from mid-day without its last four symbols.
	EXECUTE format($q$SELECT left(id::text, length(id::text) - 4) FROM %I
		WHERE day = $1 AND %s(id) BETWEEN $1 + time '01:00' AND $1 + time '23:00' ORDER BY id LIMIT 1$q$, p, time_of)
		INTO prefix USING d;
	plan := pg_temp.plan(format('SELECT count(*) FROM %I WHERE id ^@ %L', p, prefix));
	scanned := pg_temp.scans(plan, 'Scan on ');
	EXECUTE format('SELECT count(*) FROM %I WHERE id ^@ %L', p, prefix) INTO got;
	EXECUTE format('SELECT count(*) FROM %I WHERE left(id::text, length($1)) = $1', p) INTO want USING prefix;
	RETURN NEXT CASE WHEN scanned = 1 AND strpos(plan, 'Scan on ' || child || ' ') > 0 AND got = want AND got >= 1
		THEN format('ok: %s: id ^@ ''%s'' scans %s only, %s rows as a filter on the text', t, prefix, child, got)
		ELSE format('FAILED: %s: ^@ ''%s'': %s scans (want 1 of %s), %s rows (text filter: %s); plan: %s',
			t, prefix, scanned, child, got, want, plan) END;
END
$$;
-- Each type in a transaction of its own.
SELECT pg_temp.check('uid11', :'skew');
SELECT pg_temp.check('timeid', :'skew');
SELECT pg_temp.check('ulidflake', :'skew');
SELECT pg_temp.check('ulid', :'skew');
SELECT pg_temp.check('euid', :'skew');
SELECT pg_temp.check('uuid', :'skew');
