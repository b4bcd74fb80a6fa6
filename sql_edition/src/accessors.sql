
-- ---- fields ------------------------------------------------------------------------------------

-- Unix microseconds as a timestamptz, exactly (two steps keep each product within a double's
-- 53 bits).
CREATE OR REPLACE FUNCTION @extschema@._unix_us(us bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN '1970-01-01 00:00:00+00'::timestamptz + (us / 1000000000000) * interval '1000000 seconds'
	+ (us % 1000000000000) * interval '1 microsecond';

CREATE OR REPLACE FUNCTION @extschema@.xid_timestamp(id bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@._unix_us((1321009871111 + ((id >> 22) & 4398046511103)) * 1000);

CREATE OR REPLACE FUNCTION @extschema@.xid_random(id bigint) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (id & 4194303)::int;

CREATE OR REPLACE FUNCTION @extschema@.timeid_timestamp(id bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@._unix_us(@extschema@._check_64('timeid', id) >> 10);

CREATE OR REPLACE FUNCTION @extschema@.timeid_clock_id(id bigint) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (@extschema@._check_64('timeid', id) & 1023)::int;

CREATE OR REPLACE FUNCTION @extschema@.ulidflake_timestamp(id bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@._unix_us((1704067200000 + (@extschema@._check_64('ulidflake', id) >> 20)) * 1000);

CREATE OR REPLACE FUNCTION @extschema@.ulidflake_sid(id bigint) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (@extschema@._check_64('ulidflake', id) & 31)::int;

CREATE OR REPLACE FUNCTION @extschema@.ulid_timestamp(id uuid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@._unix_us(('x' || substr(replace(id::text, '-', ''), 1, 12))::bit(48)::bigint * 1000);

CREATE OR REPLACE FUNCTION @extschema@._hi64(id uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || substr(replace(id::text, '-', ''), 1, 16))::bit(64)::bigint;

CREATE OR REPLACE FUNCTION @extschema@.euid_timestamp(id uuid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@._unix_us(((@extschema@._hi64(id) >> 19) & 35184372088831) * 1000);

-- The extension number, or NULL when the EUID has none (length field 0).
CREATE OR REPLACE FUNCTION @extschema@.euid_extension(id uuid) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN @extschema@._hi64(id) & 15 = 0 THEN NULL
	ELSE ((@extschema@._hi64(id) >> 4) & ((1 << (@extschema@._hi64(id) & 15)::int) - 1))::int END;
