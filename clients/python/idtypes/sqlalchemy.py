"""SQLAlchemy column types for the idtypes PostgreSQL extension (SQLAlchemy 1.4 and 2.0).

``UID11``, ``TimeID``, ``ULIDFlake``, ``ULID`` and ``EUID`` map the five SQL types. Values are
``str`` in the type's canonical text.

- DDL names the SQL type (``id ulid``).
- A parameter is bound as the column's type, ``CAST(%(id)s AS ulid)``, with every driver: not
  as the ``$1::VARCHAR`` a ``String`` column gets from psycopg 3 and asyncpg, which PostgreSQL
  cannot compare with a ``ulid`` (``operator does not exist: ulid = character varying``).
- Importing this module registers the five names with the PostgreSQL dialect, so reflection
  (``Table(..., autoload_with=engine)``, ``inspect(engine).get_columns()``) returns these types
  instead of ``NullType``.
- Arrays: ``ARRAY(ULID)`` etc. read as lists of ``str`` once the driver knows the array types:
  ``register_types(engine)`` registers them on each new connection (psycopg2, psycopg 3,
  asyncpg). Without it psycopg2 and psycopg 3 return an array's text, which ``ARRAY`` splits
  into its characters.
- Comparators: ``col.prefix(p)`` is ``col ^@ p`` and ``col.in_time_range(lo, hi)`` is
  ``col <@ <type>_time_range(tstzrange(lo, hi))``: both use a btree index on the column. The
  pattern operators (``like``, ``startswith``, ...) bind their pattern as text, for the
  extension's ``LIKE`` on the types.
"""

from typing import Any, Callable

from sqlalchemy import cast, event, func, literal
from sqlalchemy.dialects.postgresql import base as _pg_base
from sqlalchemy.sql import operators as _operators
from sqlalchemy.types import Boolean, DateTime, Text, UserDefinedType

import idtypes as _idtypes

__all__ = ["UID11", "TimeID", "ULIDFlake", "ULID", "EUID", "IDType", "register_types"]

# The pattern operators, by name: SQLAlchemy 1.4 lacks the case-insensitive starts/ends/contains.
_PATTERN_OPS = frozenset(
    getattr(_operators, name)
    for name in (
        "like_op", "not_like_op", "notlike_op", "ilike_op", "not_ilike_op", "notilike_op",
        "startswith_op", "not_startswith_op", "notstartswith_op", "istartswith_op",
        "not_istartswith_op", "endswith_op", "not_endswith_op", "notendswith_op",
        "iendswith_op", "not_iendswith_op", "contains_op", "not_contains_op", "notcontains_op",
        "icontains_op", "not_icontains_op",
    )
    if hasattr(_operators, name)
)


def _as_text(value: Any) -> Any:
    """A plain Python value as a text-typed bind; a SQL expression as it is."""
    if hasattr(value, "__clause_element__") or hasattr(value, "_from_objects"):
        return value
    return literal(value, Text())


# SQLAlchemy 1.4 has no type information (Any here), 2.0 has: one spelling for both.
_Comparator: Any = getattr(UserDefinedType, "Comparator")


class IDType(UserDefinedType):
    """Base of the five idtypes column types; ``type_name`` is the SQL type."""

    type_name: str = ""
    # SQLAlchemy 1.4 reads cache_ok from each class's own attributes: the subclasses repeat it.
    cache_ok = True
    def get_col_spec(self, **kw: Any) -> str:
        return self.type_name

    def bind_expression(self, bindvalue: Any) -> Any:
        # CAST(%(id)s AS ulid): the server reads the parameter as the type, whatever the driver
        # sends (a value in any accepted spelling compares and comes back canonical).
        return cast(bindvalue, self)

    @property
    def python_type(self) -> type:
        return str

    def literal_processor(self, dialect: Any) -> Callable[[Any], str]:
        def process(value: Any) -> str:
            return "'%s'" % str(value).replace("'", "''")

        return process

    class comparator_factory(_Comparator):
        def operate(self, op: Any, *other: Any, **kwargs: Any) -> Any:
            # A pattern is text (`01M8%` is no ID): bind it so, not as the column's type.
            if op in _PATTERN_OPS:
                other = tuple(_as_text(o) for o in other)
            return super().operate(op, *other, **kwargs)

        def prefix(self, prefix: Any) -> Any:
            """``col ^@ prefix``: the ID's canonical text starts with ``prefix``."""
            return self.expr.op("^@", is_comparison=True)(_as_text(prefix))

        def in_time_range(self, lo: Any, hi: Any, bounds: str = "[)") -> Any:
            """``col <@ <type>_time_range(tstzrange(lo, hi, bounds))``: the IDs made in [lo, hi).

            ``lo`` and ``hi`` are datetimes (None for an open end); ``bounds`` as tstzrange's.
            """
            ts = DateTime(timezone=True)
            window = func.tstzrange(_bound(lo, ts), _bound(hi, ts), literal(bounds, Text()))
            ranged = getattr(func, self.type.type_name + "_time_range")(window)
            return self.expr.op("<@", is_comparison=True, return_type=Boolean)(ranged)


def _bound(value: Any, type_: Any) -> Any:
    if hasattr(value, "__clause_element__") or hasattr(value, "_from_objects"):
        return value
    return literal(value, type_)


class UID11(IDType):
    """``uid11``: 64 bits, 11 Base58 symbols."""

    type_name = "uid11"
    cache_ok = True


class TimeID(IDType):
    """``timeid``: an atproto TID, 64 bits, 13 symbols."""

    type_name = "timeid"
    cache_ok = True


class ULIDFlake(IDType):
    """``ulidflake``: a ULID-Flake, 64 bits, 13 Crockford symbols."""

    type_name = "ulidflake"
    cache_ok = True


class ULID(IDType):
    """``ulid``: a ULID, 128 bits, 26 Crockford symbols."""

    type_name = "ulid"
    cache_ok = True


class EUID(IDType):
    """``euid``: an EUID, 128 bits, 27 Crockford symbols (check symbol included)."""

    type_name = "euid"
    cache_ok = True


TYPES = {cls.type_name: cls for cls in (UID11, TimeID, ULIDFlake, ULID, EUID)}
assert set(TYPES) == set(_idtypes.TYPE_NAMES)

# Reflection: the PostgreSQL dialect looks column types up by name here.
_pg_base.ischema_names.update(TYPES)


def _register_connection(driver: str, dbapi_connection: Any) -> None:
    if driver == "psycopg2":
        from idtypes.psycopg2 import register_types as register_psycopg2

        register_psycopg2(dbapi_connection)
    elif driver == "psycopg" and hasattr(dbapi_connection, "run_async"):
        from idtypes.psycopg import register_types_async

        # create_async_engine("postgresql+psycopg://"): the adapted connection runs it.
        dbapi_connection.run_async(register_types_async)
    elif driver == "psycopg":
        from idtypes.psycopg import register_types as register

        register(dbapi_connection)
    elif driver == "asyncpg":
        from idtypes.asyncpg import register_types as register_async

        dbapi_connection.run_async(register_async)
    else:
        raise ValueError("idtypes: register_types knows psycopg2, psycopg and asyncpg, not %r" % driver)


def register_types(engine: Any) -> Any:
    """Registers the ID types and their arrays with the driver of each new connection of
    ``engine`` (an ``Engine`` or an ``AsyncEngine``), so ``ARRAY(ULID)`` reads as a list of str.
    Call it before the engine's first connection. Returns the engine."""
    sync_engine = getattr(engine, "sync_engine", engine)
    driver = sync_engine.dialect.driver

    def _on_connect(dbapi_connection: Any, connection_record: Any) -> None:
        _register_connection(driver, dbapi_connection)

    event.listen(sync_engine, "connect", _on_connect)

    return engine
