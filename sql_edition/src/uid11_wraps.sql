-- sql_edition/src/uid11_wraps.sql: whether a uid11 prefix or time window crosses 2^63
-- (tools/gen_sql_edition.py): {{text_2_63}} the text of 2^63, {{wrap_time}} its xid time.

-- Does the prefix's range cross 2^63 (the text of 2^63 is {{text_2_63}})?
CREATE OR REPLACE FUNCTION @extschema@._uid11_prefix_wraps(prefix text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN starts_with({{text_2_63}}, prefix)
	AND rtrim(substr({{text_2_63}}, length(prefix) + 1), '1') <> '';

-- May the window's xid range cross 2^63 (xid times around {{wrap_time}})?
CREATE OR REPLACE FUNCTION @extschema@._uid11_time_wraps(w tstzrange) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN NOT isempty(w) AND (upper_inf(w) OR upper(w) >= '{{wrap_time}}')
	AND (lower_inf(w) OR lower(w) <= '{{wrap_time}}');
