"""gen_extras.py: BRIN bloom classes, btree in_range (1.1; see gen_sql.py)."""

import types_facts

# type, its time accessor, what an in_range offset is measured against (tools/types.json)
TYPES = [(d["name"], d["timestamp_function"], d["in_range_offset_in"]) for d in types_facts.TYPES]


def bloom(t):
    """As core defines uuid_bloom_ops: the server's bloom support functions, with the type's
    hash as function 11 (the same on every CPU), equality only. Not the default: minmax is what
    time-ordered IDs want; bloom is for columns whose values do not follow the table's order,
    such as generate_uid11()'s 64 random bits."""
    return f"""
CREATE OPERATOR CLASS {t}_bloom_ops
FOR TYPE {t} USING brin AS
\tOPERATOR 1 =,
\tFUNCTION 1 pg_catalog.brin_bloom_opcinfo(internal),
\tFUNCTION 2 pg_catalog.brin_bloom_add_value(internal, internal, internal, internal),
\tFUNCTION 3 pg_catalog.brin_bloom_consistent(internal, internal, internal, int4),
\tFUNCTION 4 pg_catalog.brin_bloom_union(internal, internal, internal),
\tFUNCTION 5 pg_catalog.brin_bloom_options(internal),
\tFUNCTION 11 {t}_hash({t});
COMMENT ON OPERATOR CLASS {t}_bloom_ops USING brin IS 'BRIN bloom operator class of {t} (equality)';
COMMENT ON OPERATOR FAMILY {t}_bloom_ops USING brin IS 'BRIN bloom operator family of {t}';
"""


def in_range(t, accessor, unit):
    """Window frames RANGE BETWEEN <interval> PRECEDING/FOLLOWING over an ID column: core's
    timestamptz in_range on the IDs' times (src/in_range.cpp). STABLE like core's, since month
    and day steps depend on the TimeZone setting; not LEAKPROOF, since a negative offset raises."""
    sig = f"in_range({t}, {t}, interval, bool, bool)"
    return f"""
CREATE FUNCTION {sig} RETURNS bool
AS 'MODULE_PATHNAME', '{t}_in_range_interval'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION {sig} IS 'window RANGE support of {t} with an interval offset: the timestamptz in_range of the two IDs'' times ({accessor}: {unit.replace("'", "''")})';
ALTER OPERATOR FAMILY {t}_ops USING btree ADD
\tFUNCTION 3 ({t}, interval) {sig};
"""


def section():
    out = [f"\n-- {'-' * 96}\n-- BRIN bloom operator classes\n-- {'-' * 96}\n"]
    out += [bloom(t) for t, _accessor, _unit in TYPES]
    out.append(f"\n-- {'-' * 96}\n-- btree in_range: window frames with an interval offset\n-- {'-' * 96}\n")
    out += [in_range(*d) for d in TYPES]
    return "".join(out)
