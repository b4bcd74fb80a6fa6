#!/usr/bin/env python3
"""Arrays of the ID types through each driver and ORM: arrays_check.py <what> [<URL>].

<what> is psycopg, psycopg2 or asyncpg (the driver alone, with idtypes.<driver>.register_types;
libpq's PGHOST, PGPORT, PGUSER, PGDATABASE), sqlalchemy (ARRAY(<type>) for each type, the URL
naming the driver, with idtypes.sqlalchemy.register_types) or django (ArrayField(<field>) for each
field, on the database of PGDATABASE, with a work directory as the URL argument). Each checks that
an array of each of the five types, one with a NULL, a two-dimensional one and an empty one read
as lists of str equal to the server's elements, and (psycopg2, psycopg 3) that without the
registration the driver returns the array's text (what the registration changes); psycopg 3 also
with a binary cursor, asyncpg also with register_types(conn, format="text").
"""
import asyncio
import sys

from checks import attempt, check, finish

TYPES = ("uid11", "timeid", "ulidflake", "ulid", "euid")
GEN = {"uid11": "generate_xid", "timeid": "generate_tid", "ulidflake": "generate_ulidflake",
       "ulid": "generate_ulid", "euid": "generate_euid"}
what = sys.argv[1]
# One row per type: a 2-element array with a NULL, a 2x2 array, an empty array, and the text of
# the elements (in order, NULL as None) for comparison.
QUERY = """SELECT a, b, c, ARRAY(SELECT x::text FROM unnest(a) x), ARRAY(SELECT x::text FROM unnest(b) x)
FROM (SELECT ARRAY[{g}(), NULL]::{t}[] a, ARRAY[[{g}(), {g}()], [{g}(), {g}()]]::{t}[] b,
             '{{}}'::{t}[] c) s"""


def check_row(t, row):
    a, b, c, a_text, b_text = row
    check(isinstance(a, list) and len(a) == 2 and a[1] is None and isinstance(a[0], str)
          and a[0] == a_text[0], "%s %s[] with a NULL reads as a list of str" % (what, t), repr(a))
    check(isinstance(b, list) and [x for r in b for x in r] == list(b_text)
          and all(isinstance(r, list) for r in b), "%s %s[][] reads as a list of lists" % (what, t),
          repr(b))
    check(c == [], "%s empty %s[] reads as []" % (what, t), repr(c))


def text_as_str(rows):
    """psycopg2 and psycopg 3 without the registration: the array's text."""
    check(isinstance(rows[0], str) and rows[0].startswith("{"),
          "%s without register_types: an array reads as its text (what the registration changes)" % what,
          repr(rows[0]))


if what == "psycopg":
    import psycopg

    from idtypes.psycopg import register_types

    with psycopg.connect() as conn:
        text_as_str(conn.execute(QUERY.format(t="ulid", g=GEN["ulid"])).fetchone())
        found = register_types(conn)
        check(sorted(r[1] for r in found) == sorted(TYPES), "register_types finds the five types", repr(found))
        for t in TYPES:
            check_row(t, conn.execute(QUERY.format(t=t, g=GEN[t])).fetchone())
        back = conn.execute("SELECT %s::ulid[]", (["01arz3ndektsv4rrffq69g5fav", None],)).fetchone()[0]
        check(back == ["01ARZ3NDEKTSV4RRFFQ69G5FAV", None], "psycopg: a list parameter as ulid[]", repr(back))
        with conn.cursor(binary=True) as cur:
            what = "psycopg binary cursor:"
            for t in TYPES:
                cur.execute(QUERY.format(t=t, g=GEN[t]))
                check(cur.pgresult.fformat(0) == 1, "%s %s[] comes in binary format" % (what, t))
                check_row(t, cur.fetchone())
            what = "psycopg"
elif what == "psycopg2":
    import psycopg2

    from idtypes.psycopg2 import register_types

    conn = psycopg2.connect("")
    with conn.cursor() as cur:
        cur.execute(QUERY.format(t="ulid", g=GEN["ulid"]))
        text_as_str(cur.fetchone())
    register_types(conn)
    check(conn.status == psycopg2.extensions.STATUS_BEGIN, "psycopg2: the open transaction stays open")
    conn.rollback()
    register_types(conn)
    check(conn.status == psycopg2.extensions.STATUS_READY, "psycopg2: an idle connection stays idle")
    with conn.cursor() as cur:
        for t in TYPES:
            cur.execute(QUERY.format(t=t, g=GEN[t]))
            check_row(t, cur.fetchone())
        cur.execute("SELECT %s::ulid[]", (["01arz3ndektsv4rrffq69g5fav", None],))
        back = cur.fetchone()[0]
        check(back == ["01ARZ3NDEKTSV4RRFFQ69G5FAV", None], "psycopg2: a list parameter as ulid[]", repr(back))
elif what == "asyncpg":
    import asyncpg

    from idtypes.asyncpg import register_types

    async def main():
        conn = await asyncpg.connect()
        found = await register_types(conn)
        check(sorted(r[1] for r in found) == sorted(TYPES), "register_types finds the five types", repr(found))
        for t in TYPES:
            check_row(t, tuple(await conn.fetchrow(QUERY.format(t=t, g=GEN[t]))))
        back = await conn.fetchval("SELECT $1::ulid[]", ["01arz3ndektsv4rrffq69g5fav", None])
        check(back == ["01ARZ3NDEKTSV4RRFFQ69G5FAV", None], "asyncpg: a list parameter as ulid[]", repr(back))
        await conn.close()
        # The text codec: register_types(conn, format="text").
        global what
        what = "asyncpg, format='text':"
        conn = await asyncpg.connect()
        found = await register_types(conn, format="text")
        check(len(found) == 5, "%s register_types finds the five types" % what, repr(found))
        for t in TYPES:
            check_row(t, tuple(await conn.fetchrow(QUERY.format(t=t, g=GEN[t]))))
        back = await conn.fetchval("SELECT $1::ulid[]", ["01arz3ndektsv4rrffq69g5fav", None])
        check(back == ["01ARZ3NDEKTSV4RRFFQ69G5FAV", None], "%s a list parameter as ulid[]" % what, repr(back))
        await conn.close()

    asyncio.run(main())
elif what == "sqlalchemy":
    import sqlalchemy as sa
    from sqlalchemy import Column, Integer, MetaData, Table, func, select
    from sqlalchemy.dialects.postgresql import ARRAY

    from idtypes import sqlalchemy as idsa

    url = sys.argv[2]
    what = "SQLAlchemy %s, %s:" % (sa.__version__, sa.engine.make_url(url).drivername)
    md = MetaData()
    classes = {t: idsa.TYPES[t] for t in TYPES}
    table = Table("sa_arrays", md, Column("n", Integer, primary_key=True),
                  *[Column(t + "s", ARRAY(cls)) for t, cls in classes.items()])
    value = "01ARZ3NDEKTSV4RRFFQ69G5FAV"

    def run(conn):
        md.create_all(conn)
        conn.execute(table.insert().values(n=1, ulids=[value.lower(), None], **{
            t + "s": func.array_fill(getattr(func, GEN[t])(), [2]) for t in TYPES if t != "ulid"}))
        conn.execute(table.insert().values(n=2, ulids=[]))
        rows = conn.execute(select(table).order_by(table.c.n)).all()
        check(rows[0].ulids == [value, None], "%s ARRAY(ULID) written from a list reads back as a list" % what,
              repr(rows[0].ulids))
        for t in TYPES:
            got = getattr(rows[0], t + "s")
            check(isinstance(got, list) and len(got) == 2 and isinstance(got[0], str) and len(got[0]) > 2,
                  "%s ARRAY(%s) reads as a list of str" % (what, classes[t].__name__), repr(got))
        check(rows[1].ulids == [], "%s an empty ARRAY(ULID) reads as []" % what, repr(rows[1].ulids))
        n = conn.execute(select(table.c.n).where(table.c.ulids.contains([value]))).scalars().all()
        check(n == [1], "%s ARRAY(ULID).contains([...])" % what, repr(n))
        n = conn.execute(select(table.c.n).where(table.c.ulids.any(value))).scalars().all()
        check(n == [1], "%s ARRAY(ULID).any(value)" % what, repr(n))

    if "asyncpg" in url:
        from sqlalchemy.ext.asyncio import create_async_engine

        async def main():
            engine = idsa.register_types(create_async_engine(url))
            async with engine.begin() as conn:
                await conn.run_sync(run)
            await engine.dispose()

        attempt(what + " the checks", asyncio.run, main())
    else:
        engine = idsa.register_types(sa.create_engine(url))
        with engine.begin() as conn:
            attempt(what + " the checks", run, conn)
elif what == "django":
    import django

    from checks import django_app

    what = "Django %s:" % django.get_version()
    django_app("djarrays", sys.argv[2], migrations=False)
    from django.db import connection

    from djarrays.models import Batch

    with connection.schema_editor() as editor:
        editor.create_model(Batch)
    value = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
    b = Batch.objects.create(ulids=[value.lower(), None], uid11s=[], euids=None)
    with connection.cursor() as cur:
        cur.execute("UPDATE djarrays_batch SET timeids = ARRAY[generate_tid(), generate_tid()],"
                    " ulidflakes = ARRAY[generate_ulidflake()], euids = ARRAY[generate_euid()]")
    b = Batch.objects.get(pk=b.pk)
    check(b.ulids == [value, None], "%s ArrayField(ULIDField()) reads as a list of str" % what, repr(b.ulids))
    check(b.uid11s == [], "%s an empty ArrayField(UID11Field()) reads as []" % what, repr(b.uid11s))
    for f in ("timeids", "ulidflakes", "euids"):
        got = getattr(b, f)
        check(isinstance(got, list) and got and all(isinstance(x, str) and len(x) > 10 for x in got),
              "%s ArrayField of %s reads as a list of str" % (what, f[:-1]), repr(got))
    n = Batch.objects.filter(ulids__contains=[value]).count()
    check(n == 1, "%s ulids__contains=[...]" % what, repr(n))
else:
    sys.exit("arrays_check.py: unknown %r" % what)
finish()
