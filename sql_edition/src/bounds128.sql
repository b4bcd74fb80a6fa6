-- sql_edition/src/bounds128.sql: a 16-byte type's bounds, first_at and predicates
-- (tools/gen_sql_edition.py): {{t}} the type, {{recheck}} euid's test of a prefix longer than
-- its first 25 symbols (true for ulid).

-- {{t}}: prefix and time-window bounds (uuid; empty: the largest lo and smallest hi).
CREATE OR REPLACE FUNCTION @extschema@.{{t}}_prefix_lo(prefix text) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN coalesce((@extschema@._prefix128('{{t}}', prefix))[1], 'ffffffff-ffff-ffff-ffff-ffffffffffff');

CREATE OR REPLACE FUNCTION @extschema@.{{t}}_prefix_hi(prefix text) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN coalesce((@extschema@._prefix128('{{t}}', prefix))[2], '00000000-0000-0000-0000-000000000000');

CREATE OR REPLACE FUNCTION @extschema@.{{t}}_time_lo(w tstzrange) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN coalesce((@extschema@._time128(w, '{{t}}'))[1], 'ffffffff-ffff-ffff-ffff-ffffffffffff');

CREATE OR REPLACE FUNCTION @extschema@.{{t}}_time_hi(w tstzrange) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN coalesce((@extschema@._time128(w, '{{t}}'))[2], '00000000-0000-0000-0000-000000000000');

CREATE OR REPLACE FUNCTION @extschema@.{{t}}_first_at(ts timestamptz) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (@extschema@._time128(tstzrange(ts, NULL, '[)'), '{{t}}'))[1];

-- Does the {{t}}'s text start with the prefix? An index range condition once inlined.
CREATE OR REPLACE FUNCTION @extschema@.{{t}}_starts_with(id uuid, prefix text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id >= @extschema@.{{t}}_prefix_lo(prefix) AND id <= @extschema@.{{t}}_prefix_hi(prefix)
	AND {{recheck}};

-- Does the {{t}}'s time lie in the window? An index range condition once inlined.
CREATE OR REPLACE FUNCTION @extschema@.{{t}}_in_time_range(id uuid, w tstzrange) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id >= @extschema@.{{t}}_time_lo(w) AND id <= @extschema@.{{t}}_time_hi(w);
