"""gen_uuid.py: ^@ and <@ on PostgreSQL's own uuid, UUIDv7 time ranges and partition bounds, and
UUIDv7 <-> ulid (see gen_sql.py). The C functions are the range and planner templates of the five
types, instantiated for uuid (src/ranges.cpp, src/planner/); core's uuid_ops btree family gives
the index conditions."""

PURE = "LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE"


def fn(name, args, ret, extra="", symbol=None, props=PURE):
    return (f"CREATE FUNCTION {name}({args}) RETURNS {ret}\n"
            f"AS 'MODULE_PATHNAME', '{symbol or name}'\n{props}{extra};\n")


def section():
    out = [f"\n-- {'-' * 96}\n-- uuid: hex prefixes (^@), UUIDv7 time ranges (<@), time partition "
           f"bounds, UUIDv7 <-> ulid\n-- {'-' * 96}\n\n"]
    out.append(fn("uuid_range_subdiff", "uuid, uuid", "float8"))
    out.append("""COMMENT ON FUNCTION uuid_range_subdiff(uuid, uuid) IS 'the difference of two uuid values as float8 (subtype_diff of uuidrange)';

-- Continuous (no canonical function): every range built here is closed, '[lo,hi]'.
CREATE TYPE uuidrange AS RANGE (
\tSUBTYPE = uuid,
\tSUBTYPE_OPCLASS = uuid_ops,
\tSUBTYPE_DIFF = uuid_range_subdiff
);

COMMENT ON TYPE uuidrange IS 'a range of uuid values';
COMMENT ON TYPE uuidrange[] IS 'array of uuidrange';
COMMENT ON FUNCTION uuidrange(uuid, uuid) IS 'a uuidrange from its bounds, [lower, upper)';
COMMENT ON FUNCTION uuidrange(uuid, uuid, text) IS 'a uuidrange from its bounds and their inclusivity';
COMMENT ON TYPE uuidmultirange IS 'multirange of uuid';
COMMENT ON TYPE uuidmultirange[] IS 'array of uuidmultirange';
COMMENT ON FUNCTION uuidmultirange() IS 'an empty uuidmultirange';
COMMENT ON FUNCTION uuidmultirange(uuidrange) IS 'a uuidmultirange of one range';
COMMENT ON FUNCTION uuidmultirange(VARIADIC uuidrange[]) IS 'a uuidmultirange of the given ranges';
COMMENT ON CAST (uuidrange AS uuidmultirange) IS 'a uuidrange as a uuidmultirange of one range';

""")
    out.append(fn("uuid_prefix_range", "prefix text", "uuidrange"))
    out.append("COMMENT ON FUNCTION uuid_prefix_range(text) IS 'the closed range of every uuid "
               "whose text starts with the prefix (0 to 32 hex digits in either case, with or "
               "without the dashes of uuid''s text)';\n\n")
    out.append(fn("uuidv7_time_range", "tstzrange", "uuidrange", symbol="uuid_time_range"))
    out.append("COMMENT ON FUNCTION uuidv7_time_range(tstzrange) IS 'the closed range of every "
               "uuid whose first 48 bits, a UUIDv7''s Unix milliseconds, lie in the window';\n\n")
    out.append(fn("uuidv7_first_at", "timestamptz", "uuid", symbol="uuid_first_at"))
    out.append("COMMENT ON FUNCTION uuidv7_first_at(timestamptz) IS 'the smallest uuid whose "
               "first 48 bits (a UUIDv7''s ms) are at or after the timestamp, NULL past 10889: "
               "FROM (uuidv7_first_at(a)) TO (uuidv7_first_at(b)) holds the UUIDv7s of [a, b)';\n\n")
    for suffix, what in (("first", "the smallest uuid in the range, or NULL when it holds none"),
                         ("last", "the largest uuid in the range, or NULL when it holds none"),
                         ("lo", "the smallest uuid in the range; the largest uuid when it holds "
                                "none (so that id >= uuidrange_lo(r) AND id <= uuidrange_hi(r) "
                                "is id <@ r)"),
                         ("hi", "the largest uuid in the range; the smallest uuid when it holds "
                                "none (so that id >= uuidrange_lo(r) AND id <= uuidrange_hi(r) "
                                "is id <@ r)")):
        out.append(fn(f"uuidrange_{suffix}", "uuidrange", "uuid"))
        out.append(f"COMMENT ON FUNCTION uuidrange_{suffix}(uuidrange) IS '{what}';\n\n")
    for op, sym in (("starts_with", "^@"), ("contained", "<@")):
        out.append(fn(f"uuid_{op}_support", "internal", "internal"))
        out.append(f"COMMENT ON FUNCTION uuid_{op}_support(internal) IS "
                   f"'planner support for uuid_{op}: btree/BRIN index conditions, partition "
                   f"pruning and selectivity';\n\n")
        out.append(fn(f"uuid_{op}_sel", "internal, oid, internal, int4", "float8",
                      props="LANGUAGE C STABLE STRICT PARALLEL SAFE"))
        out.append(f"COMMENT ON FUNCTION uuid_{op}_sel(internal, oid, internal, int4) IS "
                   f"'restriction selectivity of the uuid {sym} operator';\n\n")
    out.append(fn("uuid_starts_with", "uuid, text", "bool", " SUPPORT uuid_starts_with_support"))
    out.append("COMMENT ON FUNCTION uuid_starts_with(uuid, text) IS 'does the text of the uuid "
               "start with the hex prefix (either case, with or without dashes)?';\n\n")
    out.append(fn("uuid_contained", "uuid, uuidrange", "bool",
                  " LEAKPROOF SUPPORT uuid_contained_support"))
    out.append("COMMENT ON FUNCTION uuid_contained(uuid, uuidrange) IS 'is the uuid in the "
               "range?';\n\n")
    out.append("""CREATE OPERATOR ^@ (
\tLEFTARG = uuid, RIGHTARG = text, FUNCTION = uuid_starts_with,
\tRESTRICT = uuid_starts_with_sel, JOIN = pg_catalog.prefixjoinsel
);
COMMENT ON OPERATOR ^@ (uuid, text) IS 'starts with: the uuid''s hex text begins with the prefix';

CREATE OPERATOR <@ (
\tLEFTARG = uuid, RIGHTARG = uuidrange, FUNCTION = uuid_contained,
\tRESTRICT = uuid_contained_sel, JOIN = pg_catalog.contjoinsel
);
COMMENT ON OPERATOR <@ (uuid, uuidrange) IS 'is contained by: the uuid lies in the range';

""")
    out.append(fn("uuidv7_to_ulid", "uuid", "ulid"))
    out.append("COMMENT ON FUNCTION uuidv7_to_ulid(uuid) IS 'a UUIDv7 as a ulid with the same ms, "
               "its 12 bits after the version as the ms''s fraction (as generate_ulid() makes "
               "them) and its 62 random bits; the version and variant bits are dropped, order "
               "is kept; an error for another version';\n\n")
    out.append(fn("ulid_to_uuidv7", "ulid", "uuid"))
    out.append("COMMENT ON FUNCTION ulid_to_uuidv7(ulid) IS 'a ulid as a UUIDv7: the inverse of "
               "uuidv7_to_ulid(), with the version and variant set and the ulid''s last 6 random "
               "bits dropped';\n")
    return "".join(out)
