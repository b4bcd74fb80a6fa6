#!/usr/bin/env python3
"""Alembic autogenerate with idtypes.sqlalchemy: alembic_check.py <SQLAlchemy URL>.

A model with a column of each type (keys and defaults from the generators, a ForeignKey, an
ARRAY(ULID)) against an empty database: autogenerate's operations, rendered as a migration's
upgrade() is (Alembic's renderer, as `alembic revision --autogenerate` uses it), name our types (idtypes.sqlalchemy.ULID()
...) and run (the code executed with Alembic's op, as a migration file would be); the
tables then have the types, and a second autogenerate against the migrated database finds
nothing to do (reflection gives our types back, compare_type on).
"""
import sys

import alembic
import sqlalchemy as sa
from alembic.autogenerate import produce_migrations, render
from alembic.autogenerate.api import AutogenContext
from alembic.migration import MigrationContext
from alembic.operations import Operations
from sqlalchemy import Column, ForeignKey, MetaData, Table, Text, func
from sqlalchemy.dialects.postgresql import ARRAY

import idtypes.sqlalchemy
from checks import check, finish
from idtypes.sqlalchemy import EUID, ULID, UID11, TimeID, ULIDFlake

label = "Alembic %s, SQLAlchemy %s" % (alembic.__version__, sa.__version__)
metadata = MetaData()
Table("al_events", metadata,
      Column("id", ULID, primary_key=True, server_default=func.generate_ulid()),
      Column("tid", TimeID, server_default=func.generate_tid()),
      Column("u11", UID11, server_default=func.generate_xid()),
      Column("flake", ULIDFlake),
      Column("eu", EUID),
      Column("related", ARRAY(ULID)),
      Column("name", Text))
Table("al_tickets", metadata,
      Column("id", UID11, primary_key=True, server_default=func.generate_xid()),
      Column("event_id", ULID, ForeignKey("al_events.id"), nullable=False))



def render_upgrade(context, ops):
    """The body of upgrade() as `alembic revision --autogenerate` writes it (its renderer, with the
    options of a migration environment: types of other modules by their module path)."""
    autogen = AutogenContext(context, opts={
        "sqlalchemy_module_prefix": "sa.", "alembic_module_prefix": "op.", "user_module_prefix": None,
        "render_item": None, "render_as_batch": False})
    return render._indent(render._render_cmd_body(ops, autogen))


engine = sa.create_engine(sys.argv[1])
opts = {"compare_type": True, "compare_server_default": False, "user_module_prefix": None}
with engine.begin() as conn:
    context = MigrationContext.configure(conn, opts=opts)
    script = produce_migrations(context, metadata)
    code = render_upgrade(context, script.upgrade_ops)
    print("    " + "\n    ".join(code.splitlines()))
    check("idtypes.sqlalchemy.ULID()" in code and "idtypes.sqlalchemy.TimeID()" in code
          and "idtypes.sqlalchemy.UID11()" in code and "idtypes.sqlalchemy.EUID()" in code
          and "postgresql.ARRAY(idtypes.sqlalchemy.ULID())" in code,
          "%s: autogenerate names the types (idtypes.sqlalchemy.ULID() ...)" % label)
    # The migration file's upgrade(): its imports, then the rendered operations.
    namespace = {"op": Operations(context), "sa": sa, "idtypes": idtypes,
                 "postgresql": sa.dialects.postgresql}
    exec(compile("def upgrade():\n" + code, "<migration>", "exec"), namespace)
    namespace["upgrade"]()
    types = conn.execute(sa.text(
        "SELECT attrelid::regclass || '.' || attname || ' ' || format_type(atttypid, atttypmod) FROM pg_attribute"
        " WHERE attrelid IN ('al_events'::regclass, 'al_tickets'::regclass) AND attnum > 0 AND atttypid <> 'text'::regtype"
        " ORDER BY 1")).scalars().all()
    check(types == ["al_events.eu euid", "al_events.flake ulidflake", "al_events.id ulid", "al_events.related ulid[]",
                    "al_events.tid timeid", "al_events.u11 uid11", "al_tickets.event_id ulid", "al_tickets.id uid11"],
          "%s: the migration applies and makes the columns our types" % label, repr(types))
    key = conn.execute(sa.text("INSERT INTO al_events (name) VALUES ('a') RETURNING id")).scalar_one()
    check(isinstance(key, str) and len(key) == 26, "%s: the migrated key has its default" % label, repr(key))
with engine.begin() as conn:
    again = produce_migrations(MigrationContext.configure(conn, opts=opts), metadata).upgrade_ops
    check(again.is_empty(), "%s: a second autogenerate finds nothing to do" % label,
          repr(again.as_diffs()))
finish()
