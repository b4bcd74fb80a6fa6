#!/usr/bin/env python3
"""idtypes from Python with psycopg 3, in text and in binary format.

Connects with the usual libpq environment (PGHOST, PGPORT, PGUSER, PGDATABASE) or the
connection string given as the first argument, and:

- creates a table with a column of each idtypes type (uid11, timeid, ulidflake, ulid, euid),
  each with its generator as default, and fills it with generated rows;
- makes IDs on the client (a chosen time plus random bits, encoded by the small codecs below),
  inserts them as parameters and reads them back: once in text format (plain str parameters),
  once in binary format (typed values: int subclasses for the 64-bit types, uuid.UUID subclasses
  for ulid and euid, sent and read as the 8 or 16 big-endian bytes by the Dumpers and Loaders
  registered below for the OIDs that psycopg.types.TypeInfo.fetch finds);
- checks that every value round-trips exactly, that the binary value of every row (generated
  ones too) encodes to the server's text, and that the server's accessors see the chosen times;
- queries by `^@` prefix, by `<@ <type>_time_range(tstzrange)` and (ulid, euid) by `= uuid`,
  with bound parameters in prepared statements and plan_cache_mode = force_generic_plan; the
  result must be exactly the rows the client expects, the statement must have run with a generic
  plan (pg_prepared_statements), and that plan, EXPLAINed through a server-side PREPARE of the
  very statement text and parameter types the driver sent, must be a btree index range scan.

Prints one line per check ("ok: ..." or "FAILED: ...") and exits 1 if any check failed.
"""
import datetime as dt
import re
import secrets
import sys
import uuid

import psycopg
from psycopg import sql
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo
from psycopg.types.range import Range

UTC = dt.timezone.utc
UNIX_EPOCH = dt.datetime(1970, 1, 1, tzinfo=UTC)
XID_EPOCH = dt.datetime(2011, 11, 11, 11, 11, 11, 111000, tzinfo=UTC)
ULIDFLAKE_EPOCH = dt.datetime(2024, 1, 1, tzinfo=UTC)
MS = dt.timedelta(milliseconds=1)
US = dt.timedelta(microseconds=1)

BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
SORTABLE32 = "234567abcdefghijklmnopqrstuvwxyz"  # atproto TID
CROCKFORD32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


# --- the canonical text forms, written here from the formats' descriptions -----------------------

def encode_digits(value, alphabet, width):
    base = len(alphabet)
    out = []
    for _ in range(width):
        value, digit = divmod(value, base)
        out.append(alphabet[digit])
    if value:
        raise ValueError("value too large for %d symbols" % width)
    return "".join(reversed(out))


def decode_digits(text, alphabet):
    value = 0
    for ch in text:
        value = value * len(alphabet) + alphabet.index(ch)
    return value


class Codec:
    """One type: its text width and alphabet, the bits under the time, the time's epoch and unit."""

    def __init__(self, name, alphabet, width, nbytes, shift, epoch, unit):
        self.name, self.alphabet, self.width, self.nbytes = name, alphabet, width, nbytes
        self.shift, self.epoch, self.unit = shift, epoch, unit

    def encode(self, value):
        return encode_digits(value, self.alphabet, self.width)

    def decode(self, text):
        return decode_digits(text, self.alphabet)

    def make(self, when, low_bits):
        """The ID of the time `when` with `low_bits` below the time field."""
        return ((when - self.epoch) // self.unit) << self.shift | low_bits


class EuidCodec(Codec):
    """EUID text: the 128 bits followed by a 7-bit check (the value mod 127), 27 symbols."""

    def encode(self, value):
        return encode_digits(value << 7 | value % 127, self.alphabet, self.width)

    def decode(self, text):
        both = decode_digits(text, self.alphabet)
        value, check = both >> 7, both & 127
        if check != value % 127:
            raise ValueError("bad EUID check symbol in %s" % text)
        return value


CODECS = {
    # uid11, xid profile: 42-bit ms since 2011-11-11T11:11:11.111Z, then 22 random bits.
    "uid11": Codec("uid11", BASE58, 11, 8, 22, XID_EPOCH, MS),
    # TID: 53-bit microseconds since 1970, then a 10-bit clock id.
    "timeid": Codec("timeid", SORTABLE32, 13, 8, 10, UNIX_EPOCH, US),
    # ULID-Flake: 43-bit ms since 2024-01-01, then 20 random bits (or 15 random + a 5-bit sid).
    "ulidflake": Codec("ulidflake", CROCKFORD32, 13, 8, 20, ULIDFLAKE_EPOCH, MS),
    # ULID: 48-bit ms since 1970, then 80 random bits.
    "ulid": Codec("ulid", CROCKFORD32, 26, 16, 80, UNIX_EPOCH, MS),
    # EUID: 45-bit ms since 1970, 15 random (or extension) bits, 4-bit extension length, 64 random.
    "euid": EuidCodec("euid", CROCKFORD32, 27, 16, 83, UNIX_EPOCH, MS),
}
COLUMNS = {"uid11": "x", "timeid": "t", "ulidflake": "f", "ulid": "u", "euid": "e"}
TYPES = list(COLUMNS)
GENERATORS = {
    "uid11": "generate_xid()", "timeid": "generate_tid()", "ulidflake": "generate_ulidflake()",
    "ulid": "generate_ulid()", "euid": "generate_euid()",
}
TIME_FUNCS = {
    "uid11": "xid_timestamp", "timeid": "timeid_timestamp", "ulidflake": "ulidflake_timestamp",
    "ulid": "ulid_timestamp", "euid": "euid_timestamp",
}
MAX_VALUES = {"uid11": 2**64 - 1, "timeid": 2**63 - 1, "ulidflake": 2**63 - 1,
              "ulid": 2**128 - 1, "euid": 2**128 - 1}


# --- the Python values of binary format: the type is carried by the class -------------------------

class Uid11(int):
    pass


class TimeId(int):
    pass


class UlidFlake(int):
    pass


class Ulid(uuid.UUID):
    pass


class Euid(uuid.UUID):
    pass


PY_CLASSES = {"uid11": Uid11, "timeid": TimeId, "ulidflake": UlidFlake, "ulid": Ulid, "euid": Euid}


def register_idtypes(conn):
    """Dumpers and Loaders for the five types, by the OIDs the server has for them."""
    oids = {}
    for name in TYPES:
        info = TypeInfo.fetch(conn, name)
        if info is None:
            raise RuntimeError("type %s not found: is the extension installed?" % name)
        info.register(conn)  # arrays of the type load element by element with the loaders below
        oids[name] = info.oid
        cls = PY_CLASSES[name]
        if issubclass(cls, int):
            def dump(self, obj):
                return int(obj).to_bytes(8, "big")  # unsigned: uid11 uses all 64 bits

            def load(self, data, cls=cls):
                return cls(int.from_bytes(data, "big"))
        else:
            def dump(self, obj):
                return obj.bytes  # the 16 bytes, as uuid

            def load(self, data, cls=cls):
                return cls(bytes=bytes(data))
        dumper = type(cls.__name__ + "BinaryDumper", (Dumper,),
                      {"format": Format.BINARY, "oid": info.oid, "dump": dump})
        loader = type(cls.__name__ + "BinaryLoader", (Loader,),
                      {"format": Format.BINARY, "load": load})
        conn.adapters.register_dumper(cls, dumper)
        conn.adapters.register_loader(info.oid, loader)
        # Text format: the canonical text as str (what psycopg does for an unknown type anyway;
        # registered so that the mapping does not depend on that default).
        conn.adapters.register_loader(info.oid, type(cls.__name__ + "TextLoader", (Loader,), {
            "format": Format.TEXT, "load": lambda self, data: bytes(data).decode("ascii")}))
    return oids


# --- checks ------------------------------------------------------------------------------------

failures = 0
checks = 0


def check(ok, what, detail=""):
    global failures, checks
    checks += 1
    if ok:
        print("ok: " + what)
    else:
        failures += 1
        print("FAILED: " + what + (": " + detail if detail else ""))


def as_int(name, value):
    """A value read in either format as the type's integer."""
    if isinstance(value, str):
        return CODECS[name].decode(value)
    if isinstance(value, uuid.UUID):
        return value.int
    return int(value)


def as_text(name, value):
    return value if isinstance(value, str) else CODECS[name].encode(as_int(name, value))


def to_param(name, value, binary):
    """The parameter for an ID held as the type's integer: text or a typed value."""
    if not binary:
        return CODECS[name].encode(value)
    cls = PY_CLASSES[name]
    return cls(int=value) if issubclass(cls, uuid.UUID) else cls(value)


class guard:
    """A failing query fails its check (with the server's message) and the example goes on."""

    def __init__(self, what):
        self.what = what

    def __enter__(self):
        return self

    def __exit__(self, typ, exc, tb):
        if isinstance(exc, psycopg.Error):
            check(False, self.what, "%s: %s" % (type(exc).__name__, str(exc).strip().splitlines()[0]))
            return True
        return False


plan_no = 0


def check_generic_plan(conn, marker, what, param):
    """The driver's prepared statement (found by its marker comment) ran with a generic plan, and
    that plan (EXPLAINed through a server-side PREPARE of the same text and parameter types)
    reads a btree index range with the parameter in the index condition."""
    global plan_no
    rows = conn.execute(
        "SELECT statement, parameter_types::text[], to_jsonb(p) FROM pg_prepared_statements p"
        " WHERE NOT from_sql AND strpos(statement, %t) > 0", [marker]).fetchall()
    if len(rows) != 1:
        check(False, what + ": driver statement prepared", "%d statements in pg_prepared_statements" % len(rows))
        return
    statement, types, info = rows[0]
    if "generic_plans" in info:  # PostgreSQL 14+
        generic, custom = info["generic_plans"], info["custom_plans"]
        check(generic >= 1 and custom == 0, "%s: ran with a generic plan (%s)" % (what, ", ".join(types)),
              "generic_plans %s, custom_plans %s" % (generic, custom))
    plan_no += 1
    name = sql.Identifier("check_plan_%d" % plan_no)
    conn.execute(sql.SQL("PREPARE {} ({}) AS {}").format(
        name, sql.SQL(", ").join(sql.SQL(t) for t in types), sql.SQL(statement)))
    lines = [r[0] for r in conn.execute(
        sql.SQL("EXPLAIN EXECUTE {} ({})").format(name, sql.Literal(param)))]
    conn.execute(sql.SQL("DEALLOCATE {}").format(name))
    plan = "\n".join(lines)
    scan = re.search(r"(Index Scan|Index Only Scan|Bitmap Index Scan) using (\S+)", plan)
    cond = [l.strip() for l in lines if "Index Cond" in l and "$1" in l]
    check(scan is not None and cond and "Seq Scan" not in plan,
          "%s: generic plan is %s, %s" % (what, scan.group(0) if scan else "no index scan",
                                          cond[0] if cond else "no Index Cond on $1"),
          "\n" + plan)


def main():
    conninfo = sys.argv[1] if len(sys.argv) > 1 else ""
    with psycopg.connect(conninfo, autocommit=True) as conn:
        print("psycopg %s (libpq %s), server %s" % (
            psycopg.__version__, psycopg.pq.version(), conn.info.parameter_status("server_version")))
        conn.execute("SET client_min_messages = warning")
        conn.execute("CREATE EXTENSION IF NOT EXISTS idtypes")
        conn.execute("SET plan_cache_mode = force_generic_plan")
        conn.execute("SET TimeZone = 'UTC'")
        oids = register_idtypes(conn)
        print("type OIDs: " + ", ".join("%s %d" % kv for kv in oids.items()))

        conn.execute("DROP TABLE IF EXISTS example_ids")
        conn.execute("CREATE TABLE example_ids (label text PRIMARY KEY, "
                     + ", ".join("%s %s NOT NULL DEFAULT %s" % (COLUMNS[n], n, GENERATORS[n])
                                 for n in TYPES) + ")")
        for n in TYPES:
            conn.execute("CREATE INDEX example_ids_%s ON example_ids (%s)" % (COLUMNS[n], COLUMNS[n]))
        conn.execute("INSERT INTO example_ids (label) SELECT 'gen-' || g FROM generate_series(1, 2000) g")
        conn.execute("ANALYZE example_ids")

        cols = ", ".join(COLUMNS[n] for n in TYPES)
        modes = [("text", False, dt.datetime(2024, 5, 1, 10, 0, tzinfo=UTC)),
                 ("binary", True, dt.datetime(2024, 6, 1, 10, 0, tzinfo=UTC))]
        made = {}  # label -> {type: int}
        times = {}  # label -> {type: datetime}
        for mode, binary, base in modes:
            ph = "%b" if binary else "%t"
            # Six rows 90 s apart with a random sub-second part, and the smallest and largest IDs.
            rows = {}
            for i in range(6):
                when = base + dt.timedelta(seconds=90 * i, microseconds=secrets.randbelow(1000000))
                label = "%s-%d" % (mode, i)
                times[label] = {n: when if n == "timeid" else when.replace(microsecond=when.microsecond // 1000 * 1000)
                                for n in TYPES}
                rows[label] = {
                    "uid11": CODECS["uid11"].make(when, secrets.randbits(22)),
                    "timeid": CODECS["timeid"].make(when, secrets.randbelow(1024)),
                    "ulidflake": CODECS["ulidflake"].make(when, secrets.randbits(20)),
                    "ulid": CODECS["ulid"].make(when, secrets.randbits(80)),
                    # no extension: 15 random bits, extension length 0, 64 random bits
                    "euid": CODECS["euid"].make(when, secrets.randbits(15) << 68 | secrets.randbits(64)),
                }
            rows[mode + "-min"] = {n: 0 for n in TYPES}
            rows[mode + "-max"] = dict(MAX_VALUES)
            with conn.cursor(binary=binary) as cur:
                cur.executemany(
                    "INSERT INTO example_ids (label, %s) VALUES (%s, %s)" % (cols, ph, ", ".join([ph] * 5)),
                    [[label] + [to_param(n, ids[n], binary) for n in TYPES] for label, ids in rows.items()])
                cur.execute("SELECT label, %s FROM example_ids WHERE label LIKE %s ORDER BY label" % (cols, ph),
                            [mode + "-%"])
                back = {r[0]: dict(zip(TYPES, r[1:])) for r in cur}
            made.update(rows)
            bad = [(label, n, rows[label][n], back.get(label, {}).get(n)) for label in rows for n in TYPES
                   if label not in back or as_int(n, back[label][n]) != rows[label][n]]
            check(not bad and set(back) == set(rows),
                  "%s: %d rows x 5 types inserted as %s parameters read back exactly" % (
                      mode, len(rows), "typed binary" if binary else "str"), repr(bad[:3]))
            if binary:
                wrong = [(label, n, type(v).__name__) for label, r in back.items() for n, v in r.items()
                         if type(v) is not PY_CLASSES[n]]
                check(not wrong, "binary: values load as Uid11/TimeId/UlidFlake (int) and Ulid/Euid (uuid.UUID)",
                      repr(wrong[:3]))

        # Every row, in both formats: the binary value must encode to the text the server prints.
        text_rows = {r[0]: dict(zip(TYPES, r[1:])) for r in conn.execute(
            "SELECT label, %s FROM example_ids" % cols)}
        bin_rows = {r[0]: dict(zip(TYPES, r[1:])) for r in conn.execute(
            "SELECT label, %s FROM example_ids" % cols, binary=True)}
        bad = [(label, n) for label in text_rows for n in TYPES
               if as_text(n, bin_rows[label][n]) != text_rows[label][n]]
        check(not bad and len(text_rows) == len(bin_rows) == 2000 + len(made),
              "all %d rows (generated defaults included): binary values encode to the server's text" % len(text_rows),
              repr(bad[:3]))
        bad = [(label, n) for label in made for n in TYPES
               if text_rows[label][n] != CODECS[n].encode(made[label][n])]
        check(not bad, "text read back equals the client's encoding of every inserted ID", repr(bad[:3]))

        # The server reads the chosen times out of the client-made IDs.
        labels = sorted(times)
        got = conn.execute(
            "SELECT label, " + ", ".join("%s(%s)" % (TIME_FUNCS[n], COLUMNS[n]) for n in TYPES)
            + ", timeid_clock_id(t), euid_extension(e) FROM example_ids WHERE label = ANY(%s) ORDER BY label",
            [labels]).fetchall()
        bad = [(r[0], n) for r in got for n, v in zip(TYPES, r[1:6]) if v != times[r[0]][n]]
        bad += [(r[0], "clock id") for r in got if r[6] != made[r[0]]["timeid"] & 1023]
        bad += [(r[0], "euid extension") for r in got if r[7] is not None]
        check(not bad and len(got) == len(labels),
              "server accessors give the times the client encoded (%d rows x 5 types, ms; timeid us)" % len(got),
              repr(bad[:3]))

        # Arrays of the types, through TypeInfo.register (element loaders above).
        for binary in (False, True):
            arr = conn.execute("SELECT array_agg(u ORDER BY label), array_agg(x ORDER BY label)"
                               " FROM example_ids WHERE label LIKE 'text-%'", binary=binary).fetchone()
            want = [made[label] for label in sorted(l for l in made if l.startswith("text-"))]
            check([as_int("ulid", v) for v in arr[0]] == [w["ulid"] for w in want]
                  and [as_int("uid11", v) for v in arr[1]] == [w["uid11"] for w in want],
                  "%s: ulid[] and uid11[] read back element by element" % ("binary" if binary else "text"))

        # Queries with bound parameters, prepared, generic plans.
        for mode, binary, base in modes:
            ph = "%b" if binary else "%t"
            for n in TYPES:
                col, codec = COLUMNS[n], CODECS[n]
                # ^@: the common prefix of rows 1 and 3 of this mode (so row 2 has it too); the
                # expected rows from every row's text.
                with guard("%s: %s ^@ $1" % (mode, n)):
                    first, last = text_rows[mode + "-1"][n], text_rows[mode + "-3"][n]
                    prefix = first[:next(i for i in range(len(first) + 1) if first[:i + 1] != last[:i + 1])]
                    want = {label for label, r in text_rows.items() if r[n].startswith(prefix)}
                    marker = "[prefix %s %s]" % (mode, n)
                    got = {r[0] for r in conn.execute(
                        "SELECT label /* %s */ FROM example_ids WHERE %s ^@ %s" % (marker, col, ph),
                        [prefix], prepare=True, binary=binary)}
                    check(got == want and {mode + "-1", mode + "-2", mode + "-3"} <= got,
                          "%s: %s ^@ '%s' -> %d rows, as expected" % (mode, n, prefix, len(got)),
                          "got %s, want %s" % (sorted(got), sorted(want)))
                    check_generic_plan(conn, marker, "%s: %s ^@ $1" % (mode, n), prefix)

                # <@ time range: rows 1..3 of this mode (90 s apart); expected from every row's time.
                with guard("%s: %s <@ %s_time_range($1)" % (mode, n, n)):
                    lo, hi = base + dt.timedelta(seconds=90), base + dt.timedelta(seconds=360)
                    window = Range(lo, hi, "[)") if binary else "[%s,%s)" % (lo.isoformat(), hi.isoformat())
                    lo_unit, hi_unit = (lo - codec.epoch) // codec.unit, (hi - codec.epoch) // codec.unit
                    want = {label for label, r in text_rows.items()
                            if lo_unit <= codec.decode(r[n]) >> codec.shift < hi_unit}
                    marker = "[range %s %s]" % (mode, n)
                    got = {r[0] for r in conn.execute(
                        "SELECT label /* %s */ FROM example_ids WHERE %s <@ %s_time_range(%s)" % (marker, col, n, ph),
                        [window], prepare=True, binary=binary)}
                    check(got == want == {mode + "-1", mode + "-2", mode + "-3"},
                          "%s: %s <@ %s_time_range(%s) -> %s" % (mode, n, n, "Range" if binary else "str", sorted(got)),
                          "by decoding %s, by construction rows 1..3" % sorted(want))
                    check_generic_plan(conn, marker, "%s: %s <@ %s_time_range($1)" % (mode, n, n), window)

                # = uuid (ulid, euid): a plain uuid.UUID parameter, psycopg's own uuid dumper.
                if n in ("ulid", "euid"):
                    with guard("%s: %s = $1 (uuid)" % (mode, n)):
                        key = uuid.UUID(int=made[mode + "-2"][n])
                        marker = "[uuid %s %s]" % (mode, n)
                        got = conn.execute(
                            "SELECT label, %s /* %s */ FROM example_ids WHERE %s = %s" % (col, marker, col, ph),
                            [key], prepare=True, binary=binary).fetchall()
                        check(len(got) == 1 and got[0][0] == mode + "-2" and as_int(n, got[0][1]) == key.int,
                              "%s: %s = uuid.UUID('%s') finds its row" % (mode, n, key), repr(got))
                        check_generic_plan(conn, marker, "%s: %s = $1 (uuid)" % (mode, n), key)

    print("%d checks, %d failed" % (checks, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
