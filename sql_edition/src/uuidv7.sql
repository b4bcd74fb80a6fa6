
-- ---- uuid: PostgreSQL 18's uuidv7() and its functions, for 15 to 17 --------------------------

-- uuidv7(): 48-bit Unix ms | version 7 | 12-bit fraction of the ms | variant 10 | 62 random bits
-- (a v4 UUID's last 8 bytes: its variant and 62 random bits, in hex: a third of the time of its
-- text's last 17 characters). One expression, which the planner inlines.
CREATE OR REPLACE FUNCTION @extschema@.uuidv7() RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN (overlay(lpad(to_hex(@extschema@._ms4096_next('idtypes_sql.uuidv7_last')), 15, '0') PLACING '7' FROM 13 FOR 0)
	|| encode(substring(uuid_send(gen_random_uuid()) FROM 9), 'hex'))::uuid;

-- uuidv7(shift): the time shifted as timestamptz + interval shifts it (days and months in the
-- session's time zone), with core 18's errors.
CREATE OR REPLACE FUNCTION @extschema@.uuidv7(shift interval) RETURNS uuid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	units bigint := @extschema@._ms4096_next('idtypes_sql.uuidv7_last');
	us bigint := units * 125 / 512;
	ts timestamptz;
	shifted bigint;
BEGIN
	IF NOT isfinite(shift) THEN
		RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = 'interval out of range for UUID version 7',
			DETAIL = 'UUID version 7 does not support infinite intervals.';
	END IF;
	ts := @extschema@._us_time(us) + shift;
	IF ts < timestamptz 'epoch' OR ts >= @extschema@._us_time(281474976710656000) THEN
		RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = 'timestamp out of range for UUID version 7',
			DETAIL = 'UUID version 7 supports timestamps from 1970-01-01 to approximately year 10889.';
	END IF;
	-- the shifted µs in units (in two steps: µs * 512 passes 2^63 after the year 2540), and the
	-- 4096ths of a ms the step added past the clock's µs
	shifted := (extract(epoch FROM ts) * 1000000)::bigint;
	units := shifted / 125 * 512 + shifted % 125 * 512 / 125 + (units - us * 512 / 125);
	RETURN (overlay(lpad(to_hex(units), 15, '0') PLACING '7' FROM 13 FOR 0)
		|| encode(substring(uuid_send(gen_random_uuid()) FROM 9), 'hex'))::uuid;
END
$$;

-- RFC 9562's version, where the variant is RFC 9562's (10), else NULL.
CREATE OR REPLACE FUNCTION @extschema@.uuid_extract_version(id uuid) RETURNS smallint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN substr(id::text, 20, 1) IN ('8', '9', 'a', 'b')
	THEN ('x' || substr(id::text, 15, 1))::bit(4)::int::smallint END;

-- The time of a version 7 (its ms) or version 1 (its 100 ns since 1582-10-15, in µs, truncated)
-- UUID of RFC 9562's variant, else NULL.
CREATE OR REPLACE FUNCTION @extschema@.uuid_extract_timestamp(id uuid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN substr(id::text, 20, 1) NOT IN ('8', '9', 'a', 'b') THEN NULL
	WHEN substr(id::text, 15, 1) = '7'
	THEN @extschema@._us_time(('x' || left(replace(id::text, '-', ''), 12))::bit(48)::bigint * 1000)
	WHEN substr(id::text, 15, 1) = '1'
	THEN @extschema@._us_time(('x' || substr(id::text, 16, 3) || substr(id::text, 10, 4) || left(id::text, 8))::bit(60)::bigint / 10
		- 12219292800000000) END;

-- The native edition's error for a uuid prefix: at the character at pos, or (pos NULL) of its
-- length, unless a character that is not ASCII comes first.
CREATE OR REPLACE FUNCTION @extschema@._uuid_prefix_error(prefix text, pos int) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
	IF pos IS NULL AND prefix ~ '[^\x01-\x7f]' THEN
		pos := length(substring(prefix FROM '^[\x01-\x7f]*')) + 1;
	END IF;
	IF pos IS NULL THEN
		RAISE EXCEPTION USING ERRCODE = '22P02',
			MESSAGE = format('invalid prefix for type uuid: "%s"', prefix),
			DETAIL = format('Expected at most 32 hex digits, or 36 characters with dashes, got %s.', octet_length(prefix));
	END IF;
	RAISE EXCEPTION USING ERRCODE = '22P02',
		MESSAGE = format('invalid prefix for type uuid: "%s"', prefix),
		DETAIL = format('The character %s at position %s is not a valid symbol; uuid symbols are 0-9 and a-f in either case, and a dash after the 8th, 12th, 16th or 20th digit.',
			@extschema@._character(prefix, convert_to(prefix, getdatabaseencoding()), octet_length(substr(prefix, 1, pos - 1))), pos);
END
$$;

-- The hex digits of a uuid prefix (a dash allowed right after the 8th, 12th, 16th and 20th, where
-- uuid's text has them), as the native edition's uuid ^@ text reads it, or its error.
CREATE OR REPLACE FUNCTION @extschema@._uuid_prefix(prefix text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	digits text := '';
	c text;
	dash_allowed boolean := false;
BEGIN
	IF octet_length(prefix) > 36 THEN
		RETURN @extschema@._uuid_prefix_error(prefix, NULL);
	END IF;
	FOR i IN 1 .. length(prefix) LOOP
		c := substr(prefix, i, 1);
		IF c = '-' AND dash_allowed THEN
			dash_allowed := false;
		ELSIF c COLLATE "C" ~ '^[0-9a-fA-F]$' THEN
			IF length(digits) = 32 THEN
				RETURN @extschema@._uuid_prefix_error(prefix, NULL);
			END IF;
			digits := digits || lower(c COLLATE "C");
			dash_allowed := length(digits) IN (8, 12, 16, 20);
		ELSE
			RETURN @extschema@._uuid_prefix_error(prefix, i);
		END IF;
	END LOOP;
	RETURN digits;
END
$$;

CREATE OR REPLACE FUNCTION @extschema@.uuid_prefix_lo(prefix text) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN rpad(@extschema@._uuid_prefix(prefix), 32, '0')::uuid;

CREATE OR REPLACE FUNCTION @extschema@.uuid_prefix_hi(prefix text) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN rpad(@extschema@._uuid_prefix(prefix), 32, 'f')::uuid;

-- Does the uuid's text start with the prefix? An index range condition once inlined.
CREATE OR REPLACE FUNCTION @extschema@.uuid_starts_with(id uuid, prefix text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id >= @extschema@.uuid_prefix_lo(prefix) AND id <= @extschema@.uuid_prefix_hi(prefix);

-- The UUIDv7s of a time window (their first 48 bits, the Unix ms, as a ulid's), and the first at
-- a time (partition bounds).
CREATE OR REPLACE FUNCTION @extschema@.uuidv7_time_lo(w tstzrange) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@.ulid_time_lo(w);

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_time_hi(w tstzrange) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@.ulid_time_hi(w);

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_first_at(ts timestamptz) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@.ulid_first_at(ts);

-- Does the UUIDv7's time lie in the window? An index range condition once inlined.
CREATE OR REPLACE FUNCTION @extschema@.uuid_in_time_range(id uuid, w tstzrange) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id >= @extschema@.ulid_time_lo(w) AND id <= @extschema@.ulid_time_hi(w);
