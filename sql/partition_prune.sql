-- partition_prune: ^@ and <@ prune the partitions of a table range-partitioned on an ID column,
-- like the ">= lo AND <= hi" they stand for: at plan time with constants, at executor start with
-- parameters (generic plans) and stable expressions. <type>_first_at() gives the bounds.
--
-- For each type: twelve monthly partitions of 2026, FROM (<type>_first_at(month)) TO
-- (<type>_first_at(next month)), and 8000 IDs 65 minutes apart from 2026-01-01 (to 2026-12-27).
SET timezone = 'UTC';

-- The operator as it is without the planner's rewrite: a volatile left side is never duplicated,
-- so pp_opaque(id) <@ r runs the operator on every row (the seq scan's answer).
CREATE FUNCTION pp_opaque(x anyelement) RETURNS anyelement LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	RETURN x;
END $$;

CREATE TABLE pp_types (t text, gen text, prefix_len int);
INSERT INTO pp_types VALUES
	('uid11', 'generate_xid_at', 3), ('timeid', 'generate_tid_at', 3),
	('ulidflake', 'generate_ulidflake_at', 4), ('ulid', 'generate_ulid_at', 5),
	('euid', 'generate_euid_at', 4);

DO $$
DECLARE
	ty record;
	m timestamptz;
BEGIN
	FOR ty IN SELECT * FROM pp_types LOOP
		EXECUTE format('CREATE TABLE pp_%s (id %s, n int) PARTITION BY RANGE (id)', ty.t, ty.t);
		FOR i IN 1..12 LOOP
			m := '2026-01-01'::timestamptz + make_interval(months => i - 1);
			EXECUTE format('CREATE TABLE pp_%s_%s PARTITION OF pp_%s FOR VALUES FROM (%s_first_at(%L)) TO (%s_first_at(%L))',
						   ty.t, i, ty.t, ty.t, m, ty.t, m + interval '1 month');
		END LOOP;
		EXECUTE format('INSERT INTO pp_%s SELECT %s(%L::timestamptz + i * interval ''65 minutes''), i FROM generate_series(0, 7999) i',
					   ty.t, ty.gen, '2026-01-01');
		EXECUTE format('ANALYZE pp_%s', ty.t);
	END LOOP;
END $$;

-- the bounds are exact at the format's unit: every row lies in its own month's partition
SELECT t, (SELECT count(*) FROM pg_inherits i WHERE i.inhparent = ('pp_' || t)::regclass)
	AS partitions FROM pp_types;
CREATE FUNCTION pp_in_own_month(t text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
	ok bool;
BEGIN
	EXECUTE format('SELECT bool_and(date_trunc(''month'', r.id::timestamptz) = ''2026-01-01''::timestamptz
		+ make_interval(months => substring(c.relname from ''[0-9]+$'')::int - 1))
		FROM pp_%s r JOIN pg_class c ON c.oid = r.tableoid', t) INTO ok;
	RETURN ok;
END $$;
SELECT t, pp_in_own_month(t) FROM pp_types;
SELECT substring(c.relname from '[0-9]+$')::int AS ulid_partition, count(*) AS rows
FROM pp_ulid r JOIN pg_class c ON c.oid = r.tableoid GROUP BY 1 ORDER BY 1;
-- the first ID at a time, and what lies just before it
SELECT ulid_first_at('2026-03-01'), timeid_first_at('2026-03-01'), uid11_first_at('2026-03-01'),
       ulidflake_first_at('2026-03-01'), euid_first_at('2026-03-01');
SELECT ulid_first_at('2026-03-01')::timestamptz, ulid_first_at('2026-03-01 00:00:00.0001'),
       ulidrange_hi(ulid_time_range('(,2026-03-01)')) AS last_before,
       timeid_first_at('2026-03-01 00:00:00.000001')::timestamptz,
       ulid_first_at('-infinity') AS from_minus_infinity, ulid_first_at('infinity') AS past_the_era,
       ulidflake_first_at('2400-01-01') AS past_ulidflake_era;

-- Partitions a plan scans, and those removed when the executor starts ("Subplans Removed").
CREATE FUNCTION pp_scans(stmt text, OUT scanned int, OUT removed int) LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	scanned := 0;
	removed := 0;
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || stmt LOOP
		IF line ~ 'Scan on pp_[a-z0-9]+_[0-9]+' THEN
			scanned := scanned + 1;
		END IF;
		removed := removed + coalesce(substring(line from 'Subplans Removed: ([0-9]+)')::int, 0);
	END LOOP;
END $$;

-- One form on one type's table: "id <rhs>" with constants, or with $1 of param_type bound to
-- param in a generic plan; its plan's partitions and its count, which must be the seq scan's.
CREATE FUNCTION pp_check(t text, rhs text, param_type text DEFAULT NULL, param text DEFAULT NULL,
	OUT scanned int, OUT removed int, OUT rows bigint, OUT same_as_seq_scan bool)
LANGUAGE plpgsql AS $$
DECLARE
	query text := format('SELECT count(*) FROM pp_%s WHERE id %s', t, rhs);
	reference text := format('SELECT count(*) FROM pp_%s WHERE pp_opaque(id) %s', t, rhs);
	expected bigint;
BEGIN
	IF param_type IS NULL THEN
		SELECT s.scanned, s.removed INTO scanned, removed FROM pp_scans(query) s;
		EXECUTE query INTO rows;
	ELSE
		EXECUTE format('PREPARE pp_q(%s) AS %s', param_type, query);
		PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
		SELECT s.scanned, s.removed INTO scanned, removed
		FROM pp_scans(format('EXECUTE pp_q(%L)', param)) s;
		EXECUTE format('EXECUTE pp_q(%L)', param) INTO rows;
		PERFORM set_config('plan_cache_mode', 'auto', true);
		DEALLOCATE pp_q;
		reference := replace(reference, '$1', format('%L::%s', param, param_type));
	END IF;
	EXECUTE reference INTO expected;
	same_as_seq_scan := rows = expected;
END $$;

-- Every form for one type. The prefix is that of the first ID of 2026-03-10 12:00, short enough
-- to cover hours (so the rows have it whatever their random bits), long enough to stay in March.
CREATE FUNCTION pp_forms(t text) RETURNS TABLE (form text, scanned int, removed int, rows bigint,
	same_as_seq_scan bool) LANGUAGE plpgsql AS $$
DECLARE
	mar text;
	apr text;
	dec text;
	jan2 text;
	prefix text;
BEGIN
	EXECUTE format('SELECT %1$s_first_at(''2026-03-01'')::text, %1$s_first_at(''2026-04-01'')::text,
		%1$s_first_at(''2026-12-01'')::text, %1$s_first_at(''2026-01-02'')::text,
		left(%1$s_first_at(''2026-03-10 12:00'')::text, prefix_len) FROM pp_types WHERE t = %2$L',
		t, t) INTO mar, apr, dec, jan2, prefix;
	RETURN QUERY
	SELECT f.form, c.* FROM (VALUES
		(1, 'id >= first of March AND id < first of April (for comparison)',
			format('>= %L AND id < %L', mar, apr), NULL, NULL),
		(2, 'id ^@ const', format('^@ %L', prefix), NULL, NULL),
		(3, 'id <@ <type>_prefix_range(const)', format('<@ %s_prefix_range(%L)', t, prefix), NULL, NULL),
		(4, 'id <@ <type>_time_range(const)',
			format('<@ %s_time_range(''[2026-03-01,2026-03-02)'')', t), NULL, NULL),
		(5, 'id <@ (first of March, first of April)',
			format('<@ %L::%srange', format('(%s,%s)', mar, apr), t), NULL, NULL),
		(6, 'id <@ [first of December,)', format('<@ %L::%srange', format('[%s,)', dec), t), NULL, NULL),
		(7, 'id <@ (,first of January 2]', format('<@ %L::%srange', format('(,%s]', jan2), t), NULL, NULL),
		(8, 'id <@ empty', format('<@ ''empty''::%srange', t), NULL, NULL),
		(9, 'generic plan: id <@ <type>_time_range($1)', format('<@ %s_time_range($1)', t),
			'tstzrange', '[2026-03-01,2026-03-02)'),
		(10, 'generic plan: id ^@ $1', '^@ $1', 'text', prefix),
		(11, 'generic plan: id <@ $1', '<@ $1', t || 'range', format('[%s,%s)', mar, apr)),
		(12, 'stable: id <@ <type>_time_range(timestamp::timestamptz ...)',
			format('<@ %s_time_range(tstzrange(''2026-03-01''::timestamp::timestamptz, ''2026-03-02''::timestamp::timestamptz))', t),
			NULL, NULL)
		) f(ord, form, rhs, param_type, param),
		LATERAL pp_check(t, f.rhs, f.param_type, f.param) c
	ORDER BY f.ord;
END $$;

-- the rewrite: the comparisons of the partition key's btree opclass, for the partitions' bounds
EXPLAIN (COSTS OFF) SELECT * FROM pp_ulid WHERE id ^@ '01KJW';
EXPLAIN (COSTS OFF) SELECT * FROM pp_ulid WHERE id <@ ulid_time_range('[2026-03-01,2026-03-02)');
-- on a table without partitions the operator stays (its index support and estimator do better)
CREATE TABLE pp_plain (id ulid);
EXPLAIN (COSTS OFF) SELECT * FROM pp_plain WHERE id ^@ '01KJW';
DROP TABLE pp_plain;

SELECT ty.t, f.* FROM pp_types ty, LATERAL pp_forms(ty.t) f;

-- now(): pruned when the executor starts; the window is the last day, but never before the first of
-- this month (the partitions are months: on a month's first day the last day spans two), so at most
-- one partition is left, in 2026 or not, on any date
SELECT t, scanned <= 1 AND scanned + removed = 12 AS pruned_at_start
FROM pp_types, LATERAL pp_check(t, format('<@ %s_time_range(tstzrange(greatest(now() - interval ''1 day'', date_trunc(''month'', now())), now()))', t));

-- ---- the rewrite has the operator's value on every input, not only in WHERE -------------------

-- Every ID of the table, the type's smallest and largest, and NULL (in a partitioned table, where
-- the rewrite is made), against ranges with every kind of bound (and empty, and NULL) and
-- prefixes of every length (and beyond the maximum, and NULL): the operators in the select list,
-- with a constant and with a parameter (generic plan), never differ from the operator run as it
-- is, and the plans hold no ^@ or <@ any more. The operator as it is: its right side a subquery
-- (an InitPlan, run once), which the planner never rewrites (checked on each plan); pp_opaque()
-- per row did the same at 8,000 PL/pgSQL calls per form. The IDs: the table's, every step-th
-- (a quarter where IDTYPES_REGRESS_SMALL is set, under qemu-user), and the ranges' bounds below
-- (the first IDs of March and April) themselves.
\getenv regress_small IDTYPES_REGRESS_SMALL
\if :{?regress_small}
\set pp_step 4
\else
\set pp_step 1
\endif
CREATE FUNCTION pp_exact(t text, step int, OUT rhs_checked int, OUT mismatches int, OUT rewritten bool)
LANGUAGE plpgsql AS $$
DECLARE
	a text;
	b text;
	lo text;
	hi text;
	width int;
	rhs text[] := '{}';
	params text[] := '{}';
	types text[] := '{}';
	ids text := 'pp_values';
	beyond text;
	bad int;
	line text;
	kept bool;
	op text;
	arg text;
BEGIN
	EXECUTE format('SELECT %1$s_first_at(''2026-03-01'')::text, %1$s_first_at(''2026-04-01'')::text,
		%1$s_first_at(''-infinity'')::text, %1$srange_hi(''(,)'')::text', t) INTO a, b, lo, hi;
	width := length(a);
	EXECUTE format('CREATE TEMP TABLE pp_values (id %s) PARTITION BY RANGE (id)', t);
	EXECUTE 'CREATE TEMP TABLE pp_values_all PARTITION OF pp_values DEFAULT';
	EXECUTE format('INSERT INTO pp_values SELECT id FROM pp_%1$s WHERE n %% %2$s = 0 UNION ALL SELECT NULL
		UNION ALL SELECT %1$s_first_at(''-infinity'') UNION ALL SELECT %1$srange_hi(''(,)'')
		UNION ALL SELECT %3$L::%1$s UNION ALL SELECT %4$L::%1$s', t, step, a, b);
	FOREACH line IN ARRAY ARRAY['empty', '(,)', format('[%s,%s]', a, b), format('[%s,%s)', a, b),
		format('(%s,%s]', a, b), format('(%s,%s)', a, b), format('[%s,)', a), format('(%s,)', a),
		format('(,%s]', b), format('(,%s)', b), format('[%s,%s]', a, a), format('[%s,%s]', lo, hi),
		format('(%s,)', hi), format('(,%s)', lo), format('(%s,%s]', lo, lo)] LOOP
		rhs := rhs || format('<@ %L::%srange', line, t);
		params := params || line;
		types := types || (t || 'range');
	END LOOP;
	rhs := rhs || format('<@ NULL::%srange', t);
	params := params || NULL::text;
	types := types || (t || 'range');
	FOR n IN 0..width LOOP
		rhs := rhs || format('^@ %L', left(a, n));
		params := params || left(a, n);
		types := types || 'text'::text;
	END LOOP;
	beyond := CASE t WHEN 'uid11' THEN 'k' WHEN 'timeid' THEN 'c' ELSE '8' END;
	rhs := rhs || format('^@ %L', beyond) || '^@ NULL::text'::text;
	params := params || beyond || NULL::text;
	types := types || 'text'::text || 'text'::text;
	rhs_checked := 0;
	mismatches := 0;
	rewritten := true;
	FOR i IN 1..array_length(rhs, 1) LOOP
		op := substring(rhs[i] for 2);
		arg := substring(rhs[i] from 4);
		EXECUTE format('SELECT count(*) FILTER (WHERE (id %s) IS DISTINCT FROM (id %s (SELECT %s))) FROM %s',
			rhs[i], op, arg, ids) INTO bad;
		mismatches := mismatches + bad;
		kept := false;
		FOR line IN EXECUTE format('EXPLAIN (VERBOSE, COSTS OFF) SELECT id %s (SELECT %s) FROM %s',
			op, arg, ids) LOOP
			kept := kept OR line ~ 'id (\^@|<@) \(InitPlan|id (\^@|<@) \$';
		END LOOP;
		IF NOT kept THEN
			RAISE EXCEPTION 'pp_exact: the reference form of % was rewritten', rhs[i];
		END IF;
		FOR line IN EXECUTE format('EXPLAIN (VERBOSE, COSTS OFF) SELECT id %s FROM %s', rhs[i], ids) LOOP
			rewritten := rewritten AND line !~ 'id (\^@|<@)';
		END LOOP;
		EXECUTE format('PREPARE pp_e(%s) AS SELECT count(*) FILTER (WHERE (id %s $1) IS DISTINCT FROM (id %s (SELECT $1))) FROM %s',
			types[i], op, op, ids);
		EXECUTE format('PREPARE pp_r(%s) AS SELECT id %s $1 FROM %s', types[i], op, ids);
		PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
		EXECUTE format('EXECUTE pp_e(%L)', params[i]) INTO bad;
		FOR line IN EXECUTE format('EXPLAIN (VERBOSE, COSTS OFF) EXECUTE pp_r(%L)', params[i]) LOOP
			rewritten := rewritten AND line !~ 'id (\^@|<@)';
		END LOOP;
		PERFORM set_config('plan_cache_mode', 'auto', true);
		DEALLOCATE pp_e;
		DEALLOCATE pp_r;
		mismatches := mismatches + bad;
		rhs_checked := rhs_checked + 1;
	END LOOP;
	DROP TABLE pp_values;
END $$;

SELECT t, e.* FROM pp_types, LATERAL pp_exact(t, :pp_step) e;
