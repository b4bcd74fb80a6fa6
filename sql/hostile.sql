-- hostile: every text-taking function of every type against hostile input (empty, whitespace,
-- signs, control characters, multibyte and odd-looking UTF-8, LIKE wildcards, dashes in wrong
-- places, 1 MB strings), binary input of every wrong length, and every overflow boundary of the
-- integer casts and generator arguments. Each gets its documented SQLSTATE (22P02 malformed,
-- 22003 out of range, 22P03 binary length, 22023/22008 argument out of range): never a crash,
-- never a value. Only the SQLSTATE is printed (the messages are tested in errors.sql); an input a
-- function accepts shows as 00000 with the value's length.
\set VERBOSITY terse

CREATE FUNCTION hostile_eval(expr text, OUT state text, OUT result_length int)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE 'SELECT length((' || expr || ')::text)' INTO result_length;
	state := '00000';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE;
END
$$;

CREATE TABLE hostile_input (label text PRIMARY KEY, input text NOT NULL);
INSERT INTO hostile_input VALUES
	('empty', ''),
	('space', ' '),
	('tab/newline', E'\t\n'),
	('plus', '+1'),
	('minus', '-1'),
	('valid padded', ' 01ARZ3NDEKTSV4RRFFQ69G5FAV '),
	('control chars', E'\x01\x02\x1b[0m'),
	('latin1-looking', 'Ã©Ã©'),
	('e acute', 'é'),
	('emoji', '😀😀😀😀😀😀😀😀😀😀😀😀😀'),
	('replacement char', repeat('�', 13)),
	('fullwidth digits', '０１２３４５６７８９０１２'),
	('combining marks', 'a' || repeat(E'\u0301', 12)),
	('right-to-left mark', E'\u200f' || '0000000000000'),
	('zero-width space', '000000' || E'\u200b' || '000000'),
	('LIKE wildcards', '%_%'),
	('backslash quote', E'\\''"'),
	('only dashes', '----'),
	('dashed wrongly', '-3kxn-lhr-3gxq-2'),
	('1 MB of z', repeat('z', 1048576)),
	('1 MB of 0', repeat('0', 1048576)),
	('1 MB of e acute', repeat('é', 524288));

-- The functions that take text: input, prefix ranges, ^@ and xid_prefix_time_range.
CREATE TABLE hostile_fn (fn text PRIMARY KEY, expr text NOT NULL);
INSERT INTO hostile_fn
SELECT t || ' input', '%L::' || t FROM unnest(ARRAY['uid11', 'timeid', 'ulidflake', 'ulid', 'euid']) t
UNION ALL
SELECT t || '_prefix_range', t || '_prefix_range(%L)'
FROM unnest(ARRAY['uid11', 'timeid', 'ulidflake', 'ulid', 'euid']) t
UNION ALL
SELECT t || ' ^@', format('%L::%s ^@ %%L', v, t)
FROM (VALUES ('uid11', 'NQm6nKp8qFC'), ('timeid', '3kxnlhr3gxq23'), ('ulidflake', '00CMXB6TAK4SA'),
             ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('euid', 'C8EE934SR007G5Q94QKKXFRFV8B')) v(t, v)
UNION ALL
SELECT 'xid_prefix_time_range', 'xid_prefix_time_range(%L)';

-- Per function, the SQLSTATE each hostile input gets (labels grouped by state).
SELECT fn, state, string_agg(label || CASE WHEN state = '00000' THEN ' (' || result_length || ')' ELSE '' END,
                             ', ' ORDER BY label) AS inputs
FROM hostile_fn, hostile_input, LATERAL hostile_eval(format(expr, input))
GROUP BY fn, state
ORDER BY fn, state;

-- Binary input of every wrong length: bytea casts and the types' recv (through a binary COPY of
-- a bytea column, which hands its bytes to recv as they are): 22P03, and the right length works.
CREATE TABLE hostile_bytes (len int PRIMARY KEY, b bytea NOT NULL);
INSERT INTO hostile_bytes
SELECT n, CASE WHEN n = 0 THEN ''::bytea ELSE decode(repeat('ff', n), 'hex') END
FROM unnest(ARRAY[0, 1, 7, 8, 9, 15, 16, 17, 4096]) n;
SELECT t, state, string_agg(len::text, ' ' ORDER BY len) AS lengths
FROM unnest(ARRAY['uid11', 'timeid', 'ulidflake', 'ulid', 'euid']) t, hostile_bytes,
     LATERAL hostile_eval(format('%L::bytea::%s', b, t))
GROUP BY t, state
ORDER BY t, state;

DO $$
DECLARE
	t text;
	n int;
	st text;
	f text := current_setting('data_directory') || '/hostile_bytes.bin';
BEGIN
	FOR n IN SELECT len FROM hostile_bytes ORDER BY len LOOP
		-- a binary file of one bytea field of n bytes
		EXECUTE format('COPY (SELECT b FROM hostile_bytes WHERE len = %s) TO %L (FORMAT binary)', n, f);
		FOREACH t IN ARRAY ARRAY['uid11', 'timeid', 'ulidflake', 'ulid', 'euid'] LOOP
			EXECUTE format('CREATE TEMP TABLE hostile_recv (v %s)', t);
			BEGIN
				EXECUTE format('COPY hostile_recv FROM %L (FORMAT binary)', f);
				st := '00000';
			EXCEPTION WHEN OTHERS THEN
				GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE;
			END;
			RAISE NOTICE 'recv %: % bytes -> %', t, n, st;
			DROP TABLE hostile_recv;
		END LOOP;
	END LOOP;
END $$;

-- Integer casts at every boundary: 22003 where the type cannot hold the value.
SELECT t, v, (hostile_eval(format('(%s)::bigint::%s', v, t))).state
FROM unnest(ARRAY['uid11', 'timeid', 'ulidflake']) t,
     unnest(ARRAY['-9223372036854775808', '-1', '0', '9223372036854775807']) v
ORDER BY t, v::bigint;

-- Generator arguments at and beyond their ranges (22023), and timestamps outside each format's
-- era (22008), including infinities.
SELECT e, (hostile_eval(e)).state
FROM unnest(ARRAY[
	'generate_tid(-1)', 'generate_tid(0)', 'generate_tid(1023)', 'generate_tid(1024)',
	'generate_tid(-2147483648)', 'generate_tid(2147483647)',
	'generate_ulidflake(-1)', 'generate_ulidflake(31)', 'generate_ulidflake(32)',
	'generate_euid(-1)', 'generate_euid(32767)', 'generate_euid(32768)',
	'generate_tid_at(now(), 1024)', 'generate_ulidflake_at(now(), 32)', 'generate_euid_at(now(), 32768)',
	'generate_xid_at(''infinity'')', 'generate_xid_at(''-infinity'')', 'generate_xid_at(''2011-11-11 11:11:11.110Z'')',
	'generate_tid_at(''infinity'')', 'generate_tid_at(''1969-12-31 23:59:59.999999Z'')',
	'generate_tid_at(''294276-12-31'')',
	'generate_ulidflake_at(''-infinity'')', 'generate_ulidflake_at(''2023-12-31 23:59:59.999Z'')',
	'generate_ulid_at(''infinity'')', 'generate_ulid_at(''1969-12-31 23:59:59.999Z'')',
	'generate_ulid_at(''10889-08-02 05:31:50.656Z'')',
	'generate_euid_at(''-infinity'')', 'generate_euid_at(''1969-12-31 23:59:59.999Z'')'
]) e;

-- Time ranges of hostile windows: unbounded, infinite, empty, before and beyond each era. Never
-- an error: a window is clamped to what the type can hold (empty when nothing).
SELECT t, w, (hostile_eval(format('%s_time_range(%L::tstzrange)', t, w))).*
FROM unnest(ARRAY['uid11', 'timeid', 'ulidflake', 'ulid', 'euid']) t,
     unnest(ARRAY['(,)', '[-infinity,infinity]', 'empty', '[0001-01-01 00:00:00+00 BC,1970-01-01)',
                  '[294276-12-31,)', '(1970-01-01,1970-01-01]']) w
ORDER BY t, w;

DROP TABLE hostile_input, hostile_fn, hostile_bytes;
DROP FUNCTION hostile_eval(text);
