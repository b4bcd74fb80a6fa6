"""asyncpg: ``await register_types(conn)`` reads and writes the ID types, and their arrays, as str.

asyncpg has no codec for the extension's types: without one it reads them as text already, and
an array as a list of them. The registration sets a codec for each type, found wherever the
extension is, so that a value also writes from a str in a prepared statement. By default the
codec is binary (the 8 or 16 bytes on the wire, converted to and from the canonical text, as
asyncpg does for its own types); ``format="text"`` lets the server convert:

    import asyncpg
    from idtypes.asyncpg import register_types

    conn = await asyncpg.connect()
    await register_types(conn)
    # a pool: asyncpg.create_pool(..., init=register_types)
"""

from functools import partial
from typing import Any, List

from idtypes._binary import decode, encode
from idtypes._lookup import TYPES_QUERY, TypeRow

__all__ = ["register_types"]


def _same(value: str) -> str:
    return value


def _decode(name: str, data: bytes) -> str:
    return decode(name, data)


def _encode(name: str, text: str) -> bytes:
    return encode(name, text)


async def register_types(conn: Any, format: str = "binary") -> List[TypeRow]:
    """Sets a codec (str in, str out) for each of the five types found in the connection's
    database, in ``format`` ("binary", the default, or "text"); returns their (schema, name, oid,
    array oid) rows (none where the extension is not created)."""
    if format not in ("binary", "text"):
        raise ValueError("format must be 'binary' or 'text', not %r" % (format,))
    rows: List[TypeRow] = [(r[0], r[1], r[2], r[3]) for r in await conn.fetch(TYPES_QUERY)]
    for schema, name, _oid, _array_oid in rows:
        if format == "binary":
            await conn.set_type_codec(name, schema=schema, encoder=partial(_encode, name),
                                      decoder=partial(_decode, name), format="binary")
        else:
            await conn.set_type_codec(name, schema=schema, encoder=_same, decoder=_same, format="text")
    return rows
