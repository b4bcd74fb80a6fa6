"""gen_uuid.py: ^@ and <@ on PostgreSQL's own uuid, UUIDv7 time ranges and partition bounds, and
UUIDv7 <-> ulid (see gen_sql.py). The SQL is the five types' (gen_ranges.py) for t = uuid, with
the UUIDv7 names uuidv7_time_range and uuidv7_first_at; the C functions are the range and planner
templates of the five types, instantiated for uuid (src/ranges.cpp, src/planner/); core's
uuid_ops btree family gives the index conditions."""

import gen_ranges

TIME = "the first 48 bits, a UUIDv7''s Unix ms"


def section():
    out = [gen_ranges.type_section(
        "uuid", TIME, 32, "hex digits in either case, with or without the dashes of uuid''s text",
        time_range="uuidv7_time_range",
        heading="uuid: hex prefixes (^@), UUIDv7 time ranges (<@), time partition bounds, "
                "UUIDv7 <-> ulid")]
    out.append("\n")
    out.append(gen_ranges.bounds("uuid", TIME, first_at="uuidv7_first_at"))
    out.append("\n")
    for comments in gen_ranges.range_type_comments("uuid"):
        out += [f"COMMENT ON {kind} {obj} IS '{text}';\n" for kind, obj, text in comments]
    out.append("\n")
    out.append(gen_ranges.fn("uuidv7_to_ulid", "uuid", "ulid"))
    out.append("COMMENT ON FUNCTION uuidv7_to_ulid(uuid) IS 'a UUIDv7 as a ulid with the same ms, "
               "its 12 bits after the version as the ms''s fraction (as generate_ulid() makes "
               "them) and its 62 random bits; the version and variant bits are dropped, order "
               "is kept; an error for another version';\n\n")
    out.append(gen_ranges.fn("ulid_to_uuidv7", "ulid", "uuid"))
    out.append("COMMENT ON FUNCTION ulid_to_uuidv7(ulid) IS 'a ulid as a UUIDv7: the inverse of "
               "uuidv7_to_ulid(), with the version and variant set and the ulid''s last 6 random "
               "bits dropped';\n")
    return "".join(out)
