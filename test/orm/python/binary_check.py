#!/usr/bin/env python3
"""The binary format of the five types through psycopg 3 and asyncpg: binary_check.py <driver>.

After idtypes.<driver>.register_types, values read in binary format (a psycopg 3 cursor with
binary=True, asyncpg's binary codec) must be the text the server's output function makes, and
values written in binary format (a psycopg 3 binary COPY with set_types(), asyncpg parameters)
must be read by the server as the text says. For each type about 2,300 values: random bytes,
small integers (the leading zeros of the text), the smallest and largest value, and the
generator's; one by one and as arrays (with a NULL, and two-dimensional); written also in the
other spellings the server reads (lower case, euid's aliases and unchecked check, timeid's
dashes). The database is that of
libpq's PGHOST, PGPORT, PGUSER, PGDATABASE.
"""
import asyncio
import sys

from checks import attempt, check, finish

TYPES = ("uid11", "timeid", "ulidflake", "ulid", "euid")
GEN = {"uid11": "generate_xid", "timeid": "generate_tid", "ulidflake": "generate_ulidflake",
       "ulid": "generate_ulid", "euid": "generate_euid"}
SIZE = {"uid11": 8, "timeid": 8, "ulidflake": 8, "ulid": 16, "euid": 16}
driver = sys.argv[1]


def values_sql(t):
    """n, the value, its text: random bytes (the sign bit cleared for timeid and ulidflake, whose
    largest value is 2^63-1), small integers, 0 and the largest, and the generator's."""
    r = "decode(md5(i::text) || md5((i * 7)::text), 'hex')"
    if SIZE[t] == 8:
        rnd = "substring(%s from 1 for 8)" % r
        if t != "uid11":
            rnd = "set_byte(%s, 0, get_byte(%s, 0) & 127)" % (rnd, rnd)
        small = "(i %% 3000)::bigint::%s" % t
        top = "'\\x%s'::bytea" % ("ffffffffffffffff" if t == "uid11" else "7fffffffffffffff")
    else:
        rnd = "substring(%s from 1 for 16)" % r
        small = "('\\x0000000000000000'::bytea || int8send((i %% 3000)::bigint))::%s" % t
        top = "'\\xffffffffffffffffffffffffffffffff'::bytea"
    zero = "'\\x%s'::bytea" % ("00" * SIZE[t])
    return """SELECT row_number() OVER () AS n, v, v::text AS t FROM (
    SELECT ({rnd})::{t} AS v FROM generate_series(1, 2000) i
    UNION ALL SELECT {small} FROM generate_series(0, 199) i
    UNION ALL SELECT {small} FROM generate_series(2800, 2899) i
    UNION ALL SELECT ({zero})::{t} UNION ALL SELECT ({top})::{t}
    UNION ALL SELECT {g}() FROM generate_series(1, 50)) s""".format(
        rnd=rnd.replace("%%", "%"), small=small.replace("%%", "%"), top=top, zero=zero, t=t, g=GEN[t])


CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def variants(t, text):
    """Other spellings the server reads as the same value: lower case (not uid11, whose Base58
    is case-sensitive, nor timeid, lower case already); for euid also the aliases O for 0 and
    I, L for 1, and the check 127 ("not checked": the last 7 bits all ones)."""
    out = [text.lower()] if t in ("ulidflake", "ulid", "euid") else []
    if t == "euid":
        out.append(text.replace("0", "O").replace("1", "l"))
        out.append(text[:25] + CROCKFORD[CROCKFORD.index(text[25]) | 3] + "Z")
    return out


# Texts the server rejects, and so must the binary encoder.
BAD = {"uid11": ["jpXCZedGfVR", "0pXCZedGfVQ", "1111111111"], "timeid": ["c222222222222", "222222222222A"],
       "ulidflake": ["8000000000000", "00CMXB6TAK4SU"], "ulid": ["80000000000000000000000000", "01ARZ3NDEKTSV4RRFFQ69G5FA"],
       "euid": ["000G40R40M30E209185GR38E1ZK", "01ARZ3NDEKTSV4RRFFQ69G5FAVU"]}


def compare(what, got, want):
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    check(len(got) == len(want) and not bad, what, "%d of %d differ, first %r" % (len(bad), len(want), bad[:3])
          if bad else "%d values, %d expected" % (len(got), len(want)))


if driver == "psycopg":
    import psycopg

    from idtypes.psycopg import register_types

    with psycopg.connect(autocommit=True) as conn:
        with conn.cursor(binary=True) as cur:
            cur.execute("SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid")
            raw = cur.fetchone()[0]
            check(isinstance(raw, bytes) and len(raw) == 16,
                  "psycopg binary cursor without register_types: a ulid reads as its 16 bytes (what it changes)", repr(raw))
        register_types(conn)
        for t in TYPES:
            with conn.cursor(binary=True) as cur:
                cur.execute(values_sql(t))
                rows = cur.fetchall()
                check(cur.pgresult.fformat(1) == 1, "psycopg: the binary cursor reads %s in binary format" % t)
                compare("psycopg binary cursor: %d %s values read as the server's text" % (len(rows), t),
                        [r[1] for r in rows], [r[2] for r in rows])
                texts = [r[2] for r in rows]
                cur.execute("SELECT array_agg(v ORDER BY n) || NULL::%s, array_agg(t ORDER BY n) FROM (%s) s"
                            % (t, values_sql(t)))
                arr, arr_text = cur.fetchone()
                compare("psycopg binary cursor: a %s[] of %d values with a NULL reads as a list of the server's text"
                        % (t, len(arr_text)), arr, arr_text + [None])
                cur.execute("SELECT ARRAY[[v, v], [v, NULL]], ARRAY[[t, t], [t, NULL]] FROM (%s) s WHERE n = 7"
                            % values_sql(t))
                arr2, arr2_text = cur.fetchone()
                check(arr2 == arr2_text and arr2[0][0] is not None, "psycopg binary cursor: %s[][] reads as lists" % t,
                      repr(arr2))
                # Written in binary: a binary COPY with set_types(), one by one and as arrays, from
                # the canonical text and other spellings; the server's text must be the canonical.
                cur.execute("CREATE TEMP TABLE bin_%s (n int, v %s, a %s[])" % (t, t, t))
                spelled = [(x, x) for x in texts] + [(y, x) for x in texts[:300] for y in variants(t, x)]
                if t == "timeid":
                    cur.execute("SELECT timeid_dashed(v) FROM (%s) s ORDER BY n LIMIT 300" % values_sql(t))
                    spelled += [(d, x) for (d,), x in zip(cur.fetchall(), texts)]

                def write(t=t, spelled=spelled):
                    with cur.copy("COPY bin_%s (n, v, a) FROM STDIN (FORMAT BINARY)" % t) as copy:
                        copy.set_types(["int4", t, t + "[]"])
                        for n, (written, _) in enumerate(spelled):
                            copy.write_row([n, written, [written, None] if n % 2 else [[written], [written]]])
                    cur.execute("SELECT v::text, (SELECT array_agg(x::text) FROM unnest(a) x) FROM bin_%s ORDER BY n" % t)
                    return cur.fetchall()

                back = attempt("psycopg binary COPY of %s values from str" % t, write) or []
                compare("psycopg binary COPY: %d %s values written from str (%d other spellings) read back as that text"
                        % (len(spelled), t, len(spelled) - len(texts)), [r[0] for r in back], [x for _, x in spelled])
                compare("psycopg binary COPY: %s[] written from lists of str" % t, [r[1] for r in back],
                        [[x, None] if n % 2 else [x, x] for n, (_, x) in enumerate(spelled)])

                def write_text(t=t, spelled=spelled):
                    cur.execute("CREATE TEMP TABLE txt_%s (n int, v %s)" % (t, t))
                    with cur.copy("COPY txt_%s (n, v) FROM STDIN" % t) as copy:
                        copy.set_types(["int4", t])
                        for n, (written, _) in enumerate(spelled[::7]):
                            copy.write_row([n, written])
                    cur.execute("SELECT v::text FROM txt_%s ORDER BY n" % t)
                    return [r[0] for r in cur.fetchall()]

                compare("psycopg text COPY with set_types(): %s values written from str" % t,
                        attempt("psycopg text COPY of %s values from str" % t, write_text) or [],
                        [x for _, x in spelled[::7]])

                def read_copy(t=t):
                    with cur.copy("COPY (SELECT v, ARRAY[v, NULL], t FROM (%s) s ORDER BY n) TO STDOUT (FORMAT BINARY)"
                                  % values_sql(t)) as copy:
                        copy.set_types([t, t + "[]", "text"])
                        return list(copy.rows())

                out = attempt("psycopg binary COPY TO STDOUT of %s values" % t, read_copy) or []
                compare("psycopg binary COPY TO STDOUT with set_types(): %d %s values and arrays read as the server's text"
                        % (len(out), t), [(r[0], r[1]) for r in out], [(r[2], [r[2], None]) for r in out])
                check(len(out) > 2000, "psycopg binary COPY TO STDOUT: all the %s rows" % t, repr(len(out)))
                one = conn.execute("SELECT v, t FROM (%s) s WHERE n = 11" % values_sql(t), binary=True).fetchone()
                check(one[0] == one[1], "psycopg conn.execute(..., binary=True): a %s reads as the server's text" % t,
                      repr(one))
                for text in BAD[t]:
                    try:
                        conn.execute("SELECT %s::" + t, (text,))
                        got = "read"
                    except psycopg.DataError:
                        got = "rejected"
                    check(got == "rejected", "the server rejects %s %r in text (as the encoder must)" % (t, text), got)
                    try:
                        with cur.copy("COPY bin_%s (v) FROM STDIN (FORMAT BINARY)" % t) as copy:
                            copy.set_types([t])
                            copy.write_row([text])
                        got = "written"
                    except (ValueError, psycopg.DataError, psycopg.errors.QueryCanceled) as e:
                        got = "rejected: %s" % e
                    check(got.startswith("rejected"), "psycopg binary COPY: %s %r is rejected" % (t, text), got)
elif driver == "asyncpg":
    import asyncpg

    from idtypes.asyncpg import register_types

    async def main():
        conn = await asyncpg.connect()
        await register_types(conn)
        for t in TYPES:
            rows = await conn.fetch(values_sql(t))
            texts = [r["t"] for r in rows]
            compare("asyncpg binary codec: %d %s values read as the server's text" % (len(rows), t),
                    [r["v"] for r in rows], texts)
            arr, arr_text = await conn.fetchrow("SELECT array_agg(v ORDER BY n) || NULL::%s, array_agg(t ORDER BY n)"
                                                " FROM (%s) s" % (t, values_sql(t)))
            compare("asyncpg binary codec: a %s[] of %d values with a NULL reads as a list of the server's text"
                    % (t, len(arr_text)), arr, list(arr_text) + [None])
            spelled = [(x, x) for x in texts] + [(y, x) for x in texts[:300] for y in variants(t, x)]
            if t == "timeid":
                dashed = await conn.fetch("SELECT timeid_dashed(v) FROM (%s) s ORDER BY n LIMIT 300" % values_sql(t))
                spelled += [(d[0], x) for d, x in zip(dashed, texts)]
            try:
                back = await conn.fetchval("SELECT array_agg(x::text ORDER BY o) FROM unnest($1::%s[]) WITH ORDINALITY u(x, o)"
                                           % t, [w for w, _ in spelled])
            except Exception as e:  # noqa: BLE001 - the check's failure
                back = []
                check(False, "asyncpg binary codec: a %s[] parameter is written" % t, "%s: %s" % (type(e).__name__, e))
            compare("asyncpg binary codec: a %s[] parameter of %d str (%d other spellings) reads back as that text"
                    % (t, len(spelled), len(spelled) - len(texts)), list(back), [x for _, x in spelled])
            stmt = await conn.prepare("SELECT $1::%s::text" % t)
            one = []
            for w, _ in spelled[::23]:
                try:
                    one.append(await stmt.fetchval(w))
                except Exception as e:  # noqa: BLE001 - a difference the comparison shows
                    one.append("%s: %s" % (type(e).__name__, e))
            compare("asyncpg binary codec: a %s parameter written from str" % t, one, [x for _, x in spelled[::23]])
            for text in BAD[t]:
                try:
                    got = "written: %r" % await stmt.fetchval(text)
                except (ValueError, asyncpg.DataError) as e:
                    got = "rejected: %s" % e
                check(got.startswith("rejected"), "asyncpg binary codec: %s %r is rejected" % (t, text), got)
        await conn.close()

    asyncio.run(main())
else:
    sys.exit("binary_check.py: unknown %r" % driver)
finish()
