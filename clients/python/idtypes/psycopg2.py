"""psycopg2: ``register_types(conn)`` makes the arrays of the ID types read as lists of str.

Without it a ``ulid[]`` value reads as its text, ``'{01M8...,01M8...}'`` (and SQLAlchemy's
``ARRAY(ULID)`` then makes a list of its characters). The ID types themselves read as ``str``
with or without it.

    import psycopg2
    from idtypes.psycopg2 import register_types

    conn = psycopg2.connect("")
    register_types(conn)          # this connection only; register_types(conn, globally=True): all
"""

from typing import Any, List, Optional

import psycopg2.extensions as _ext

from idtypes._lookup import TYPES_QUERY, TypeRow

__all__ = ["register_types"]


def _as_str(value: Optional[str], cursor: Any) -> Optional[str]:
    return value


def register_types(conn_or_cursor: Any, globally: bool = False) -> List[TypeRow]:
    """Registers the five types and their arrays with a psycopg2 connection or cursor (with all
    connections if ``globally``). Returns the (schema, name, oid, array oid) rows found: none where the
    extension is not created."""
    conn = conn_or_cursor.connection if hasattr(conn_or_cursor, "connection") else conn_or_cursor
    idle = conn.status == _ext.STATUS_READY
    with conn.cursor() as cur:
        cur.execute(TYPES_QUERY)
        rows = cur.fetchall()
    if idle and not conn.autocommit:
        conn.rollback()
    scope = None if globally else conn_or_cursor
    for _schema, name, oid, array_oid in rows:
        base = _ext.new_type((oid,), name.upper(), _as_str)
        _ext.register_type(base, scope)
        _ext.register_type(_ext.new_array_type((array_oid,), name.upper() + "ARRAY", base), scope)
    return rows

