
-- ---- generators --------------------------------------------------------------------------------

-- Unix microseconds of the clock, through date_part's double precision seconds: a fifth of the
-- time of extract's numeric, and the same microsecond until 2106 (the seconds' and then the
-- product's rounding errors stay below half a microsecond), within one after that.
CREATE OR REPLACE FUNCTION @extschema@._now_us() RETURNS bigint
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN (date_part('epoch', clock_timestamp()) * 1000000)::bigint;

-- 30 hex digits (120 bits) of fresh randomness: a v4 UUID's digits without its fixed version and
-- variant digits (an expression, which the planner inlines).
CREATE OR REPLACE FUNCTION @extschema@._random_hex() RETURNS text
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN overlay(overlay(replace(gen_random_uuid()::text, '-', '') PLACING '' FROM 17 FOR 1) PLACING '' FROM 13 FOR 1);

-- An argument (a clock id, sid or extension) checked against its range: an expression, which the
-- planner inlines; the error in PL/pgSQL, called only for a bad value. STABLE, not IMMUTABLE: a
-- constant bad argument raises its error when the call runs, after the checks before it (an
-- _at function's time), not when the planner folds constants.
CREATE OR REPLACE FUNCTION @extschema@._arg_error(what text, v int, max int) RETURNS int
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
	RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = what || ' ' || v || ' is out of range',
		DETAIL = 'The ' || what || ' must be between 0 and ' || max || '.';
END
$$;

CREATE OR REPLACE FUNCTION @extschema@._arg(what text, v int, max int) RETURNS int
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CASE WHEN v IS NULL OR v BETWEEN 0 AND max THEN v ELSE @extschema@._arg_error(what, v, max) END;

-- uid11, xid profile: 42-bit ms since 2011-11-11T11:11:11.111Z | 22 bits of the shared counter.
CREATE OR REPLACE FUNCTION @extschema@.generate_xid() RETURNS bigint
LANGUAGE sql VOLATILE
RETURN ((@extschema@._now_us() / 1000 - 1321009871111) << 22)
	| (nextval('@extschema@._counter') & 4194303);

-- uid11, fullrand profile: 64 random bits.
CREATE OR REPLACE FUNCTION @extschema@.generate_uid11() RETURNS bigint
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN ('x' || substr(@extschema@._random_hex(), 1, 16))::bit(64)::bigint;

-- timeid: 53-bit µs | 10-bit clock id; the session's microseconds increase (one past the last
-- when the clock has not moved on). As the native edition, a session asking for more than one
-- timeid a microsecond runs ahead of the clock, at most a second, and then waits for it. A last
-- value further ahead (by more than a millisecond past that second) was not made so: it was set by
-- hand (in this session, or by another client of a pooled connection) or left by a clock that
-- stepped back more than a second, and is not gone on from (with the caller's clock id, going on
-- from the clock could repeat a timeid, so it is an error; generate_timeid() takes a new clock id
-- instead, in _tid_clock()).
--
-- _tid_next(last, clock_id): the slow path, where the last is a second or more ahead: wait for the
-- clock (in steps of 0.1 ms, so that the next hundred or so go on at once), or raise the error.
CREATE OR REPLACE FUNCTION @extschema@._tid_next(last bigint, clock_id int) RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	us bigint := @extschema@._now_us();
BEGIN
	IF last > us + 1001000 THEN
		RAISE EXCEPTION USING ERRCODE = '55000',
			MESSAGE = format('the session''s last timeid is %s ms ahead of the clock', (last - us) / 1000),
			DETAIL = format('idtypes_sql.tid_last was set by hand, or the clock stepped back: timeids of clock id %s made from the clock now could equal earlier ones.', clock_id),
			HINT = 'Call generate_timeid() without a clock id (it takes a new one), or wait for the clock; RESET idtypes_sql.tid_last if the setting was wrong.';
	END IF;
	WHILE last >= us + 1000000 LOOP
		PERFORM pg_sleep(0.0001);
		us := @extschema@._now_us();
	END LOOP;
	RETURN set_config('idtypes_sql.tid_last', greatest(us, last + 1)::text, false);
END
$$;

-- The session's next timeid microsecond: the clock's, or one past the last, in one expression,
-- which the planner inlines into both generators; _tid_next where the last is a second ahead
-- (clock_id, NULL for the session's, names the clock id in its error).
CREATE OR REPLACE FUNCTION @extschema@._tid_us(clock_id int) RETURNS bigint
LANGUAGE sql VOLATILE
RETURN CASE WHEN coalesce(nullif(current_setting('idtypes_sql.tid_last', true), '')::bigint < @extschema@._now_us() + 1000000, true)
	THEN set_config('idtypes_sql.tid_last', greatest(@extschema@._now_us(),
		nullif(current_setting('idtypes_sql.tid_last', true), '')::bigint + 1)::text, false)::bigint
	ELSE @extschema@._tid_next(nullif(current_setting('idtypes_sql.tid_last', true), '')::bigint, clock_id) END;

-- The clock id is checked first, then the microseconds.
CREATE OR REPLACE FUNCTION @extschema@.generate_tid(clock_id int) RETURNS bigint
LANGUAGE sql VOLATILE
RETURN @extschema@._arg('clock id', clock_id, 1023)::bigint | (@extschema@._tid_us(clock_id) << 10);

-- The session's clock id: drawn once from a shared counter, so that sessions differ. The setting
-- holds it as pid * 1024 + clock id: a value of another backend, or not written here (set by hand,
-- say by another client of a pooled connection), is not used, and a new clock id is drawn; so it
-- is where the last timeid is further ahead of the clock than the generator runs (see above),
-- whose setting is then emptied: the new clock id's timeids cannot equal the earlier ones. One
-- expression, which the planner inlines (no PL/pgSQL call, no SET search_path, on this path).
CREATE OR REPLACE FUNCTION @extschema@._tid_clock() RETURNS int
LANGUAGE sql VOLATILE
RETURN (CASE WHEN (CASE WHEN current_setting('idtypes_sql.tid_clock', true) ~ '^[0-9]{1,18}$'
			THEN current_setting('idtypes_sql.tid_clock', true)::bigint >> 10 = pg_backend_pid() END)
		AND NOT coalesce(nullif(current_setting('idtypes_sql.tid_last', true), '')::bigint
			> @extschema@._now_us() + 1001000, false)
	THEN current_setting('idtypes_sql.tid_clock', true)::bigint
	ELSE set_config('idtypes_sql.tid_clock', ((pg_backend_pid()::bigint << 10)
			| (nextval('@extschema@._clock_ids') % 1024))::text
		|| left(set_config('idtypes_sql.tid_last', '', false), 0), false)::bigint END & 1023)::int;

-- The session's clock id first (it may empty the last timeid's setting), then the microseconds.
CREATE OR REPLACE FUNCTION @extschema@.generate_tid() RETURNS bigint
LANGUAGE sql VOLATILE
RETURN @extschema@._tid_clock()::bigint | (@extschema@._tid_us(NULL) << 10);

-- ulidflake: 43-bit ms since 2024 | 20 bits of the shared counter, or 15 of them and the sid.
CREATE OR REPLACE FUNCTION @extschema@.generate_ulidflake() RETURNS bigint
LANGUAGE sql VOLATILE
RETURN ((@extschema@._now_us() / 1000 - 1704067200000) << 20)
	| (nextval('@extschema@._counter') & 1048575);

CREATE OR REPLACE FUNCTION @extschema@.generate_ulidflake(sid int) RETURNS bigint
LANGUAGE sql VOLATILE
RETURN ((@extschema@._now_us() / 1000 - 1704067200000) << 20)
	| ((nextval('@extschema@._counter') & 32767) << 5) | @extschema@._arg('sid', sid, 31);

-- The 60 bits of Unix ms and 4096ths of a ms for the next ID of generate_ulid() or uuidv7(): the
-- clock's, or one past the session's last (kept in the setting named) when the clock has not moved
-- on; a last more than a millisecond ahead of the clock is not gone on from (see generate_tid).
-- Inlined into its callers (its argument is a constant).
CREATE OR REPLACE FUNCTION @extschema@._ms4096_next(setting text) RETURNS bigint
LANGUAGE sql VOLATILE
RETURN set_config(setting, greatest(@extschema@._now_us() * 512 / 125,
		CASE WHEN nullif(current_setting(setting, true), '')::bigint < @extschema@._now_us() * 512 / 125 + 4096
		THEN nullif(current_setting(setting, true), '')::bigint + 1 END)::text, false)::bigint;

-- ulid: 48-bit ms | 12-bit fraction of the ms | 68 random bits; the session's (ms, fraction)
-- increase, one 4096th past the last when the clock has not moved on (as uuidv7() does). One
-- expression, which the planner inlines (a tenth of a PL/pgSQL call's time): the setting holds
-- the last (ms, fraction), and the random digits are a v4 UUID's last 17 but its variant digit.
CREATE OR REPLACE FUNCTION @extschema@.generate_ulid() RETURNS uuid
LANGUAGE sql VOLATILE
RETURN (lpad(to_hex(@extschema@._ms4096_next('idtypes_sql.ulid_last')), 15, '0')
	|| left(overlay(overlay(right(gen_random_uuid()::text, 21) PLACING '' FROM 9 FOR 1) PLACING '' FROM 4 FOR 2), 17))::uuid;

-- ulid, the spec's monotonic mode: in the session's last millisecond (or before it), the last
-- ULID's 80 random bits plus one.
CREATE OR REPLACE FUNCTION @extschema@._generate_ulid_monotonic() RETURNS uuid
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	last text := nullif(current_setting('idtypes_sql.ulid_monotonic_last', true), '');
	ms bigint := @extschema@._now_us() / 1000;
	r1 bigint;
	r2 bigint;
	r3 bigint;
	h text;
BEGIN
	-- more than a millisecond ahead of the clock: not gone on from (see generate_tid)
	IF ('x' || substr(last, 1, 12))::bit(48)::bigint > ms + 1 THEN
		last := NULL;
	END IF;
	IF last IS NOT NULL AND ms <= ('x' || substr(last, 1, 12))::bit(48)::bigint THEN
		ms := ('x' || substr(last, 1, 12))::bit(48)::bigint;
		r1 := ('x' || substr(last, 13, 4))::bit(16)::bigint;
		r2 := ('x' || substr(last, 17, 8))::bit(32)::bigint;
		r3 := ('x' || substr(last, 25, 8))::bit(32)::bigint + 1;
		IF r3 > 4294967295 THEN
			r3 := 0;
			r2 := r2 + 1;
			IF r2 > 4294967295 THEN
				r2 := 0;
				r1 := r1 + 1;
				IF r1 > 65535 THEN
					-- the millisecond is full: wait for the next one
					WHILE @extschema@._now_us() / 1000 <= ms LOOP
						PERFORM pg_sleep(0.0001);
					END LOOP;
					ms := @extschema@._now_us() / 1000;
					last := NULL;
				END IF;
			END IF;
		END IF;
	END IF;
	IF last IS NULL OR ms > ('x' || substr(last, 1, 12))::bit(48)::bigint THEN
		h := lpad(to_hex(ms), 12, '0') || substr(@extschema@._random_hex(), 1, 20);
	ELSE
		h := lpad(to_hex(ms), 12, '0') || lpad(to_hex(r1), 4, '0') || lpad(to_hex(r2), 8, '0')
			|| lpad(to_hex(r3), 8, '0');
	END IF;
	h := set_config('idtypes_sql.ulid_monotonic_last', h, false);
	RETURN h::uuid;
END
$$;

-- In the millisecond of the session's last ULID, with its random bits' last 32 not all ones (one
-- expression, which the planner inlines: the setting holds the last ULID's 32 hex digits, and the
-- millisecond has not moved on when the clock's, as 12 hex digits, equals their first 12), the last
-- ULID plus one; a new millisecond, a carry past those 32 bits, and a last ahead of the clock go
-- to _generate_ulid_monotonic.
CREATE OR REPLACE FUNCTION @extschema@.generate_ulid_monotonic() RETURNS uuid
LANGUAGE sql VOLATILE
RETURN CASE WHEN left(current_setting('idtypes_sql.ulid_monotonic_last', true), 12)
			= lpad(to_hex(@extschema@._now_us() / 1000), 12, '0')
		AND substr(current_setting('idtypes_sql.ulid_monotonic_last', true), 25, 8) <> 'ffffffff'
	THEN set_config('idtypes_sql.ulid_monotonic_last', left(current_setting('idtypes_sql.ulid_monotonic_last', true), 24)
		|| lpad(to_hex(('x' || substr(current_setting('idtypes_sql.ulid_monotonic_last', true), 25, 8))::bit(32)::bigint + 1), 8, '0'),
		false)::uuid
	ELSE @extschema@._generate_ulid_monotonic() END;

-- An EUID's 19 bits after its time: 15 bits holding the extension at the bottom and random bits
-- above it (all random without one), then the extension's bit length (0: none; 1 for 0).
-- Expressions, which the planner inlines.
CREATE OR REPLACE FUNCTION @extschema@._euid_len(extension int) RETURNS int
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN extension IS NULL THEN 0 ELSE greatest(length(ltrim(extension::bit(15)::text, '0')), 1) END;

CREATE OR REPLACE FUNCTION @extschema@._euid_field(extension int, random bigint) RETURNS bigint
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CASE WHEN extension IS NULL THEN (random & 32767) << 4
	ELSE (((random & ((1 << (15 - @extschema@._euid_len(extension))) - 1)) << @extschema@._euid_len(extension))
		| @extschema@._arg('extension', extension, 32767)) << 4 | @extschema@._euid_len(extension) END;

-- euid: 45-bit ms | 15 random-or-extension bits | 4-bit extension length | 64 random bits. In
-- the session's last millisecond with the same extension: the high 32 random bits plus one, the
-- low 32 fresh (as the reference implementation); another extension there waits for the next
-- millisecond unless its EUID is the larger.
CREATE OR REPLACE FUNCTION @extschema@._generate_euid(extension int) RETURNS uuid
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	last text := nullif(current_setting('idtypes_sql.euid_last', true), '');
	ms bigint := @extschema@._now_us() / 1000;
	r text := @extschema@._random_hex();
	field bigint := CASE WHEN extension IS NULL THEN (('x' || substr(r, 17, 4))::bit(16)::bigint & 32767) << 4
		ELSE @extschema@._euid_field(extension, ('x' || substr(r, 17, 4))::bit(16)::bigint) END;
	last_hi bigint;
	last_len int;
	r_hi bigint;
	h text;
BEGIN
	IF last IS NOT NULL THEN
		last_hi := ('x' || substr(last, 1, 16))::bit(64)::bigint;
		IF ((last_hi >> 19) & 35184372088831) > ms + 1 THEN
			-- more than a millisecond ahead of the clock: not gone on from (see generate_tid)
			NULL;
		ELSIF ms <= ((last_hi >> 19) & 35184372088831) THEN
			ms := (last_hi >> 19) & 35184372088831;
			last_len := last_hi & 15;
			-- the same extension as the last EUID's (its low last_len bits of the 15), or none
			IF (CASE WHEN last_len = 0 THEN extension IS NULL
				ELSE ((last_hi >> 4) & ((1 << last_len) - 1)) = extension END) THEN
				r_hi := ('x' || substr(last, 17, 8))::bit(32)::bigint;
				IF r_hi < 4294967295 THEN
					h := substr(last, 1, 16) || lpad(to_hex(r_hi + 1), 8, '0') || substr(r, 1, 8);
				END IF;
			ELSIF ((ms << 19) | field) > last_hi THEN
				h := lpad(to_hex((ms << 19) | field), 16, '0') || substr(r, 1, 16);
			END IF;
			IF h IS NULL THEN
				-- the millisecond is full (or holds a larger EUID of another extension): wait for
				-- the next one, as the native edition does by default
				WHILE @extschema@._now_us() / 1000 <= ms LOOP
					PERFORM pg_sleep(0.0001);
				END LOOP;
				ms := @extschema@._now_us() / 1000;
			END IF;
		END IF;
	END IF;
	IF h IS NULL THEN
		h := lpad(to_hex((ms << 19) | field), 16, '0') || substr(r, 1, 16);
	END IF;
	h := set_config('idtypes_sql.euid_last', h, false);
	RETURN h::uuid;
END
$$;

-- The next EUID in the session's last millisecond, where the last EUID is of the same extension
-- (same_extension, the caller's test): its first 16 digits, the next 8 plus one, 8 fresh. One
-- expression, which the planner inlines into both generators (the millisecond has not moved on when
-- the clock's, shifted as in the EUID, is at most those 16 digits); a new millisecond, a full one
-- and another extension take `otherwise`, _generate_euid. A session makes most of its EUIDs in the
-- millisecond of its last one; this took half the time of the function.
CREATE OR REPLACE FUNCTION @extschema@._euid_step(same_extension boolean, otherwise uuid) RETURNS uuid
LANGUAGE sql VOLATILE
RETURN CASE WHEN same_extension
		AND substr(current_setting('idtypes_sql.euid_last', true), 17, 8) <> 'ffffffff'
		AND lpad(to_hex(@extschema@._now_us() / 1000 << 19), 16, '0')
			<= left(current_setting('idtypes_sql.euid_last', true), 16) COLLATE "C"
		AND left(current_setting('idtypes_sql.euid_last', true), 16) COLLATE "C"
			< lpad(to_hex((@extschema@._now_us() / 1000 + 2) << 19), 16, '0')
	THEN set_config('idtypes_sql.euid_last', left(current_setting('idtypes_sql.euid_last', true), 16)
		|| lpad(to_hex(('x' || substr(current_setting('idtypes_sql.euid_last', true), 17, 8))::bit(32)::bigint + 1), 8, '0')
		|| left(gen_random_uuid()::text, 8), false)::uuid
	ELSE otherwise END;

-- Without an extension: the last EUID's first 16 digits end in its extension's length, 0 for none.
CREATE OR REPLACE FUNCTION @extschema@.generate_euid() RETURNS uuid
LANGUAGE sql VOLATILE
RETURN @extschema@._euid_step(substr(current_setting('idtypes_sql.euid_last', true), 16, 1) = '0',
	@extschema@._generate_euid(NULL));

-- With one: the low bits of those 16 digits are this extension and its length.
CREATE OR REPLACE FUNCTION @extschema@.generate_euid(extension int) RETURNS uuid
LANGUAGE sql VOLATILE
RETURN @extschema@._euid_step(extension >= 0 AND extension <= 32767
		AND (('x' || left(current_setting('idtypes_sql.euid_last', true), 16))::bit(64)::bigint
			& ((1::bigint << (@extschema@._euid_len(extension) + 4)) - 1))
			= (extension::bigint << 4 | @extschema@._euid_len(extension)),
	@extschema@._generate_euid(@extschema@._arg('extension', extension, 32767)));
