"""gen_generators.py: the generator functions' part of the install script (see gen_sql.py)."""

GENERATE_ULID_COMMENT = ("a new ulid: 48-bit ms | 12-bit fraction of the ms | 68 fresh random bits, "
                         "increasing within a session")

# (SQL name, argument list, return type, C symbol, comment)
GENERATORS = [
    ("generate_xid", "", "uid11", "generate_xid",
     "a new uid11 of the xid profile (ms since 2011-11-11T11:11:11.111Z | 22 random bits), strictly increasing"),
    ("generate_uid11", "", "uid11", "generate_uid11",
     "a new uid11 of the fullrand profile: 64 random bits"),
    ("generate_tid", "", "timeid", "generate_tid",
     "a new timeid: micros = max(now, last + 1), clock id from idtypes.tid_clock_id or chosen by idtypes"),
    ("generate_tid", "clock_id int4", "timeid", "generate_tid",
     "a new timeid with the given clock id (0..1023)"),
    ("generate_ulidflake", "", "ulidflake", "generate_ulidflake",
     "a new stand-alone ulidflake (20 random bits), strictly increasing"),
    ("generate_ulidflake", "sid int4", "ulidflake", "generate_ulidflake",
     "a new scalable ulidflake (15 random bits | sid 0..31), strictly increasing"),
    ("generate_ulid", "", "ulid", "generate_ulid", GENERATE_ULID_COMMENT),
    ("generate_ulid_monotonic", "", "ulid", "generate_ulid_monotonic",
     "a new ulid, the previous + 1 within the same millisecond: strictly increasing"),
    ("generate_euid", "", "euid", "generate_euid",
     "a new euid without extension, strictly increasing"),
    ("generate_euid", "extension int4", "euid", "generate_euid",
     "a new euid carrying the extension (0..32767), strictly increasing"),
    ("generate_xid_at", "ts timestamptz", "uid11", "generate_xid_at",
     "a uid11 (xid profile) for the given time, with fresh randomness and no monotonic state"),
    ("generate_tid_at", "ts timestamptz", "timeid", "generate_tid_at",
     "a timeid for the given time (exact microsecond), with the default clock id"),
    ("generate_tid_at", "ts timestamptz, clock_id int4", "timeid", "generate_tid_at",
     "a timeid for the given time and clock id"),
    ("generate_ulidflake_at", "ts timestamptz", "ulidflake", "generate_ulidflake_at",
     "a stand-alone ulidflake for the given time, with fresh randomness"),
    ("generate_ulidflake_at", "ts timestamptz, sid int4", "ulidflake", "generate_ulidflake_at",
     "a scalable ulidflake for the given time and sid"),
    ("generate_ulid_at", "ts timestamptz", "ulid", "generate_ulid_at",
     "a ulid for the given time, with fresh randomness"),
    ("generate_euid_at", "ts timestamptz", "euid", "generate_euid_at",
     "an euid without extension for the given time, with fresh randomness"),
    ("generate_euid_at", "ts timestamptz, extension int4", "euid", "generate_euid_at",
     "an euid for the given time carrying the extension"),
]


# The generators with a session's state (monotonic, or generate_ulid()'s IDs increasing within a
# session): PARALLEL RESTRICTED from 1.1 on, so that a parallel query calls them in the leader
# only, one state stepping in the order the rows are made (parallel workers each had a state and
# a backend slot of their own, their IDs interleaving). The others (random, or a given time) stay
# PARALLEL SAFE.
MONOTONIC = {"generate_xid", "generate_tid", "generate_ulidflake", "generate_ulid",
             "generate_ulid_monotonic", "generate_euid"}


def parallel(name):
    return "RESTRICTED" if name in MONOTONIC else "SAFE"


# Volatility. The generators read the wall clock or fresh randomness at every call: VOLATILE,
# like gen_random_uuid(). generate_tid_at() reads neither: its TID is the given microsecond and a
# clock id, so from 1.2 on it is IMMUTABLE with the clock id given, and STABLE with the default
# clock id (idtypes.tid_clock_id or the session's slot, fixed within a statement; a parallel
# worker takes its leader's). 1.0 and 1.1 declared both VOLATILE.
VOLATILITY = {("generate_tid_at", "ts timestamptz"): "STABLE",
              ("generate_tid_at", "ts timestamptz, clock_id int4"): "IMMUTABLE"}


def volatility(name, args):
    return VOLATILITY.get((name, args), "VOLATILE")


def changed_in_1_2():
    """For the update script: generate_tid_at()'s volatility."""
    return "".join(f"ALTER FUNCTION {name}({arg_types(args)}) {v};\n"
                   for (name, args), v in VOLATILITY.items())


def arg_types(args):
    return ", ".join(a.split()[-1] for a in args.split(", ")) if args else ""


def section():
    out = [f"\n-- {'-' * 96}\n-- generators\n-- {'-' * 96}\n\n"]
    out.append("""CREATE FUNCTION idtypes_generator_scope() RETURNS text
AS 'MODULE_PATHNAME', 'idtypes_generator_scope'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idtypes_generator_scope() IS
'cluster when idtypes is in shared_preload_libraries (one monotonic state per generator for all sessions), else backend';

""")
    for name, args, ret, sym, comment in GENERATORS:
        out.append(f"CREATE FUNCTION {name}({args}) RETURNS {ret}\n"
                   f"AS 'MODULE_PATHNAME', '{sym}'\n"
                   f"LANGUAGE C {volatility(name, args)} STRICT PARALLEL {parallel(name)};\n")
        out.append(f"COMMENT ON FUNCTION {name}({arg_types(args)}) IS '{comment}';\n\n")
    return "".join(out)
