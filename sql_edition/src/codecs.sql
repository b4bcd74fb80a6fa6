
-- ---- text of the five formats -------------------------------------------------------------------

-- The digits of a text (one per byte), or the offset of the first byte that is no symbol as
-- {-1 - offset}.
CREATE OR REPLACE FUNCTION @extschema@._digits(typ text, b bytea) RETURNS int[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	d int[] := '{}';
	v int;
BEGIN
	FOR i IN 0 .. octet_length(b) - 1 LOOP
		v := @extschema@._digit(typ, get_byte(b, i));
		IF v < 0 THEN
			RETURN ARRAY[-1 - i];
		END IF;
		d := d || v;
	END LOOP;
	RETURN d;
END
$$;

-- Base 32 of a bit string whose length is a multiple of 5.
CREATE OR REPLACE FUNCTION @extschema@._b32(bits varbit, alphabet text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
	SELECT string_agg(substr(alphabet, substring(bits FROM g * 5 + 1 FOR 5)::int + 1, 1), '' ORDER BY g)
	FROM generate_series(0, length(bits) / 5 - 1) AS g;
END;

-- The bits of base-32 digits, 5 each.
CREATE OR REPLACE FUNCTION @extschema@._bits(d int[]) RETURNS varbit
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
	SELECT string_agg(x::bit(5)::text, '' ORDER BY n)::varbit FROM unnest(d) WITH ORDINALITY AS u(x, n);
END;

-- uuid <-> 128 bits.
CREATE OR REPLACE FUNCTION @extschema@._uuid_bits(u uuid) RETURNS bit(128)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || replace(u::text, '-', ''))::bit(128);

CREATE OR REPLACE FUNCTION @extschema@._bits_uuid(b varbit) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (lpad(to_hex(substring(b FROM 1 FOR 64)::bit(64)::bigint), 16, '0')
	|| lpad(to_hex(substring(b FROM 65 FOR 64)::bit(64)::bigint), 16, '0'))::uuid;

-- The 128-bit value mod 127 (EUID's check): 2^32 = 16 (mod 127).
CREATE OR REPLACE FUNCTION @extschema@._mod127(u uuid) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
	SELECT (((((('x' || substr(h, 1, 8))::bit(32)::bigint % 127) * 16
		+ ('x' || substr(h, 9, 8))::bit(32)::bigint) % 127 * 16
		+ ('x' || substr(h, 17, 8))::bit(32)::bigint) % 127 * 16
		+ ('x' || substr(h, 25, 8))::bit(32)::bigint) % 127)::int
	FROM (SELECT replace(u::text, '-', '') AS h) AS s;
END;
