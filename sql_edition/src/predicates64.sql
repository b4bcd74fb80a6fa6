-- sql_edition/src/predicates64.sql: a 64-bit type's prefix and time-window predicates
-- (tools/gen_sql_edition.py): {{t}} the type, {{wrap_p}} and {{wrap_w}} uid11's tests across 2^63
-- (true for the others).

-- Does the {{t}}'s text start with the prefix? An index range condition once inlined.
CREATE OR REPLACE FUNCTION @extschema@.{{t}}_starts_with(id bigint, prefix text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id >= @extschema@.{{t}}_prefix_lo(prefix) AND id <= @extschema@.{{t}}_prefix_hi(prefix)
	AND {{wrap_p}};

-- Does the {{t}}'s time lie in the window? An index range condition once inlined.
CREATE OR REPLACE FUNCTION @extschema@.{{t}}_in_time_range(id bigint, w tstzrange) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id >= @extschema@.{{t}}_time_lo(w) AND id <= @extschema@.{{t}}_time_hi(w)
	AND {{wrap_w}};
