#!/usr/bin/env python3
"""ids_client.py: the Python side of test/clients/client_ids.py (idtypes.ids, imported as a user does).

  ids_client.py make               reads "TYPE KIND N" lines: N new IDs of TYPE each, in a row,
                                   written as "TYPE<TAB>KIND<TAB>sequence number<TAB>ID<TAB>the
                                   wall clock in µs just before the call" lines; KIND
                                   is "-" or a comma list of node=N, clock=N, sid=N, ext=N, monotonic
  ids_client.py view [plain]       reads "TYPE<TAB>hex of the text" lines ("TYPE<TAB>text" with
                                   plain), writes each with a third field: what the client reads
                                   in it, as the server's view is written:
                                   canonical|hex value|unix µs|field ("-" for none), or
                                   ERR:<SQLSTATE> for text it rejects
"""
import sys
import time
from datetime import datetime, timedelta, timezone

import idtypes

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
US = timedelta(microseconds=1)


def make(type_name, kind, n, out):
    kw = {}
    for part in kind.split(","):
        if part == "-":
            continue
        if part == "monotonic":
            kw["monotonic"] = True
            continue
        key, value = part.split("=")
        kw[{"node": "node_id", "clock": "clock_id", "sid": "sid", "ext": "extension"}[key]] = int(value)
    new = getattr(idtypes, "new_" + type_name)
    made = [(time.time_ns() // 1000, new(**kw)) for _ in range(n)]
    for i, (before, text) in enumerate(made, 1):
        out.write("%s\t%s\t%d\t%s\t%d\n" % (type_name, kind, i, text, before))


def view(type_name, text):
    parse = getattr(idtypes, "parse_" + type_name)
    try:
        p = parse(text)
    except idtypes.InvalidIdError as e:
        valid = getattr(idtypes, "is_valid_" + type_name)(text)
        return "ERR:" + e.sqlstate + ("" if not valid else "!valid")
    except Exception as e:  # noqa: BLE001 - any other exception is a finding
        return "EXC:" + type(e).__name__
    if not getattr(idtypes, "is_valid_" + type_name)(text):
        return "EXC:is_valid"
    try:
        ts = getattr(idtypes, type_name + "_timestamp")(text)
        us = (ts - EPOCH) // US
    except ValueError:  # a ulid past 9999-12-31, which a datetime cannot hold
        us = p.unix_ms * 1000 if p.time is None and p.unix_ms > 253402300799999 else -1
    fmt = getattr(idtypes, "format_" + type_name)
    width = 16 if type_name in ("uid11", "timeid", "ulidflake") else 32
    field = {"uid11": lambda: p.random, "timeid": lambda: p.clock_id, "ulidflake": lambda: p.sid,
             "ulid": lambda: None, "euid": lambda: p.extension}[type_name]()
    if type_name == "timeid" and idtypes.timeid_dashed(text).replace("-", "") != fmt(p.value):
        return "EXC:dashed"
    return "|".join([fmt(p.value), "%0*x" % (width, p.value), str(us), "-" if field is None else str(field)])


def main():
    if sys.argv[1] == "make":
        for line in sys.stdin:
            type_name, kind, n = line.split()
            make(type_name, kind, int(n), sys.stdout)
    elif sys.argv[1] == "view":
        for line in sys.stdin:
            type_name, hex_text = line.rstrip("\n").split("\t")[:2]
            plain = sys.argv[2:] == ["plain"]
            text = hex_text if plain else bytes.fromhex(hex_text).decode("utf-8")
            sys.stdout.write("%s\t%s\t%s\n" % (type_name, hex_text, view(type_name, text)))


main()
