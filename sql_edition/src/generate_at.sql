-- sql_edition/src/generate_at.sql: generate_<t>_at(ts [, argument]) (tools/gen_sql_edition.py):
-- the given time, fresh random bits, no session state, and the native errors for a time outside
-- the format's era; {{<t>_lo}} and {{<t>_hi}} are a type's era in Unix microseconds, {{<t>_epoch}}
-- its epoch in its time unit.

-- ---- generators at a given time ---------------------------------------------------------------

CREATE OR REPLACE FUNCTION @extschema@._us_time(us bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN timestamptz 'epoch' + (us / 1000000) * interval '1 second' + (us % 1000000) * interval '1 microsecond';

-- The Unix microseconds of ts, which must lie in [lo_us, hi_us] (a type's era).
CREATE OR REPLACE FUNCTION @extschema@._at_us(ts timestamptz, type text, lo_us bigint, hi_us bigint)
RETURNS bigint
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	us numeric;
BEGIN
	IF isfinite(ts) THEN
		us := extract(epoch FROM ts) * 1000000;
		IF us BETWEEN lo_us AND hi_us THEN
			RETURN us;
		END IF;
	END IF;
	RETURN @extschema@._era_error(type, lo_us, hi_us);
END
$$;

CREATE OR REPLACE FUNCTION @extschema@._era_error(type text, lo_us bigint, hi_us bigint) RETURNS bigint
LANGUAGE plpgsql STABLE PARALLEL SAFE SET datestyle = 'ISO'
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
	RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = 'timestamp out of range for type ' || type,
		DETAIL = format('A %s holds times from %s to %s.', type, @extschema@._us_time(lo_us),
			@extschema@._us_time(hi_us));
END
$$;

CREATE OR REPLACE FUNCTION @extschema@.generate_xid_at(ts timestamptz) RETURNS bigint
LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
RETURN ((@extschema@._at_us(ts, 'uid11', {{uid11_lo}}, {{uid11_hi}}) / 1000 - {{uid11_epoch}}) << 22)
	| (('x' || substr(@extschema@._random_hex(), 1, 8))::bit(32)::bigint & 4194303);

-- The time is checked before the argument, as in the native edition. IMMUTABLE, as the native
-- one: the given microsecond and clock id, nothing read (an index expression may use it); with the
-- session's clock id STABLE, as the native one (fixed within a statement; not parallel safe here,
-- since drawing the session's clock id writes a setting).
CREATE OR REPLACE FUNCTION @extschema@.generate_tid_at(ts timestamptz, clock_id int) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	us bigint := @extschema@._at_us(ts, 'timeid', {{timeid_lo}}, {{timeid_hi}});
BEGIN
	RETURN (us << 10) | @extschema@._arg('clock id', clock_id, 1023);
END
$$;

-- With the session's clock id (generate_tid()'s).
CREATE OR REPLACE FUNCTION @extschema@.generate_tid_at(ts timestamptz) RETURNS bigint
LANGUAGE sql STABLE STRICT
RETURN @extschema@.generate_tid_at(ts, @extschema@._tid_clock());

CREATE OR REPLACE FUNCTION @extschema@.generate_ulidflake_at(ts timestamptz) RETURNS bigint
LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
RETURN ((@extschema@._at_us(ts, 'ulidflake', {{ulidflake_lo}}, {{ulidflake_hi}}) / 1000 - {{ulidflake_epoch}}) << 20)
	| (('x' || substr(@extschema@._random_hex(), 1, 8))::bit(32)::bigint & 1048575);

CREATE OR REPLACE FUNCTION @extschema@.generate_ulidflake_at(ts timestamptz, sid int) RETURNS bigint
LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	us bigint := @extschema@._at_us(ts, 'ulidflake', {{ulidflake_lo}}, {{ulidflake_hi}});
BEGIN
	RETURN ((us / 1000 - {{ulidflake_epoch}}) << 20)
		| (('x' || substr(@extschema@._random_hex(), 1, 8))::bit(32)::bigint & 1048544) | @extschema@._arg('sid', sid, 31);
END
$$;

CREATE OR REPLACE FUNCTION @extschema@.generate_ulid_at(ts timestamptz) RETURNS uuid
LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
RETURN (lpad(to_hex(@extschema@._at_us(ts, 'ulid', {{ulid_lo}}, {{ulid_hi}}) / 1000), 12, '0')
	|| substr(@extschema@._random_hex(), 1, 20))::uuid;

CREATE OR REPLACE FUNCTION @extschema@.generate_euid_at(ts timestamptz) RETURNS uuid
LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
RETURN (SELECT (lpad(to_hex((@extschema@._at_us(ts, 'euid', {{euid_lo}}, {{euid_hi}}) / 1000 << 19)
		| @extschema@._euid_field(NULL, ('x' || substr(r, 17, 4))::bit(16)::bigint)), 16, '0')
	|| substr(r, 1, 16))::uuid FROM (SELECT @extschema@._random_hex() AS r) AS s);

CREATE OR REPLACE FUNCTION @extschema@.generate_euid_at(ts timestamptz, extension int) RETURNS uuid
LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
RETURN (SELECT (lpad(to_hex((@extschema@._at_us(ts, 'euid', {{euid_lo}}, {{euid_hi}}) / 1000 << 19)
		| @extschema@._euid_field(extension, ('x' || substr(r, 17, 4))::bit(16)::bigint)), 16, '0')
	|| substr(r, 1, 16))::uuid FROM (SELECT @extschema@._random_hex() AS r) AS s);
