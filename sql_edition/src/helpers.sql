
-- ---- shared helpers (names starting with _ are internal) ---------------------------------------

-- Counters for the 8-byte generators: every session draws from them, so two IDs of one
-- millisecond (microsecond for TIDs) differ unless 2^20 (ulidflake), 2^22 (xid) or 1024 (TID
-- clock ids, one per session) values were drawn between them.
CREATE SEQUENCE IF NOT EXISTS @extschema@._counter AS bigint CYCLE;
CREATE SEQUENCE IF NOT EXISTS @extschema@._clock_ids AS bigint CYCLE;
GRANT USAGE ON SEQUENCE @extschema@._counter, @extschema@._clock_ids TO PUBLIC;

-- Does the native edition's error detail quote this character (a visible one) or name only its
-- code point (spaces, controls, combining and invisible marks, private use)?
CREATE OR REPLACE FUNCTION @extschema@._quotable(cp int) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN NOT (cp <= 32 OR cp BETWEEN 127 AND 160 OR cp = 173
	OR cp BETWEEN 768 AND 879 OR cp BETWEEN 6832 AND 6911 OR cp BETWEEN 7616 AND 7679
	OR cp BETWEEN 8400 AND 8447 OR cp BETWEEN 65056 AND 65071
	OR cp IN (847, 1564, 4447, 4448, 6158, 12288, 12644, 65279, 65440)
	OR cp BETWEEN 8192 AND 8207 OR cp BETWEEN 8232 AND 8239 OR cp BETWEEN 8287 AND 8303
	OR cp BETWEEN 65024 AND 65039 OR cp BETWEEN 65520 AND 65531 OR cp BETWEEN 917504 AND 921599
	OR cp BETWEEN 57344 AND 63743 OR cp >= 983040);

CREATE OR REPLACE FUNCTION @extschema@._hex4(v int) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN v < 4096 THEN lpad(upper(to_hex(v)), 4, '0') ELSE upper(to_hex(v)) END;

-- The 1-based character position of byte offset off of the text's bytes b.
CREATE OR REPLACE FUNCTION @extschema@._position(b bytea, off int) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN length(convert_from(substring(b FROM 1 FOR off), getdatabaseencoding())) + 1;

-- How an error names the character at byte offset off, as the native edition does.
CREATE OR REPLACE FUNCTION @extschema@._character(input text, b bytea, off int) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	c int := get_byte(b, off);
	ch text;
BEGIN
	IF c > 32 AND c < 127 THEN
		RETURN '"' || chr(c) || '"';
	ELSIF c < 128 THEN
		RETURN 'U+' || @extschema@._hex4(c) || CASE c WHEN 32 THEN ' (space)' WHEN 9 THEN ' (tab)'
			WHEN 10 THEN ' (line feed)' WHEN 13 THEN ' (carriage return)' ELSE '' END;
	ELSIF getdatabaseencoding() = 'UTF8' THEN
		ch := substr(input, @extschema@._position(b, off), 1);
		IF @extschema@._quotable(ascii(ch)) THEN
			RETURN '"' || ch || '" (U+' || @extschema@._hex4(ascii(ch)) || ')';
		END IF;
		RETURN 'U+' || @extschema@._hex4(ascii(ch));
	END IF;
	RETURN 'byte 0x' || lpad(upper(to_hex(c)), 2, '0');
END
$$;

-- Is the text a UUID (32 hex digits, or 36 with the four dashes)?
CREATE OR REPLACE FUNCTION @extschema@._uuid_shaped(input text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN input ~ '^([0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$';

-- The byte offset of the first byte that is no symbol of the type's text, or -1.
CREATE OR REPLACE FUNCTION @extschema@._non_symbol(typ text, b bytea) RETURNS int
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
	FOR i IN 0 .. octet_length(b) - 1 LOOP
		IF @extschema@._digit(typ, get_byte(b, i)) < 0
		   AND NOT (typ = 'timeid' AND get_byte(b, i) = 45) THEN
			RETURN i;
		END IF;
	END LOOP;
	RETURN -1;
END
$$;

-- Raise the native edition's error for a text that failed to parse: kind is bad_length,
-- bad_symbol (at byte offset off), missing_dash, bad_dash, bad_check or out_of_range.
CREATE OR REPLACE FUNCTION @extschema@._parse_error(typ text, input text, is_prefix boolean, kind text,
	off int) RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	b bytea := convert_to(input, getdatabaseencoding());
	len int := octet_length(b);
	what text := CASE WHEN is_prefix THEN 'invalid prefix for type ' ELSE 'invalid input syntax for type ' END
		|| typ || ': "' || input || '"';
	hint text := CASE WHEN is_prefix THEN @extschema@._text_spec(typ, 'prefix')
		ELSE @extschema@._text_spec(typ, 'length') END;
	symbols text := @extschema@._text_spec(typ, 'symbols');
	is_uuid boolean := false;
	alien int := -1;
	name text;
	sibling text;
BEGIN
	IF kind = 'bad_length' AND input ~ '[^\x01-\x7f]' THEN
		-- a multibyte character is never a symbol: name it rather than count bytes
		kind := 'bad_symbol';
		off := octet_length(convert_to(substring(input FROM '^[\x01-\x7f]*'), getdatabaseencoding()));
	END IF;
	is_uuid := kind = 'bad_length' AND NOT is_prefix AND @extschema@._text_spec(typ, 'uuid') = 'true'
		AND @extschema@._uuid_shaped(input);
	IF kind = 'bad_length' AND NOT is_uuid AND NOT is_prefix THEN
		alien := @extschema@._non_symbol(typ, b);
	END IF;
	IF alien >= 0 THEN
		name := @extschema@._character(input, b, alien);
	ELSIF kind IN ('bad_symbol', 'missing_dash') THEN
		name := @extschema@._character(input, b, off);
	END IF;
	IF kind = 'out_of_range' THEN
		RAISE EXCEPTION USING ERRCODE = '22003',
			MESSAGE = 'value "' || input || '" is out of range for type ' || typ,
			DETAIL = coalesce(@extschema@._text_spec(typ, 'range'), '');
	ELSIF kind = 'bad_length' THEN
		IF alien >= 0 THEN
			RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = what,
				DETAIL = 'Expected ' || hint || ', got ' || length(input) || '; the '
					|| CASE WHEN name LIKE 'byte %' THEN '' ELSE 'character ' END || name
					|| ' at position ' || @extschema@._position(b, alien) || ' is not a valid symbol.';
		END IF;
		sibling := @extschema@._text_spec(typ, 'sibling');
		IF is_uuid THEN
			RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = what,
				DETAIL = 'Expected ' || hint || ', got ' || length(input) || '.',
				HINT = 'To read a UUID, cast it from type uuid (''' || input || '''::uuid::' || typ
					|| '), or pass it as a parameter of type uuid.';
		ELSIF NOT is_prefix AND sibling IS NOT NULL AND @extschema@._reads(sibling, input) THEN
			RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = what,
				DETAIL = 'Expected ' || hint || ', got ' || length(input) || '.',
				HINT = 'The text is a valid ' || sibling || ': read it as type ' || sibling
					|| '. The two types lay out their bits differently, so the same bytes mean another time in each.';
		END IF;
		RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = what,
			DETAIL = 'Expected ' || hint || ', got ' || length(input) || '.';
	ELSIF kind = 'missing_dash' THEN
		RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = what,
			DETAIL = 'Expected a dash at position ' || @extschema@._position(b, off) || ', found ' || name
				|| ' (the display form is STTT-TTT-TTTT-CC).';
	ELSIF kind = 'bad_dash' THEN
		RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = what,
			DETAIL = 'The dash at position ' || @extschema@._position(b, off)
				|| ' is out of place: dashes go only at positions 5, 9 and 14 (the display form STTT-TTT-TTTT-CC).';
	ELSIF kind = 'bad_check' THEN
		RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = what,
			DETAIL = 'The check symbol does not match the value.';
	ELSIF name LIKE 'byte %' THEN
		RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = what,
			DETAIL = 'The ' || name || ' at position ' || @extschema@._position(b, off)
				|| ' is not a valid symbol; ' || typ || ' symbols are ' || symbols || '.';
	END IF;
	RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = what,
		DETAIL = 'The character ' || name || ' at position ' || @extschema@._position(b, off)
			|| ' is not a valid symbol; ' || typ || ' symbols are ' || symbols || '.';
END
$$;
