"""gen_like.py: LIKE, NOT LIKE, ILIKE and NOT ILIKE on the five types (1.1; see gen_sql.py)."""

import types_facts

PURE = "LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE"
ESTIMATOR = "LANGUAGE C STABLE STRICT PARALLEL SAFE"

TYPES = types_facts.NAMES  # tools/types.json

# operator, function suffix, what it tests, negator, estimator, core's join estimator, support
OPERATORS = [
    ("~~", "like", "LIKE", "!~~", "idtypes_like_sel", "likejoinsel", "like_support"),
    ("!~~", "not_like", "NOT LIKE", "~~", "idtypes_not_like_sel", "nlikejoinsel", None),
    ("~~*", "ilike", "ILIKE", "!~~*", "idtypes_like_sel", "iclikejoinsel", "ilike_support"),
    ("!~~*", "not_ilike", "NOT ILIKE", "~~*", "idtypes_not_like_sel", "icnlikejoinsel", None),
]

# What the ILIKE planner support makes of a prefix pattern, per type, for its comment.
ILIKE_INDEX = {
    "uid11": "no index range, as Base58 text has both cases (the operator stays)",
    "timeid": "as timeid_like_support with the prefix folded to lower case (not for an upper-case I)",
}


def fn(name, args, ret, props, extra=""):
    return (f"CREATE FUNCTION {name}({args}) RETURNS {ret}\n"
            f"AS 'MODULE_PATHNAME', '{name}'\n{props}{extra};\n")


def type_section(t):
    out = [f"\n-- {t}\n\n"]
    ilike = ILIKE_INDEX.get(t, f"as {t}_like_support with the prefix folded to upper case")
    out.append(fn(f"{t}_like_support", "internal", "internal", PURE))
    out.append(f"COMMENT ON FUNCTION {t}_like_support(internal) IS "
               f"'planner support for {t}_like: a literal prefix followed by % becomes {t} ^@ prefix "
               f"(index range, estimate, partition pruning) when it is canonical text, an empty range otherwise';\n")
    out.append(fn(f"{t}_ilike_support", "internal", "internal", PURE))
    out.append(f"COMMENT ON FUNCTION {t}_ilike_support(internal) IS "
               f"'planner support for {t}_ilike: {ilike}';\n\n")
    for op, suffix, what, neg, rest, join, support in OPERATORS:
        extra = f" SUPPORT {t}_{support}" if support else ""
        out.append(fn(f"{t}_{suffix}", f"{t}, text", "bool", PURE, extra))
        out.append(f"COMMENT ON FUNCTION {t}_{suffix}({t}, text) IS "
                   f"'{t}::text {what} pattern, with the operator''s collation';\n")
    out.append("\n")
    for op, suffix, what, neg, rest, join, support in OPERATORS:
        out.append(f"CREATE OPERATOR {op} (\n\tLEFTARG = {t}, RIGHTARG = text, FUNCTION = {t}_{suffix},\n"
                   f"\tNEGATOR = {neg}, RESTRICT = {rest}, JOIN = pg_catalog.{join}\n);\n")
        out.append(f"COMMENT ON OPERATOR {op} ({t}, text) IS "
                   f"'{what}: the {t}''s canonical text {what} the pattern';\n")
    return "".join(out)


def section():
    """Version 1.1: the LIKE family of operators with an ID on the left and a text pattern on
    the right (no cast from text is added: the pattern stays text). Not LEAKPROOF, as core's
    textlike is not (a malformed pattern is an error that shows it)."""
    out = [f"\n-- {'-' * 96}\n-- LIKE and ILIKE\n-- {'-' * 96}\n\n"]
    out.append(fn("idtypes_like_sel", "internal, oid, internal, int4", "float8", ESTIMATOR))
    out.append("COMMENT ON FUNCTION idtypes_like_sel(internal, oid, internal, int4) IS "
               "'restriction selectivity of LIKE and ILIKE on the ID types: the operator applied to "
               "the column''s statistics';\n")
    out.append(fn("idtypes_not_like_sel", "internal, oid, internal, int4", "float8", ESTIMATOR))
    out.append("COMMENT ON FUNCTION idtypes_not_like_sel(internal, oid, internal, int4) IS "
               "'restriction selectivity of NOT LIKE and NOT ILIKE on the ID types: the operator applied "
               "to the column''s statistics';\n")
    out += [type_section(t) for t in TYPES]
    return "".join(out)
