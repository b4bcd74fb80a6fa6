"""asyncpg: ``await register_types(conn)`` reads the ID types, and their arrays, as str.

asyncpg has no codec for the extension's types: without one it reads them as text already, and
an array as a list of them. The registration sets the text codec explicitly (so a value also
writes from a str in a prepared statement) and finds the types wherever the extension is:

    import asyncpg
    from idtypes.asyncpg import register_types

    conn = await asyncpg.connect()
    await register_types(conn)
    # a pool: asyncpg.create_pool(..., init=register_types)
"""

from typing import Any, List

from idtypes._lookup import TYPES_QUERY, TypeRow

__all__ = ["register_types"]


def _same(value: str) -> str:
    return value


async def register_types(conn: Any) -> List[TypeRow]:
    """Sets a text codec (str in, str out) for each of the five types found in the connection's
    database; returns their (schema, name, oid, array oid) rows (none where the extension is not created)."""
    rows: List[TypeRow] = [(r[0], r[1], r[2], r[3]) for r in await conn.fetch(TYPES_QUERY)]
    for schema, name, _oid, _array_oid in rows:
        await conn.set_type_codec(name, schema=schema, encoder=_same, decoder=_same, format="text")
    return rows
