-- plan_hijack: the planner support of ^@ and <@ never calls a function that another role planted.
-- A database still on the 1.0 catalog under this library lacks the helpers that later versions'
-- rewrites call (<type>range_lo/_hi, euid_starts_with_recheck). A role without privileges but
-- with CREATE on the extension's schema creates functions of those names and signatures, each
-- raising an error; the superuser then runs ^@ and <@ on range-partitioned tables of all five
-- types, with constants and with parameters under generic plans, and each query's row count is
-- checked against an oracle of text or time ("ok"); a planted function that ran would show its
-- error here. Three layouts, each in a database of its own: the extension in public, in a schema
-- of its own, and moved there by ALTER EXTENSION ... SET SCHEMA. After ALTER EXTENSION idtypes
-- UPDATE the same queries are right, and the generic plan of <@ prunes at executor start.
\set idt_regress_db :DBNAME
\set VERBOSITY terse
\pset tuples_only on
CREATE ROLE regress_idt_hijacker;
-- The helpers, in a template the three databases are made from.
CREATE DATABASE regress_idt_hijack_tpl TEMPLATE template0;
\c regress_idt_hijack_tpl
CREATE SCHEMA hj;
CREATE FUNCTION hj.types() RETURNS text[] LANGUAGE sql
	RETURN ARRAY['uid11', 'timeid', 'ulidflake', 'ulid', 'euid'];
-- hj.setup(s): with idtypes in schema s, a table p_<type> per type, range partitioned at
-- 2026-01-05, of 14,400 IDs a minute apart from 2026-01-01, indexed and analyzed; the hijacker
-- may create in s.
CREATE FUNCTION hj.setup(s text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	t text;
	gen text;
	bound text;
BEGIN
	EXECUTE format('GRANT CREATE, USAGE ON SCHEMA %I TO regress_idt_hijacker', s);
	FOREACH t IN ARRAY hj.types() LOOP
		gen := CASE t WHEN 'uid11' THEN 'generate_xid_at' WHEN 'timeid' THEN 'generate_tid_at'
			ELSE 'generate_' || t || '_at' END;
		EXECUTE format('SELECT %I.%I(%L)::text', s, gen, '2026-01-05 00:00+00') INTO bound;
		EXECUTE format('CREATE TABLE public.p_%1$s (id %2$I.%1$I) PARTITION BY RANGE (id);
			CREATE TABLE public.p_%1$s_a PARTITION OF public.p_%1$s FOR VALUES FROM (MINVALUE) TO (%4$L);
			CREATE TABLE public.p_%1$s_b PARTITION OF public.p_%1$s FOR VALUES FROM (%4$L) TO (MAXVALUE);
			INSERT INTO public.p_%1$s SELECT %2$I.%3$I(timestamptz %5$L + i * interval %6$L)
				FROM generate_series(0, 14399) i;
			CREATE INDEX ON public.p_%1$s (id);
			ANALYZE public.p_%1$s', t, s, gen, bound, '2026-01-01 00:00+00', '1 minute');
	END LOOP;
END $$;
-- hj.plant(s) and hj.unplant(s), run as the hijacker: the look-alikes in s, and their removal.
CREATE FUNCTION hj.plant(s text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	f text;
BEGIN
	FOR f IN SELECT format('%I(r %I.%I) RETURNS %I.%I', t || 'range_' || e, s, t || 'range', s, t)
			FROM unnest(hj.types()) t, unnest(ARRAY['lo', 'hi']) e
		UNION ALL SELECT format('euid_starts_with_recheck(e %I.euid, p text) RETURNS bool', s) LOOP
		EXECUTE format('CREATE FUNCTION %I.%s LANGUAGE plpgsql AS %L', s, f,
			format('BEGIN RAISE EXCEPTION %L; END', 'hijacked: ' || f));
	END LOOP;
END $$;
CREATE FUNCTION hj.unplant(s text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	t text;
BEGIN
	FOREACH t IN ARRAY hj.types() LOOP
		EXECUTE format('DROP FUNCTION %1$I.%2$I(%1$I.%4$I), %1$I.%3$I(%1$I.%4$I)',
			s, t || 'range_lo', t || 'range_hi', t || 'range');
	END LOOP;
	EXECUTE format('DROP FUNCTION %I.euid_starts_with_recheck(%I.euid, text)', s, s);
END $$;
-- hj.queries(): for \gexec (with ECHO none: the "ok" lines alone), with search_path at the extension's schema: per type, ^@ with a
-- constant and with a parameter of a generic plan (the prefix: a row's first six characters), and
-- <@ of a two-day window with a constant and with a parameter, each "<type> <what> ok" when it
-- counts the rows the oracle (the text's prefix, the time) counts.
CREATE FUNCTION hj.queries() RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	t text;
	p text;
	want_p bigint;
	want_w bigint;
	w text := '[2026-01-04 12:00+00,2026-01-06 12:00+00)';
BEGIN
	FOREACH t IN ARRAY hj.types() LOOP
		EXECUTE format('SELECT left(min(id)::text, 6) FROM p_%s', t) INTO p;
		EXECUTE format('SELECT count(*) FROM p_%s WHERE id::text LIKE %L', t, p || '%') INTO want_p;
		EXECUTE format('SELECT count(*) FROM p_%s WHERE id::timestamptz >= lower(%2$L::tstzrange)
			AND id::timestamptz < upper(%2$L::tstzrange)', t, w) INTO want_w;
		RETURN NEXT format('SELECT %L || CASE WHEN count(*) = %s THEN ''ok'' ELSE ''wrong'' END
			FROM p_%s WHERE id ^@ %L', t || ' ^@ constant ', want_p, t, p);
		RETURN NEXT format('PREPARE qp_%1$s(text, bigint) AS SELECT %2$L || CASE WHEN count(*) = $2
			THEN ''ok'' ELSE ''wrong'' END FROM p_%1$s WHERE id ^@ $1', t, t || ' ^@ parameter ');
		RETURN NEXT format('EXECUTE qp_%s(%L, %s)', t, p, want_p);
		RETURN NEXT format('SELECT %L || CASE WHEN count(*) = %s THEN ''ok'' ELSE ''wrong'' END
			FROM p_%s WHERE id <@ %s_time_range(%L)', t || ' <@ constant ', want_w, t, t, w);
		RETURN NEXT format('PREPARE qw_%1$s(tstzrange, bigint) AS SELECT %2$L || CASE WHEN count(*) = $2
			THEN ''ok'' ELSE ''wrong'' END FROM p_%1$s WHERE id <@ %1$s_time_range($1)',
			t, t || ' <@ parameter ');
		RETURN NEXT format('EXECUTE qw_%s(%L, %s)', t, w, want_w);
	END LOOP;
	RETURN NEXT 'DEALLOCATE ALL';
END $$;
GRANT USAGE ON SCHEMA hj TO regress_idt_hijacker;
\c :idt_regress_db

-- The extension in public: on 1.0's catalog, planted, its queries; updated (1.0's look-alikes
-- dropped first: the update creates functions of those names, and PostgreSQL refuses to take
-- over another role's), the queries again and a pruning generic plan.
CREATE DATABASE regress_idt_hijack TEMPLATE regress_idt_hijack_tpl;
\c regress_idt_hijack
CREATE EXTENSION idtypes VERSION '1.0';
\set s public
SELECT hj.setup(:'s');
SET ROLE regress_idt_hijacker; SELECT hj.plant(:'s'); RESET ROLE;
SET search_path = :"s", public;
SELECT ulidrange_lo('[01KDVD0000000000000000000A,)');    -- planted, as called by name
SET plan_cache_mode = force_generic_plan;
\set ECHO none
SELECT hj.queries() \gexec
\set ECHO all
SET ROLE regress_idt_hijacker; SELECT hj.unplant(:'s'); RESET ROLE;
ALTER EXTENSION idtypes UPDATE;
\set ECHO none
SELECT hj.queries() \gexec
\set ECHO all
PREPARE qw(tstzrange) AS SELECT count(*) FROM p_ulid WHERE id <@ ulid_time_range($1);
EXPLAIN (COSTS OFF) EXECUTE qw('[2026-01-06 00:00+00,2026-01-06 12:00+00)');
\c :idt_regress_db
DROP DATABASE regress_idt_hijack;

-- In a schema of its own: the same
CREATE DATABASE regress_idt_hijack TEMPLATE regress_idt_hijack_tpl;
\c regress_idt_hijack
CREATE SCHEMA idt;
CREATE EXTENSION idtypes VERSION '1.0' SCHEMA idt;
\set s idt
SELECT hj.setup(:'s');
SET ROLE regress_idt_hijacker; SELECT hj.plant(:'s'); RESET ROLE;
SET search_path = :"s", public;
SELECT ulidrange_lo('[01KDVD0000000000000000000A,)');    -- planted, as called by name
SET plan_cache_mode = force_generic_plan;
\set ECHO none
SELECT hj.queries() \gexec
\set ECHO all
SET ROLE regress_idt_hijacker; SELECT hj.unplant(:'s'); RESET ROLE;
ALTER EXTENSION idtypes UPDATE;
\set ECHO none
SELECT hj.queries() \gexec
\set ECHO all
PREPARE qw(tstzrange) AS SELECT count(*) FROM p_ulid WHERE id <@ ulid_time_range($1);
EXPLAIN (COSTS OFF) EXECUTE qw('[2026-01-06 00:00+00,2026-01-06 12:00+00)');
\c :idt_regress_db
DROP DATABASE regress_idt_hijack;

-- Moved there: the same
CREATE DATABASE regress_idt_hijack TEMPLATE regress_idt_hijack_tpl;
\c regress_idt_hijack
CREATE SCHEMA idt;
CREATE EXTENSION idtypes VERSION '1.0';
ALTER EXTENSION idtypes SET SCHEMA idt;
\set s idt
SELECT hj.setup(:'s');
SET ROLE regress_idt_hijacker; SELECT hj.plant(:'s'); RESET ROLE;
SET search_path = :"s", public;
SELECT ulidrange_lo('[01KDVD0000000000000000000A,)');    -- planted, as called by name
SET plan_cache_mode = force_generic_plan;
\set ECHO none
SELECT hj.queries() \gexec
\set ECHO all
SET ROLE regress_idt_hijacker; SELECT hj.unplant(:'s'); RESET ROLE;
ALTER EXTENSION idtypes UPDATE;
\set ECHO none
SELECT hj.queries() \gexec
\set ECHO all
PREPARE qw(tstzrange) AS SELECT count(*) FROM p_ulid WHERE id <@ ulid_time_range($1);
EXPLAIN (COSTS OFF) EXECUTE qw('[2026-01-06 00:00+00,2026-01-06 12:00+00)');
\c :idt_regress_db
DROP DATABASE regress_idt_hijack;

DROP DATABASE regress_idt_hijack_tpl;
DROP ROLE regress_idt_hijacker;
