-- sql_edition/src/bounds64.sql: a 64-bit type's prefix and time-window bounds and first_at
-- (tools/gen_sql_edition.py): {{t}} the type, {{time}} its window's bounds, {{empty_hi}} the
-- upper bound of an empty range; {{unit}}, {{epoch}}, {{maxu}}, {{bits}} its time layout.

-- {{t}}: prefix and time-window bounds (bigint).
CREATE OR REPLACE FUNCTION @extschema@.{{t}}_prefix_lo(prefix text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN coalesce((@extschema@._prefix64('{{t}}', prefix))[3], 9223372036854775807);

CREATE OR REPLACE FUNCTION @extschema@.{{t}}_prefix_hi(prefix text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN coalesce((@extschema@._prefix64('{{t}}', prefix))[4], {{empty_hi}});

CREATE OR REPLACE FUNCTION @extschema@.{{t}}_time_lo(w tstzrange) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN coalesce(({{time}})[3], 9223372036854775807);

CREATE OR REPLACE FUNCTION @extschema@.{{t}}_time_hi(w tstzrange) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN coalesce(({{time}})[4], {{empty_hi}});

-- The smallest {{t}} at or after ts (a partition's lower bound); NULL past the format's era.
CREATE OR REPLACE FUNCTION @extschema@.{{t}}_first_at(ts timestamptz) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (@extschema@._time64(tstzrange(ts, NULL, '[)'), {{unit}}, {{epoch}}, {{maxu}}, {{bits}}))[1];
