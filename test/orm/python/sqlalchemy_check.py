#!/usr/bin/env python3
"""idtypes.sqlalchemy against a real server: sqlalchemy_check.py <SQLAlchemy URL>.

The URL names the driver (postgresql+psycopg2, +psycopg, +asyncpg); the database must have the
extension. An asyncpg URL runs the same checks through an AsyncEngine (AsyncConnection.run_sync).
Every SQLAlchemy warning is an error (a NullType from reflection warns). Checks:
- create_all() makes columns of our types (format_type of each is the type's name);
- an ORM insert with the server default returns the generated key as str; every type's value
  round-trips; a bound value is read as the column's type (a lower-case ULID comes back
  canonical), and no bind is cast to VARCHAR;
- session.get() by a string key after commit(); FK join through relationship();
- .prefix(), .in_time_range() and .startswith() return exactly the rows SQL's ::text LIKE and
  the rows' times say, and EXPLAIN (enable_seqscan off) shows an index scan for each;
- reflection (Table autoload, inspect().get_columns()) gives our types and a query on the
  reflected table by a string key finds its row;
- with SQLAlchemy 2.0 and psycopg 3 or asyncpg, the key mapped as String instead fails with
  "operator does not exist: ulid = character varying" (the pitfall docs/orms.md describes).
Prints "ok: ..." or "FAILED: ..." per check and "N checks, N failed".
"""
import asyncio
import datetime as dt
import sys
import warnings

warnings.simplefilter("error")

import sqlalchemy as sa  # noqa: E402
from sqlalchemy import Column, ForeignKey, MetaData, Table, Text, func, inspect, literal, select, text  # noqa: E402
from sqlalchemy.orm import Session, declarative_base, relationship  # noqa: E402

from checks import LIKE_SKIP, attempt, check, finish, has_like, plan_uses_index, skip  # noqa: E402
from idtypes.sqlalchemy import EUID, ULID, UID11, TimeID, ULIDFlake  # noqa: E402

UTC = dt.timezone.utc
url = sys.argv[1]
driver = sa.engine.make_url(url).drivername
label = "SQLAlchemy %s, %s" % (sa.__version__, driver)

Base = declarative_base()


class Event(Base):
    __tablename__ = "sa_events"
    id = Column(ULID, primary_key=True, server_default=func.generate_ulid())
    name = Column(Text)
    uid11 = Column(UID11)
    timeid = Column(TimeID)
    ulidflake = Column(ULIDFlake)
    euid = Column(EUID)
    tickets = relationship("Ticket", back_populates="event")


class Ticket(Base):
    __tablename__ = "sa_tickets"
    id = Column(ULID, primary_key=True, server_default=func.generate_ulid())
    event_id = Column(ULID, ForeignKey("sa_events.id"), nullable=False)
    event = relationship(Event, back_populates="tickets")


def explain(conn, stmt):
    """EXPLAIN of the statement as this dialect compiles it, with its parameters."""
    compiled = stmt.compile(dialect=conn.dialect)
    params = compiled.params
    if conn.dialect.positional:
        params = tuple(params[name] for name in compiled.positiontup)
    return [row[0] for row in conn.exec_driver_sql("EXPLAIN " + str(compiled), params)]


def run(conn):
    Base.metadata.drop_all(conn)
    Base.metadata.create_all(conn)
    conn.commit()
    types = dict(conn.execute(text(
        "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute"
        " WHERE attrelid = 'sa_events'::regclass AND attnum > 0")).all())
    check(types.get("id") == "ulid" and types.get("uid11") == "uid11" and types.get("timeid") == "timeid"
          and types.get("ulidflake") == "ulidflake" and types.get("euid") == "euid",
          "%s: create_all() makes columns of the five types" % label, types)

    # Insert with the server's default; the key comes back (RETURNING) as str.
    gen = conn.execute(text("SELECT generate_uid11()::text, generate_tid()::text,"
                            " generate_ulidflake()::text, generate_euid()::text")).one()
    conn.commit()
    with Session(bind=conn, future=True) as session:
        event = Event(name="first", uid11=gen[0], timeid=gen[1], ulidflake=gen[2], euid=gen[3])
        session.add(event)
        session.commit()
        key = event.id
        check(isinstance(key, str) and len(key) == 26, "%s: insert returns the generated ulid as str" % label, repr(key))
        session.add(Ticket(event_id=key))
        session.commit()
    with Session(bind=conn, future=True) as session:
        got = session.get(Event, key)
        check(got is not None and got.name == "first", "%s: session.get() by the string key after commit()" % label)
        check(got is not None and (got.uid11, got.timeid, got.ulidflake, got.euid) == tuple(gen),
              "%s: uid11, timeid, ulidflake and euid values round-trip as str" % label,
              got and (got.uid11, got.timeid, got.ulidflake, got.euid))
        got = session.get(Event, key.lower())
        check(got is not None and got.id == key, "%s: session.get() by the key in lower case" % label)
        back = session.execute(select(literal(key.lower(), ULID()))).scalar_one()
        check(back == key, "%s: a bound value is read as ulid (lower case in, canonical out)" % label, back)
        sql = str(select(Event).where(Event.id == key).compile(dialect=conn.dialect))
        check("VARCHAR" not in sql and "AS ulid" in sql, "%s: the key is bound as ulid, not VARCHAR" % label, sql)
        joined = session.execute(select(Ticket.id, Event.name).join(Ticket.event).where(Event.id == key)).all()
        check(len(joined) == 1 and joined[0][1] == "first", "%s: FK join Ticket -> Event by a ulid key" % label, joined)
        ticket = session.scalars(select(Ticket).where(Ticket.event_id == key)).one()
        check(ticket.event.id == key and ticket.event.tickets == [ticket],
              "%s: relationship() loads both ways over the ulid FK" % label)

    # 48 events an hour apart from 2026-03-01 00:00 UTC, ids made at those times.
    conn.execute(text("INSERT INTO sa_events (id, name) SELECT generate_ulid_at("
                      "timestamptz '2026-03-01 00:00+00' + i * interval '1 hour'), 'h' || i"
                      " FROM generate_series(0, 47) i"))
    conn.execute(text("ANALYZE sa_events"))
    conn.commit()
    conn.execute(text("SET enable_seqscan = off"))
    prefix = conn.execute(text("SELECT left(id::text, 8) FROM sa_events WHERE name = 'h20'")).scalar_one()
    want = set(conn.execute(text("SELECT name FROM sa_events WHERE id::text LIKE :p || '%'"), {"p": prefix}).scalars())
    with Session(bind=conn, future=True) as session:
        stmt = select(Event.name).where(Event.id.prefix(prefix))
        names = attempt("%s: .prefix()" % label, lambda: set(session.scalars(stmt)))
        if names is not None:
            check(names == want and "h20" in names, "%s: .prefix(%r) returns the rows that start with it" % (label, prefix), names)
            plan = explain(conn, stmt)
            check(plan_uses_index(plan), "%s: .prefix() is an index scan" % label, plan)

        lo = dt.datetime(2026, 3, 1, 10, tzinfo=UTC)
        hi = dt.datetime(2026, 3, 1, 20, tzinfo=UTC)
        stmt = select(Event.name).where(Event.id.in_time_range(lo, hi))
        names = attempt("%s: .in_time_range()" % label, lambda: set(session.scalars(stmt)))
        if names is not None:
            check(names == {"h%d" % i for i in range(10, 20)}, "%s: .in_time_range() returns the rows of [10:00, 20:00)" % label, names)
            plan = explain(conn, stmt)
            check(plan_uses_index(plan), "%s: .in_time_range() is an index scan" % label, plan)

        # Needs the extension's LIKE on the types (`operator does not exist: ulid ~~ ...` without it).
        stmt = select(Event.name).where(Event.id.startswith(prefix))
        names = None
        if not has_like(lambda q: conn.execute(text(q)).scalar_one()):
            skip("%s: .startswith(), 2 checks %s" % (label, LIKE_SKIP))
        else:
            names = attempt("%s: .startswith() [LIKE]" % label, lambda: set(session.scalars(stmt)))
        if names is not None:
            check(names == want, "%s: .startswith(%r) returns the rows that start with it [LIKE]" % (label, prefix), names)
            plan = explain(conn, stmt)
            check(plan_uses_index(plan), "%s: .startswith() is an index scan [LIKE]" % label, plan)
        session.rollback()
    conn.rollback()

    # Reflection: our types, no NullType (whose warning is an error here).
    reflected = attempt("%s: reflection" % label, lambda: Table("sa_events", MetaData(), autoload_with=conn))
    if reflected is not None:
        kinds = {c.name: type(c.type).__name__ for c in reflected.columns}
        check(kinds.get("id") == "ULID" and kinds.get("uid11") == "UID11" and kinds.get("timeid") == "TimeID"
              and kinds.get("ulidflake") == "ULIDFlake" and kinds.get("euid") == "EUID",
              "%s: a reflected table's columns are ULID, UID11, TimeID, ULIDFlake, EUID" % label, kinds)
        row = attempt("%s: query on the reflected table" % label,
                      lambda: conn.execute(select(reflected.c.name).where(reflected.c.id == key)).one_or_none())
        check(row is not None and row[0] == "first", "%s: the reflected table finds a row by a string key" % label, row)
        columns = inspect(conn).get_columns("sa_tickets")
        check({c["name"]: type(c["type"]).__name__ for c in columns} == {"id": "ULID", "event_id": "ULID"},
              "%s: inspect().get_columns() gives ULID for the key and the FK" % label)
    conn.rollback()

    # docs/orms.md's pitfall 1: the same column mapped as String binds $1::VARCHAR with psycopg 3
    # and asyncpg (SQLAlchemy 2.0), which the server cannot compare with a ulid.
    if int(sa.__version__.split(".")[0]) >= 2 and not driver.endswith("psycopg2"):
        plain = Table("sa_events", MetaData(), Column("id", sa.String, primary_key=True), Column("name", Text))
        try:
            conn.execute(select(plain.c.name).where(plain.c.id == key)).all()
            check(False, "%s: a String mapping of the key fails as docs/orms.md says" % label, "it worked")
        except sa.exc.DBAPIError as error:
            check("ulid = character varying" in str(error),
                  "%s: a String mapping of the key fails as docs/orms.md says" % label, str(error).splitlines()[0])
        conn.rollback()


if driver.endswith("asyncpg"):
    from sqlalchemy.ext.asyncio import create_async_engine

    async def main():
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                await conn.run_sync(run)
        finally:
            await engine.dispose()

    attempt("%s: the checks ran" % label, asyncio.run, main())
else:
    engine = sa.create_engine(url, future=True)
    try:
        with engine.connect() as connection:
            attempt("%s: the checks ran" % label, run, connection)
    finally:
        engine.dispose()
finish()
