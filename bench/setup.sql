-- bench/setup.sql: the benchmark's contestants, tables and timing function (run by bench/bench.sh
-- with psql variables n, the row count, and dir, a directory the server may write files into).
\set ON_ERROR_STOP on
CREATE EXTENSION IF NOT EXISTS idtypes;

-- Every contestant: its SQL type, generator and baseline (the same width's core type). The _aa
-- rows are the baselines again, for an A/A line that shows the noise.
CREATE TABLE contestant (
	name text PRIMARY KEY, typ text NOT NULL, gen text NOT NULL, baseline text NOT NULL,
	ours bool NOT NULL, ord int NOT NULL
);
INSERT INTO contestant VALUES
	('bigint', 'bigint', '(random() * 9e18)::bigint', 'bigint', false, 1),
	('bigint_aa', 'bigint', '(random() * 9e18)::bigint', 'bigint', false, 2),
	('uid11', 'uid11', 'generate_xid()', 'bigint', true, 3),
	('timeid', 'timeid', 'generate_tid()', 'bigint', true, 4),
	('ulidflake', 'ulidflake', 'generate_ulidflake()', 'bigint', true, 5),
	('uuid', 'uuid', 'gen_random_uuid()', 'uuid', false, 6),
	('uuid_aa', 'uuid', 'gen_random_uuid()', 'uuid', false, 7),
	('ulid', 'ulid', 'generate_ulid()', 'uuid', true, 9),
	('ulid_mono', 'ulid', 'generate_ulid_monotonic()', 'uuid', true, 10),
	('euid', 'euid', 'generate_euid()', 'uuid', true, 11);
-- uuidv7(): core's from PostgreSQL 18 on, idtypes_uuidv7's (the same bytes) before.
SELECT current_setting('server_version_num')::int < 180000 AS before_18 \gset
\if :before_18
CREATE EXTENSION IF NOT EXISTS idtypes_uuidv7;
\endif
INSERT INTO contestant VALUES ('uuidv7', 'uuid', 'uuidv7()', 'uuid', false, 8);
-- A UUIDv7's time on every server (17's uuid_extract_timestamp() in pg_catalog reads version 1 only).
CREATE FUNCTION bench_uuidv7_timestamp(uuid) RETURNS timestamptz LANGUAGE sql IMMUTABLE
	AS 'SELECT ulid_timestamp($1::ulid)';

-- The time of one statement, on the server: the mean over reps runs of it.
CREATE FUNCTION bench_ms(q text, reps int DEFAULT 1) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
BEGIN
	t0 := clock_timestamp();
	FOR i IN 1 .. reps LOOP
		EXECUTE q;
	END LOOP;
	RETURN 1000 * extract(epoch FROM clock_timestamp() - t0) / reps;
END $$;

CREATE FUNCTION bench_plan(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	line text;
	plan text := '';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		plan := plan || line || E'\n';
	END LOOP;
	RETURN plan;
END $$;

CREATE TABLE result (round int, workload text, contestant text, value float8);
-- A baseline's time taken right before each contestant of a generate workload (its ratio's
-- denominator there; see bench_step).
CREATE TABLE paired (round int, workload text, contestant text, baseline text, value float8);

-- Per contestant: src_<c> in generation order (with a btree index, vacuumed for index-only
-- scans), hsrc_<c> the same rows with a hash index, shuf_<c> in random order, ord_<c> sorted,
-- probe_<c> 100,000 random IDs of src, the tables COPY loads into, dflt_<c> with the generator as default, and its COPY files.
DO $$
DECLARE
	c record;
BEGIN
	FOR c IN SELECT * FROM contestant ORDER BY ord LOOP
		EXECUTE format('CREATE TABLE src_%s AS SELECT %s AS id FROM generate_series(1, %s)',
		               c.name, c.gen, current_setting('bench.n'));
		EXECUTE format('CREATE TABLE shuf_%1$s AS SELECT id FROM src_%1$s ORDER BY random()', c.name);
		EXECUTE format('CREATE TABLE ord_%1$s AS SELECT id FROM src_%1$s ORDER BY id', c.name);
		EXECUTE format('CREATE TABLE probe_%1$s AS SELECT id FROM shuf_%1$s LIMIT 100000', c.name);
		EXECUTE format('CREATE INDEX src_%1$s_id ON src_%1$s (id)', c.name);
		EXECUTE format('CREATE TABLE hsrc_%1$s AS SELECT id FROM src_%1$s', c.name);
		EXECUTE format('CREATE INDEX hsrc_%1$s_id ON hsrc_%1$s USING hash (id)', c.name);
		EXECUTE format('CREATE TABLE load_%s (id %s)', c.name, c.typ);
		EXECUTE format('CREATE TABLE dflt_%s (id %s DEFAULT %s)', c.name, c.typ, c.gen);
		EXECUTE format('CREATE TABLE conc_%s (id %s PRIMARY KEY DEFAULT %s)', c.name, c.typ, c.gen);
		EXECUTE format('COPY src_%s TO %L', c.name, current_setting('bench.dir') || '/' || c.name || '.txt');
		EXECUTE format('COPY src_%s TO %L (FORMAT binary)', c.name,
		               current_setting('bench.dir') || '/' || c.name || '.bin');
	END LOOP;
END $$;
VACUUM ANALYZE;
-- A table whose pages are not all marked visible makes its index-only scans visit the heap (seen:
-- the first table vacuumed, while something still held back the xmin horizon): vacuum such a
-- table again (twice, the second time after a pause), and warn if that did not help.
CREATE TEMP VIEW not_all_visible AS
SELECT relname FROM pg_class
WHERE relname LIKE 'src\_%' AND relkind = 'r' AND relallvisible < relpages * 0.95;
SELECT format('VACUUM %I', relname) FROM not_all_visible \gexec
SELECT 'SELECT pg_sleep(2)' FROM not_all_visible LIMIT 1 \gexec
SELECT format('VACUUM %I', relname) FROM not_all_visible \gexec
DO $$
DECLARE
	t text;
BEGIN
	FOR t IN SELECT relname FROM not_all_visible LOOP
		RAISE WARNING '% is not all-visible: its index-only scans will read the heap', t;
	END LOOP;
END $$;

-- The 1% windows: by rank, for BETWEEN on every contestant; for ours and uuidv7 (a uuid column
-- with idtypes' operators) also a prefix (the length whose range holds nearest to 1% of the rows)
-- and a time window, each with the same bounds as BETWEEN, so that ^@ and <@ are compared with
-- BETWEEN over the very same rows.
CREATE TABLE window_sql (contestant text, workload text, q text);
DO $$
DECLARE
	c record;
	n bigint := current_setting('bench.n')::bigint;
	lo text;
	hi text;
	best_p text;
	best_d float8;
	p text;
	k bigint;
	full_text text;
	ts_lo timestamptz;
	ts_hi timestamptz;
	ts_fn text;
	tr_fn text;
BEGIN
	FOR c IN SELECT * FROM contestant ORDER BY ord LOOP
		EXECUTE format('SELECT id::text FROM ord_%s OFFSET %s LIMIT 1', c.name, n * 495 / 1000) INTO lo;
		EXECUTE format('SELECT id::text FROM ord_%s OFFSET %s LIMIT 1', c.name, n * 505 / 1000) INTO hi;
		INSERT INTO window_sql VALUES (c.name, 'range: BETWEEN (1%)',
			format('SELECT count(*) FROM src_%s WHERE id BETWEEN %L AND %L', c.name, lo, hi));
		CONTINUE WHEN NOT (c.ours OR c.name = 'uuidv7');
		-- the prefix of the median ID nearest to 1% of the rows
		full_text := lo;
		best_d := 'infinity';
		FOR i IN 1 .. length(full_text) LOOP
			p := left(full_text, i);
			EXECUTE format('SELECT count(*) FROM src_%s WHERE id ^@ %L', c.name, p) INTO k;
			IF abs(k - n / 100.0) < best_d THEN
				best_d := abs(k - n / 100.0);
				best_p := p;
			END IF;
		END LOOP;
		EXECUTE format('SELECT lower(r)::text, upper(r)::text FROM (SELECT %s_prefix_range(%L) r) s',
		               c.typ, best_p) INTO lo, hi;
		INSERT INTO window_sql VALUES
			(c.name, 'range: ^@ prefix', format('SELECT count(*) FROM src_%s WHERE id ^@ %L', c.name, best_p)),
			(c.name, 'range: BETWEEN prefix bounds',
			 format('SELECT count(*) FROM src_%s WHERE id BETWEEN %L AND %L', c.name, lo, hi));
		-- a time window over the middle 1% of the rows
		ts_fn := CASE c.typ WHEN 'uid11' THEN 'xid_timestamp' WHEN 'uuid' THEN 'bench_uuidv7_timestamp'
		         ELSE c.typ || '_timestamp' END;
		tr_fn := CASE c.typ WHEN 'uuid' THEN 'uuidv7_time_range' ELSE c.typ || '_time_range' END;
		EXECUTE format('SELECT %1$s(id) FROM ord_%2$s OFFSET %3$s LIMIT 1', ts_fn, c.name, n * 495 / 1000) INTO ts_lo;
		EXECUTE format('SELECT %1$s(id) FROM ord_%2$s OFFSET %3$s LIMIT 1', ts_fn, c.name, n * 505 / 1000) INTO ts_hi;
		EXECUTE format('SELECT lower(r)::text, upper(r)::text FROM (SELECT %s(tstzrange(%L, %L, ''[]'')) r) s',
		               tr_fn, ts_lo, ts_hi) INTO lo, hi;
		INSERT INTO window_sql VALUES
			(c.name, 'range: <@ time range',
			 format('SELECT count(*) FROM src_%s WHERE id <@ %s(tstzrange(%L, %L, ''[]''))',
			        c.name, tr_fn, ts_lo, ts_hi)),
			(c.name, 'range: BETWEEN time bounds',
			 format('SELECT count(*) FROM src_%s WHERE id BETWEEN %L AND %L', c.name, lo, hi));
	END LOOP;
END $$;

-- Every timed statement: workload, contestant, the settings it runs under (name=value, space
-- separated), the statement, what it runs before (untimed), and the plan node it must show.
CREATE TABLE work (workload text, contestant text, settings text, q text, before text, want text, ord int);
INSERT INTO work
SELECT w.workload, c.name, w.settings, format(w.q, c.name, c.gen, current_setting('bench.n'), current_setting('bench.dir')),
       format(w.before, c.name), w.want, w.ord
FROM contestant c, (VALUES
	(1, 'generate: one statement', '', 'SELECT count(%2$s) FROM generate_series(1, %3$s)', '', ''),
	(2, 'generate: column default (INSERT ... SELECT)', '', 'INSERT INTO dflt_%1$s SELECT FROM generate_series(1, %3$s)',
	    'TRUNCATE dflt_%1$s', ''),
	(3, 'COPY out: text', '', 'COPY src_%1$s TO ''/dev/null''', '', ''),
	(4, 'COPY out: binary', '', 'COPY src_%1$s TO ''/dev/null'' (FORMAT binary)', '', ''),
	(5, 'COPY in: text', '', 'COPY load_%1$s FROM ''%4$s/%1$s.txt''', 'TRUNCATE load_%1$s', ''),
	(6, 'COPY in: binary', '', 'COPY load_%1$s FROM ''%4$s/%1$s.bin'' (FORMAT binary)', 'TRUNCATE load_%1$s', ''),
	(7, 'btree build', '', 'CREATE INDEX bt_%1$s ON shuf_%1$s (id)', 'DROP INDEX IF EXISTS bt_%1$s', ''),
	(8, 'sort: random order', 'enable_indexscan=off enable_indexonlyscan=off enable_bitmapscan=off',
	    'SELECT id FROM shuf_%1$s ORDER BY id OFFSET %3$s', '', 'Sort'),
	(9, 'sort: time order (generation order)', 'enable_indexscan=off enable_indexonlyscan=off enable_bitmapscan=off',
	    'SELECT id FROM src_%1$s ORDER BY id OFFSET %3$s', '', 'Sort'),
	(10, 'hash join', 'enable_mergejoin=off enable_nestloop=off',
	    'SELECT count(*) FROM src_%1$s a JOIN shuf_%1$s b USING (id)', '', 'Hash Join'),
	(11, 'hash aggregate', 'enable_sort=off',
	    'SELECT count(*) FROM (SELECT id FROM shuf_%1$s GROUP BY id) s', '', 'HashAggregate'),
	(12, 'index probes (100k)', 'enable_hashjoin=off enable_mergejoin=off enable_bitmapscan=off',
	    'SELECT count(*) FROM probe_%1$s p JOIN src_%1$s s ON s.id = p.id', '', 'Index Only Scan'),
	(12, 'hash index probes (100k)', 'enable_hashjoin=off enable_mergejoin=off enable_bitmapscan=off',
	    'SELECT count(*) FROM probe_%1$s p JOIN hsrc_%1$s s ON s.id = p.id', '', 'Index Scan using hsrc_')
) w(ord, workload, settings, q, before, want);
INSERT INTO work
SELECT workload, contestant, 'enable_bitmapscan=off enable_seqscan=off', q, '', 'Index Only Scan',
       CASE WHEN workload LIKE '%(1%%)' THEN 13 WHEN workload LIKE '%prefix%' THEN 14 ELSE 15 END
FROM window_sql;

-- One workload of one round: every contestant in turn, starting with a different one each round,
-- so that drift over time does not favour anyone. In round 1 the plan is checked first.
CREATE FUNCTION bench_step(rnd int, wl text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	w record;
	b record;
	bl text;
	kv text;
	plan text;
	reps int := CASE WHEN wl LIKE 'range:%' THEN 50 ELSE 1 END;
	-- Run once untimed before it is timed (below).
	warm bool := wl LIKE 'range:%' OR wl LIKE '%index probes%';
	k int := (SELECT count(*) FROM contestant);
BEGIN
	FOR w IN SELECT work.*, c.baseline FROM work JOIN contestant c ON c.name = work.contestant
	         WHERE work.workload = wl ORDER BY (c.ord + rnd) % k LOOP
		FOREACH kv IN ARRAY coalesce(string_to_array(nullif(w.settings, ''), ' '), '{}') LOOP
			PERFORM set_config(split_part(kv, '=', 1), split_part(kv, '=', 2), true);
		END LOOP;
		IF rnd = 1 AND w.want <> '' THEN
			plan := bench_plan(w.q);
			IF position(w.want IN plan) = 0 THEN
				RAISE WARNING 'plan of "%" for % has no %:%', wl, w.contestant, w.want, E'\n' || plan;
			END IF;
		END IF;
		-- Generation: the contestant's baseline (but for the baselines themselves), timed right
		-- before it, is the denominator of its ratio. On a shared machine the speed drifts within
		-- a round (neighbours come and go); a baseline of the same moment cancels that drift where
		-- one per round could not, and the A/A line (a baseline against its own) is measured so
		-- too. The 128-bit generators are timed against a random bigint as well (the cost of
		-- making an ID, whatever its width). Not for the workloads that read a table or a file: a
		-- baseline run right before would find its input, read seconds before for the previous
		-- contestant, still in the CPU's caches, and a contestant its own read a round ago (the
		-- A/A line of binary COPY in read 1.57x so, 0.91x against the round's baseline).
		FOREACH bl IN ARRAY CASE WHEN wl LIKE 'generate:%' THEN ARRAY[w.baseline] ||
		        CASE WHEN w.baseline <> 'bigint' THEN '{bigint}'::text[] END ELSE '{}' END LOOP
			CONTINUE WHEN bl = w.contestant;
			SELECT * INTO b FROM work WHERE workload = wl AND contestant = bl;
			CONTINUE WHEN NOT FOUND;
			IF b.before <> '' THEN
				EXECUTE b.before;
			END IF;
			IF warm THEN
				EXECUTE b.q;
			END IF;
			INSERT INTO paired VALUES (rnd, wl, w.contestant, bl, bench_ms(b.q, reps));
		END LOOP;
		IF w.before <> '' THEN
			EXECUTE w.before;
		END IF;
		-- The range counts take a millisecond or two (planning included): run each once untimed
		-- first, so the first touch of a table and its index in this session (catalog caches) is
		-- not what is timed, and time the mean of 50 runs, so one scheduler hiccup does not decide.
		-- The index probes too run once untimed first: their index and table (30-70 MB) straddle
		-- a CPU's last-level cache, and warm, every contestant finds its own there alike.
		IF warm THEN
			EXECUTE w.q;
		END IF;
		INSERT INTO result VALUES (rnd, wl, w.contestant, bench_ms(w.q, reps));
		FOREACH kv IN ARRAY coalesce(string_to_array(nullif(w.settings, ''), ' '), '{}') LOOP
			PERFORM set_config(split_part(kv, '=', 1), 'on', true);
		END LOOP;
	END LOOP;
END $$;
