"""psycopg 3: ``register_types(conn)`` makes the arrays of the ID types read as lists of str.

Without it a ``ulid[]`` value reads as its text, ``'{01M8...,01M8...}'``. The ID types
themselves read as ``str`` in text format with or without it. Binary format is not handled: a
query with ``binary=True`` reads an ID as its bytes, as before.

    import psycopg
    from idtypes.psycopg import register_types

    conn = psycopg.connect()
    register_types(conn)          # or a cursor: the registration is that context's
    conn.execute("SELECT ARRAY[generate_ulid()]").fetchone()[0]   # ['01M8...']

A list parameter is written as an array of unknown type, so ``%s::ulid[]`` (or a column of that
type as the target) reads it as IDs.
"""

from typing import Any, List

from psycopg.pq import TransactionStatus
from psycopg.types import TypeInfo

from idtypes._lookup import TYPES_QUERY, TypeRow

__all__ = ["register_types"]


def register_types(context: Any) -> List[TypeRow]:
    """Registers the five types and their arrays with a psycopg 3 connection or cursor (sync or
    async connections: an async one with ``await register_types_async(conn)``).

    Returns the (schema, name, oid, array oid) rows found: none where the extension is not created.
    """
    conn = context.connection if hasattr(context, "connection") else context
    idle = conn.info.transaction_status == TransactionStatus.IDLE
    rows: List[TypeRow] = conn.execute(TYPES_QUERY).fetchall()
    if idle and not conn.autocommit:
        # The query opened a transaction: close it, as the connection was.
        conn.rollback()
    _register_rows(rows, context)
    return rows


async def register_types_async(context: Any) -> List[TypeRow]:
    """``register_types`` for a ``psycopg.AsyncConnection`` (or its cursor)."""
    conn = context.connection if hasattr(context, "connection") else context
    idle = conn.info.transaction_status == TransactionStatus.IDLE
    cur = await conn.execute(TYPES_QUERY)
    rows: List[TypeRow] = await cur.fetchall()
    if idle and not conn.autocommit:
        await conn.rollback()
    _register_rows(rows, context)
    return rows


def _register_rows(rows: List[TypeRow], context: Any) -> None:
    for _schema, name, oid, array_oid in rows:
        TypeInfo(name, oid, array_oid).register(context)

