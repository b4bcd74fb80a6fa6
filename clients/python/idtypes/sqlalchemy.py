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
- Comparators: ``col.prefix(p)`` is ``col ^@ p`` and ``col.in_time_range(lo, hi)`` is
  ``col <@ <type>_time_range(tstzrange(lo, hi))``: both use a btree index on the column. The
  pattern operators (``like``, ``startswith``, ...) bind their pattern as text, for the
  extension's ``LIKE`` on the types.
"""

from sqlalchemy import cast, func, literal
from sqlalchemy.dialects.postgresql import base as _pg_base
from sqlalchemy.sql import operators as _operators
from sqlalchemy.types import Boolean, DateTime, Text, UserDefinedType

import idtypes as _idtypes

__all__ = ["UID11", "TimeID", "ULIDFlake", "ULID", "EUID", "IDType"]

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


def _as_text(value):
    """A plain Python value as a text-typed bind; a SQL expression as it is."""
    if hasattr(value, "__clause_element__") or hasattr(value, "_from_objects"):
        return value
    return literal(value, Text())


class IDType(UserDefinedType):
    """Base of the five idtypes column types; ``type_name`` is the SQL type."""

    type_name = None
    # SQLAlchemy 1.4 reads cache_ok from each class's own attributes: the subclasses repeat it.
    cache_ok = True
    def get_col_spec(self, **kw):
        return self.type_name

    def bind_expression(self, bindvalue):
        # CAST(%(id)s AS ulid): the server reads the parameter as the type, whatever the driver
        # sends (a value in any accepted spelling compares and comes back canonical).
        return cast(bindvalue, self)

    @property
    def python_type(self):
        return str

    def literal_processor(self, dialect):
        def process(value):
            return "'%s'" % str(value).replace("'", "''")

        return process

    class comparator_factory(UserDefinedType.Comparator):
        def operate(self, op, *other, **kwargs):
            # A pattern is text (`01M8%` is no ID): bind it so, not as the column's type.
            if op in _PATTERN_OPS:
                other = tuple(_as_text(o) for o in other)
            return super().operate(op, *other, **kwargs)

        def prefix(self, prefix):
            """``col ^@ prefix``: the ID's canonical text starts with ``prefix``."""
            return self.expr.op("^@", is_comparison=True)(_as_text(prefix))

        def in_time_range(self, lo, hi, bounds="[)"):
            """``col <@ <type>_time_range(tstzrange(lo, hi, bounds))``: the IDs made in [lo, hi).

            ``lo`` and ``hi`` are datetimes (None for an open end); ``bounds`` as tstzrange's.
            """
            ts = DateTime(timezone=True)
            window = func.tstzrange(_bound(lo, ts), _bound(hi, ts), literal(bounds, Text()))
            ranged = getattr(func, self.type.type_name + "_time_range")(window)
            return self.expr.op("<@", is_comparison=True, return_type=Boolean)(ranged)


def _bound(value, type_):
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
