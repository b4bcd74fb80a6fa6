"""gen_ranges.py: the range types, prefix and time ranges, ^@ and <@ (see gen_sql.py)."""

import types_facts

PURE = "LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE"

# type, what its time range reads, symbols in its text form, prefix case rules (tools/types.json)
TYPES = [(d["name"], d["time_range_reads"], d["text_length"], d["prefix_case"])
         for d in types_facts.TYPES]


def fn(name, args, ret, extra="", volatility=PURE, symbol=None):
    return (f"CREATE FUNCTION {name}({args}) RETURNS {ret}\n"
            f"AS 'MODULE_PATHNAME', '{symbol or name}'\n{volatility}{extra};\n")


def type_section(t, time_desc, width, case_desc, time_range=None, heading=None):
    """The range type of t, its prefix and time ranges, ^@ and <@. time_range: the time range
    function's name when it is not <t>_time_range (its C symbol is); heading: the section's."""
    r = f"{t}range"
    time_fn = time_range or f"{t}_time_range"
    heading = heading or f"{r}: prefix and time ranges, ^@ and <@"
    out = [f"\n-- {'-' * 96}\n-- {heading}\n-- {'-' * 96}\n\n"]
    out.append(fn(f"{t}_range_subdiff", f"{t}, {t}", "float8"))
    out.append(f"""COMMENT ON FUNCTION {t}_range_subdiff({t}, {t}) IS 'the difference of two {t} values as float8 (subtype_diff of {r})';

-- Continuous (no canonical function): every range built here is closed, '[lo,hi]'.
CREATE TYPE {r} AS RANGE (
\tSUBTYPE = {t},
\tSUBTYPE_OPCLASS = {t}_ops,
\tSUBTYPE_DIFF = {t}_range_subdiff
);

COMMENT ON TYPE {r} IS 'a range of {t} values';

""")
    out.append(fn(f"{t}_prefix_range", "prefix text", r))
    out.append(f"COMMENT ON FUNCTION {t}_prefix_range(text) IS "
               f"'the closed range of every {t} whose text starts with the prefix "
               f"(0 to {width} symbols, {case_desc})';\n\n")
    out.append(fn(time_fn, "tstzrange", r, symbol=f"{t}_time_range"))
    out.append(f"COMMENT ON FUNCTION {time_fn}(tstzrange) IS "
               f"'the closed range of every {t} whose time ({time_desc}) lies in the window';\n\n")
    # Bound helpers: the index conditions for a parameter or expression right side.
    out.append(fn(f"{r}_first", r, t))
    out.append(f"COMMENT ON FUNCTION {r}_first({r}) IS "
               f"'the smallest {t} in the range, or NULL when it holds none';\n\n")
    out.append(fn(f"{r}_last", r, t))
    out.append(f"COMMENT ON FUNCTION {r}_last({r}) IS "
               f"'the largest {t} in the range, or NULL when it holds none';\n\n")
    for op, sym in (("starts_with", "^@"), ("contained", "<@")):
        out.append(fn(f"{t}_{op}_support", "internal", "internal"))
        out.append(f"COMMENT ON FUNCTION {t}_{op}_support(internal) IS "
                   f"'planner support for {t}_{op}: btree/BRIN index conditions and selectivity';\n\n")
        out.append(fn(f"{t}_{op}_sel", "internal, oid, internal, int4", "float8", "",
                      "LANGUAGE C STABLE STRICT PARALLEL SAFE"))
        out.append(f"COMMENT ON FUNCTION {t}_{op}_sel(internal, oid, internal, int4) IS "
                   f"'restriction selectivity of the {t} {sym} operator';\n\n")
    out.append(fn(f"{t}_starts_with", f"{t}, text", "bool", f" SUPPORT {t}_starts_with_support"))
    out.append(f"COMMENT ON FUNCTION {t}_starts_with({t}, text) IS "
               f"'does the text of the {t} start with the prefix ({case_desc})?';\n\n")
    out.append(fn(f"{t}_contained", f"{t}, {r}", "bool", f" LEAKPROOF SUPPORT {t}_contained_support"))
    out.append(f"COMMENT ON FUNCTION {t}_contained({t}, {r}) IS 'is the {t} in the range?';\n\n")
    out.append(f"""CREATE OPERATOR ^@ (
\tLEFTARG = {t}, RIGHTARG = text, FUNCTION = {t}_starts_with,
\tRESTRICT = {t}_starts_with_sel, JOIN = pg_catalog.prefixjoinsel
);
COMMENT ON OPERATOR ^@ ({t}, text) IS 'starts with: the {t}''s text begins with the prefix';

CREATE OPERATOR <@ (
\tLEFTARG = {t}, RIGHTARG = {r}, FUNCTION = {t}_contained,
\tRESTRICT = {t}_contained_sel, JOIN = pg_catalog.contjoinsel
);
COMMENT ON OPERATOR <@ ({t}, {r}) IS 'is contained by: the {t} lies in the range';
""")
    return "".join(out)


def section():
    parts = [type_section(*d) for d in TYPES]
    parts.append(f"\n-- {'-' * 96}\n-- xid prefix times\n-- {'-' * 96}\n\n")
    parts.append(fn("xid_prefix_time_range", "prefix text", "tstzrange"))
    parts.append(XID_PREFIX_TIME_RANGE_COMMENT)
    return "".join(parts)


XID_PREFIX_TIME_RANGE_COMMENT = (
    "COMMENT ON FUNCTION xid_prefix_time_range(text) IS "
    "'the xid times of a uid11 prefix: [epoch + (lo >> 22) ms, epoch + (hi >> 22) ms] for the "
    "prefix''s bounds lo and hi (the uid11 spec''s prefix rule), empty beyond 2^64-1';\n")


def added_in_1_1():
    """Version 1.1: the range bounds the planner rewrites ^@ and <@ into (so that partition
    pruning sees plain >= and <=), the first ID at a time (time partition bounds), and euid's
    prefix test without planner support (the recheck kept by that rewrite)."""
    out = [f"\n-- {'-' * 96}\n-- partition pruning and time partition bounds\n-- {'-' * 96}\n"]
    for t, time_desc, _width, _case in TYPES:
        out.append("\n")
        out.append(bounds(t, time_desc))
    out.append("\n")
    out.append("CREATE FUNCTION euid_starts_with_recheck(euid, text) RETURNS bool\n"
               "AS 'MODULE_PATHNAME', 'euid_starts_with'\n" + PURE + ";\n")
    out.append("COMMENT ON FUNCTION euid_starts_with_recheck(euid, text) IS "
               "'the euid ^@ text test without planner support: what the planner keeps beside "
               "the range when it rewrites ^@ for a prefix that may reach the check symbols';\n")
    return "".join(out)


def bounds(t, time_desc, first_at=None):
    """<t>range_lo and _hi, the bounds the planner rewrites ^@ and <@ into, and the first ID at
    a time. first_at: its name when it is not <t>_first_at (its C symbol is)."""
    r = f"{t}range"
    first_at = first_at or f"{t}_first_at"
    out = [fn(f"{r}_lo", r, t)]
    out.append(f"COMMENT ON FUNCTION {r}_lo({r}) IS "
               f"'the smallest {t} in the range; the largest {t} when it holds none "
               f"(so that id >= {r}_lo(r) AND id <= {r}_hi(r) is id <@ r)';\n\n")
    out.append(fn(f"{r}_hi", r, t))
    out.append(f"COMMENT ON FUNCTION {r}_hi({r}) IS "
               f"'the largest {t} in the range; the smallest {t} when it holds none "
               f"(so that id >= {r}_lo(r) AND id <= {r}_hi(r) is id <@ r)';\n\n")
    out.append(fn(first_at, "timestamptz", t, symbol=f"{t}_first_at"))
    out.append(f"COMMENT ON FUNCTION {first_at}(timestamptz) IS "
               f"'the smallest {t} whose time ({time_desc}) is at or after the timestamp, "
               f"NULL past the format''s era: FROM ({first_at}(a)) TO ({first_at}(b)) "
               f"holds the {t} values of [a, b)';\n")
    return "".join(out)


def range_type_comments(t):
    """What CREATE TYPE ... AS RANGE makes beside the range type, as (kind, object, comment):
    the array type and constructors of the range, then of its multirange (PostgreSQL 14+)."""
    r, m = f"{t}range", f"{t}multirange"
    return ([("TYPE", f"{r}[]", f"array of {r}"),
             ("FUNCTION", f"{r}({t}, {t})", f"a {r} from its bounds, [lower, upper)"),
             ("FUNCTION", f"{r}({t}, {t}, text)", f"a {r} from its bounds and their inclusivity")],
            [("TYPE", m, f"multirange of {t}"),
             ("TYPE", f"{m}[]", f"array of {m}"),
             ("FUNCTION", f"{m}()", f"an empty {m}"),
             ("FUNCTION", f"{m}({r})", f"a {m} of one range"),
             ("FUNCTION", f"{m}(VARIADIC {r}[])", f"a {m} of the given ranges"),
             ("CAST", f"({r} AS {m})", f"a {r} as a {m} of one range")])
