
-- ---- prefixes and time windows --------------------------------------------------------------------

-- The digits of a valid prefix of the type's text (TID display dashes removed), or the native
-- edition's error for an invalid one.
CREATE OR REPLACE FUNCTION @extschema@._prefix_digits(typ text, p text) RETURNS int[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	b bytea := convert_to(p, getdatabaseencoding());
	plain bytea := b;
	width int := CASE typ WHEN 'uid11' THEN 11 WHEN 'ulid' THEN 26 WHEN 'euid' THEN 27 ELSE 13 END;
	d int[];
	off int;
BEGIN
	IF octet_length(b) > width + (CASE WHEN typ = 'timeid' THEN 3 ELSE 0 END) THEN
		PERFORM @extschema@._parse_error(typ, p, true, 'bad_length', 0);
	END IF;
	IF typ = 'timeid' THEN
		plain := @extschema@._timeid_plain(p, b, true);
	END IF;
	IF octet_length(plain) > width THEN
		PERFORM @extschema@._parse_error(typ, p, true, 'bad_length', 0);
	END IF;
	d := @extschema@._digits(typ, plain);
	IF d[1] < 0 THEN
		off := -1 - d[1];
		IF octet_length(plain) <> octet_length(b) THEN
			off := off + (off >= 4)::int + (off >= 7)::int + (off >= 11)::int;
		END IF;
		PERFORM @extschema@._parse_error(typ, p, true, 'bad_symbol', off);
	END IF;
	IF typ = 'euid' AND cardinality(d) = 27 AND @extschema@._euid_value(d) IS NULL THEN
		PERFORM @extschema@._parse_error(typ, p, true, 'bad_check', 26);
	END IF;
	RETURN d;
END
$$;

-- An unsigned 64-bit value (numeric) as the bigint of the same bits.
CREATE OR REPLACE FUNCTION @extschema@._s64(n numeric) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (CASE WHEN n >= 9223372036854775808 THEN n - 18446744073709551616 ELSE n END)::bigint;

-- Unsigned 64-bit [lo, hi] (numeric) as the bigint bounds of an index range:
-- {first, last, lowest, highest}. A range that crosses 2^63 is two ranges of bigint,
-- [first, 2^63-1] and [-2^63, last]; its index range is then every bigint. Empty: NULL.
CREATE OR REPLACE FUNCTION @extschema@._u64_bounds(lo numeric, hi numeric) RETURNS bigint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN lo IS NULL THEN NULL
	ELSE ARRAY[@extschema@._s64(lo), @extschema@._s64(hi),
		CASE WHEN lo < 9223372036854775808 AND hi >= 9223372036854775808
			THEN -9223372036854775808 ELSE @extschema@._s64(lo) END,
		CASE WHEN lo < 9223372036854775808 AND hi >= 9223372036854775808
			THEN 9223372036854775807 ELSE @extschema@._s64(hi) END] END;

-- [lo, hi] of a prefix's digits in a positional space of `width` digits of base `base`
-- (numeric), clamped to max; NULL when lo is beyond it.
CREATE OR REPLACE FUNCTION @extschema@._positional(d int[], width int, base int, max numeric) RETURNS numeric[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	lo numeric := 0;
	hi numeric := 0;
BEGIN
	FOR i IN 1 .. width LOOP
		lo := lo * base + coalesce(d[i], 0);
		hi := hi * base + coalesce(d[i], base - 1);
	END LOOP;
	IF lo > max THEN
		RETURN NULL;
	END IF;
	RETURN ARRAY[lo, least(hi, max)];
END
$$;

-- The 64-bit types' prefix bounds: {first, last, lowest, highest} (see _u64_bounds).
CREATE OR REPLACE FUNCTION @extschema@._prefix64(typ text, p text) RETURNS bigint[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
	SELECT @extschema@._u64_bounds(r[1], r[2])
	FROM (SELECT @extschema@._positional(@extschema@._prefix_digits(typ, p),
		CASE typ WHEN 'uid11' THEN 11 ELSE 13 END, CASE typ WHEN 'uid11' THEN 58 ELSE 32 END,
		CASE typ WHEN 'uid11' THEN 18446744073709551615 ELSE 9223372036854775807 END) AS r) AS s;
END;

-- The 128-bit types' prefix bounds {lo, hi}, NULL when empty.
CREATE OR REPLACE FUNCTION @extschema@._prefix128(typ text, p text) RETURNS uuid[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	d int[] := @extschema@._prefix_digits(typ, p);
	n int := cardinality(d);
	width int := CASE typ WHEN 'ulid' THEN 26 ELSE 27 END;
	lo int[] := d || array_fill(0, ARRAY[width - n]);
	hi int[] := d || array_fill(31, ARRAY[width - n]);
BEGIN
	IF typ = 'ulid' THEN
		IF lo[1] > 7 THEN
			RETURN NULL;
		END IF;
		RETURN ARRAY[@extschema@._bits_uuid(substring(@extschema@._bits(lo) FROM 3)),
			CASE WHEN hi[1] > 7 THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid
				ELSE @extschema@._bits_uuid(substring(@extschema@._bits(hi) FROM 3)) END];
	END IF;
	RETURN ARRAY[@extschema@._bits_uuid(substring(@extschema@._bits(lo) FROM 1 FOR 128)),
		@extschema@._bits_uuid(substring(@extschema@._bits(hi) FROM 1 FOR 128))];
END
$$;

-- The closed range of time units [lo, hi] (after the format's epoch, at most max) whose instants
-- lie in the window, each bound's inclusivity honoured; NULL when none does.
CREATE OR REPLACE FUNCTION @extschema@._window(w tstzrange, unit bigint, epoch bigint, max bigint) RETURNS bigint[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	lo numeric := 0;
	hi numeric := max;
	us numeric;
BEGIN
	IF isempty(w) THEN
		RETURN NULL;
	END IF;
	IF NOT lower_inf(w) AND lower(w) <> '-infinity' THEN
		IF lower(w) = 'infinity' THEN
			RETURN NULL;
		END IF;
		us := extract(epoch FROM lower(w)) * 1000000;
		lo := CASE WHEN lower_inc(w) THEN div(us, unit) + (mod(us, unit) > 0)::int
			ELSE div(us, unit) - (mod(us, unit) < 0)::int + 1 END - epoch;
	END IF;
	IF NOT upper_inf(w) AND upper(w) <> 'infinity' THEN
		IF upper(w) = '-infinity' THEN
			RETURN NULL;
		END IF;
		us := extract(epoch FROM upper(w)) * 1000000;
		hi := CASE WHEN upper_inc(w) THEN div(us, unit) - (mod(us, unit) < 0)::int
			ELSE div(us, unit) + (mod(us, unit) > 0)::int - 1 END - epoch;
	END IF;
	lo := greatest(lo, 0);
	hi := least(hi, max);
	IF hi < lo THEN
		RETURN NULL;
	END IF;
	RETURN ARRAY[lo, hi];
END
$$;

CREATE OR REPLACE FUNCTION @extschema@._time64(w tstzrange, unit bigint, epoch bigint, max bigint, bits int)
RETURNS bigint[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
	SELECT @extschema@._u64_bounds(u[1] * 2::numeric ^ bits, (u[2] + 1) * 2::numeric ^ bits - 1)
	FROM (SELECT @extschema@._window(w, unit, epoch, max) AS u) AS s;
END;

-- A time in ms as the first 48 (ulid) or 45 (euid) bits of a uuid, the bits below all zeros
-- (lo) or all ones (hi).
CREATE OR REPLACE FUNCTION @extschema@._time128(w tstzrange, typ text) RETURNS uuid[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
	SELECT CASE WHEN typ = 'ulid' THEN ARRAY[
			(lpad(to_hex(u[1]), 12, '0') || '00000000000000000000')::uuid,
			(lpad(to_hex(u[2]), 12, '0') || 'ffffffffffffffffffff')::uuid]
		ELSE ARRAY[(lpad(to_hex(u[1] << 19), 16, '0') || '0000000000000000')::uuid,
			(lpad(to_hex((u[2] << 19) | 524287), 16, '0') || 'ffffffffffffffff')::uuid] END
	FROM (SELECT @extschema@._window(w, 1000, 0,
		CASE WHEN typ = 'ulid' THEN 281474976710655 ELSE 35184372088831 END) AS u) AS s;
END;
