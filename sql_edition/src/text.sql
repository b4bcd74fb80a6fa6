
-- uid11: 11 Base58 symbols of the unsigned 64-bit payload (a bigint below zero is a payload
-- from 2^63 on).
CREATE OR REPLACE FUNCTION @extschema@.uid11_to_text(id bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
	SELECT string_agg(substr({{BASE58}}, (mod(div(n, ({{POW58}}::numeric[])[g + 1]), 58))::int + 1, 1), '' ORDER BY g)
	FROM (SELECT CASE WHEN id < 0 THEN id + 18446744073709551616::numeric ELSE id::numeric END AS n) AS s,
		generate_series(0, 10) AS g;
END;

-- The digits of a text of `width` symbols (the first at most max_first), or the native error.
CREATE OR REPLACE FUNCTION @extschema@._input_digits(typ text, input text, width int, max_first int)
RETURNS int[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	b bytea := convert_to(input, getdatabaseencoding());
	d int[];
BEGIN
	IF octet_length(b) <> width THEN
		PERFORM @extschema@._parse_error(typ, input, false, 'bad_length', 0);
	END IF;
	d := @extschema@._digits(typ, b);
	IF d[1] < 0 THEN
		PERFORM @extschema@._parse_error(typ, input, false, 'bad_symbol', -1 - d[1]);
	END IF;
	IF d[1] > max_first THEN
		PERFORM @extschema@._parse_error(typ, input, false, 'out_of_range', 0);
	END IF;
	RETURN d;
END
$$;

CREATE OR REPLACE FUNCTION @extschema@.uid11_from_text(input text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	d int[] := @extschema@._input_digits('uid11', input, 11, 57);
	n numeric := 0;
BEGIN
	FOR i IN 1 .. 11 LOOP
		n := n * 58 + d[i];
	END LOOP;
	IF n > 18446744073709551615 THEN
		PERFORM @extschema@._parse_error('uid11', input, false, 'out_of_range', 0);
	END IF;
	RETURN CASE WHEN n >= 9223372036854775808 THEN n - 18446744073709551616 ELSE n END;
END
$$;

-- timeid and ulidflake: 13 base-32 symbols of a non-negative bigint.
CREATE OR REPLACE FUNCTION @extschema@._check_64(typ text, id bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
	IF id < 0 THEN
		RAISE EXCEPTION USING ERRCODE = '22003',
			MESSAGE = 'value ' || id || ' is out of range for type ' || typ,
			DETAIL = 'A ' || typ || ' is a non-negative integer.';
	END IF;
	RETURN id;
END
$$;

CREATE OR REPLACE FUNCTION @extschema@.timeid_to_text(id bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@._b32(B'0' || @extschema@._check_64('timeid', id)::bit(64), {{SORTABLE}});

CREATE OR REPLACE FUNCTION @extschema@.timeid_dashed(id bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN regexp_replace(@extschema@.timeid_to_text(id), '^(.{4})(.{3})(.{4})(.{2})$', '\1-\2-\3-\4');

CREATE OR REPLACE FUNCTION @extschema@.ulidflake_to_text(id bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@._b32(B'0' || @extschema@._check_64('ulidflake', id)::bit(64), {{CROCKFORD}});

-- The bigint of 13 digits whose first is at most 7.
CREATE OR REPLACE FUNCTION @extschema@._int13(d int[]) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN substring(@extschema@._bits(d) FROM 2)::bit(64)::bigint;

-- TID display dashes: the text without them, or the error of a misplaced or missing one.
CREATE OR REPLACE FUNCTION @extschema@._timeid_plain(input text, b bytea, is_prefix boolean) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	plain bytea := '';
	dash boolean;
BEGIN
	IF position('\x2d'::bytea IN b) = 0 THEN
		RETURN b;
	END IF;
	FOR i IN 0 .. octet_length(b) - 1 LOOP
		dash := i IN (4, 8, 13);
		IF dash <> (get_byte(b, i) = 45) THEN
			PERFORM @extschema@._parse_error('timeid', input, is_prefix,
				CASE WHEN dash THEN 'missing_dash' ELSE 'bad_dash' END, i);
		END IF;
		IF NOT dash THEN
			plain := plain || substring(b FROM i + 1 FOR 1);
		END IF;
	END LOOP;
	RETURN plain;
END
$$;

CREATE OR REPLACE FUNCTION @extschema@.timeid_from_text(input text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	b bytea := convert_to(input, getdatabaseencoding());
	plain bytea := b;
	d int[];
	off int;
BEGIN
	IF octet_length(b) = 16 THEN
		plain := @extschema@._timeid_plain(input, b, false);
		IF octet_length(plain) <> 13 THEN
			PERFORM @extschema@._parse_error('timeid', input, false, 'missing_dash', 4);
		END IF;
	ELSIF octet_length(b) <> 13 THEN
		PERFORM @extschema@._parse_error('timeid', input, false, 'bad_length', 0);
	END IF;
	d := @extschema@._digits('timeid', plain);
	IF d[1] < 0 THEN
		off := -1 - d[1];
		IF octet_length(b) = 16 THEN
			off := off + (off >= 4)::int + (off >= 7)::int + (off >= 11)::int;
		END IF;
		PERFORM @extschema@._parse_error('timeid', input, false, 'bad_symbol', off);
	END IF;
	IF d[1] > 7 THEN
		PERFORM @extschema@._parse_error('timeid', input, false, 'out_of_range', 0);
	END IF;
	RETURN @extschema@._int13(d);
END
$$;

CREATE OR REPLACE FUNCTION @extschema@.ulidflake_from_text(input text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@._int13(@extschema@._input_digits('ulidflake', input, 13, 7));

-- ulid: 26 Crockford symbols of the 16 bytes (two zero bits first).
CREATE OR REPLACE FUNCTION @extschema@.ulid_to_text(id uuid) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@._b32(B'00' || @extschema@._uuid_bits(id), {{CROCKFORD}});

CREATE OR REPLACE FUNCTION @extschema@.ulid_from_text(input text) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@._bits_uuid(substring(@extschema@._bits(@extschema@._input_digits('ulid', input, 26, 7)) FROM 3));

-- euid: 27 Crockford symbols of the 16 bytes and the 7-bit check (the value mod 127).
CREATE OR REPLACE FUNCTION @extschema@.euid_to_text(id uuid) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@._b32(@extschema@._uuid_bits(id) || @extschema@._mod127(id)::bit(7), {{CROCKFORD}});

-- The value of 27 valid digits, or NULL when the check does not match.
CREATE OR REPLACE FUNCTION @extschema@._euid_value(d int[]) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	bits varbit := @extschema@._bits(d);
	v uuid := @extschema@._bits_uuid(substring(bits FROM 1 FOR 128));
	c int := substring(bits FROM 129 FOR 7)::int;
BEGIN
	IF c <> 127 AND c <> @extschema@._mod127(v) THEN
		RETURN NULL;
	END IF;
	RETURN v;
END
$$;

CREATE OR REPLACE FUNCTION @extschema@.euid_from_text(input text) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	v uuid := @extschema@._euid_value(@extschema@._input_digits('euid', input, 27, 31));
BEGIN
	IF v IS NULL THEN
		PERFORM @extschema@._parse_error('euid', input, false, 'bad_check', 26);
	END IF;
	RETURN v;
END
$$;

-- Does the sibling type (ulid for euid, euid for ulid) read the text?
CREATE OR REPLACE FUNCTION @extschema@._reads(typ text, input text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	b bytea := convert_to(input, getdatabaseencoding());
	d int[];
BEGIN
	IF octet_length(b) <> (CASE typ WHEN 'ulid' THEN 26 ELSE 27 END) THEN
		RETURN false;
	END IF;
	d := @extschema@._digits(typ, b);
	IF d[1] < 0 THEN
		RETURN false;
	END IF;
	IF typ = 'ulid' THEN
		RETURN d[1] <= 7;
	END IF;
	RETURN @extschema@._euid_value(d) IS NOT NULL;
END
$$;
