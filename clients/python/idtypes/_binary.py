"""The binary wire format of the five types, to and from their canonical text (shared by the drivers).

On the wire uid11, timeid and ulidflake are 8 big-endian bytes (the value as an unsigned 64-bit
integer), ulid and euid 16 big-endian bytes. ``decode(name, data)`` makes the text the server's
output function makes; ``encode(name, text)`` reads what the server's input function reads (upper
or lower case where the type allows it, euid's aliases and unchecked check symbol, timeid's
dashed display form) and raises ``ValueError`` for what it rejects.
"""

from typing import Dict, NamedTuple

__all__ = ["decode", "encode", "BINARY_LENGTH"]

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_SORTABLE32 = "234567abcdefghijklmnopqrstuvwxyz"
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def _table(alphabet: str, fold: bool) -> Dict[str, int]:
    t = {ch: i for i, ch in enumerate(alphabet)}
    if fold:
        t.update({ch.lower(): i for i, ch in enumerate(alphabet)})
    return t


class _Layout(NamedTuple):
    alphabet: str  # the symbols, in the order of their values
    read: Dict[str, int]  # the symbols the input function reads, with their values
    symbols: int  # the text's length
    nbytes: int  # the binary format's length
    limit: int  # the largest value
    what: str  # the symbols, for messages


_C32 = _table(_CROCKFORD, True)
_LAYOUTS: Dict[str, _Layout] = {
    "uid11": _Layout(_BASE58, _table(_BASE58, False), 11, 8, (1 << 64) - 1, "Base58 symbols"),
    "timeid": _Layout(_SORTABLE32, _table(_SORTABLE32, False), 13, 8, (1 << 63) - 1, "symbols"),
    "ulidflake": _Layout(_CROCKFORD, _C32, 13, 8, (1 << 63) - 1, "symbols"),
    "ulid": _Layout(_CROCKFORD, _C32, 26, 16, (1 << 128) - 1, "symbols"),
    # 27 symbols: the 128 bits, then 7 bits of check (127: unchecked); I and L read as 1, O as 0.
    "euid": _Layout(_CROCKFORD, dict(_C32, I=1, i=1, L=1, l=1, O=0, o=0), 27, 16, (1 << 128) - 1, "symbols"),
}

BINARY_LENGTH: Dict[str, int] = {name: layout.nbytes for name, layout in _LAYOUTS.items()}


def _euid_check(value: int) -> int:
    return value % 127


def _text(name: str, value: int) -> str:
    layout = _LAYOUTS[name]
    if name == "euid":
        value = (value << 7) | _euid_check(value)
    base = len(layout.alphabet)
    out = []
    for _ in range(layout.symbols):
        value, d = divmod(value, base)
        out.append(layout.alphabet[d])
    return "".join(reversed(out))


def _value(name: str, text: str) -> int:
    layout = _LAYOUTS[name]
    if name == "timeid" and "-" in text:
        # The display form STTT-TTT-TTTT-CC: dashes after the 4th, 7th and 11th symbols.
        if len(text) != 16 or text[4] != "-" or text[8] != "-" or text[13] != "-" or text.count("-") != 3:
            raise ValueError("invalid input syntax for type timeid: %r" % text)
        text = text.replace("-", "")
    if len(text) != layout.symbols:
        raise ValueError("invalid input syntax for type %s: %r (%d %s)" % (name, text, layout.symbols, layout.what))
    base = len(layout.alphabet)
    value = 0
    for ch in text:
        d = layout.read.get(ch)
        if d is None:
            raise ValueError("invalid input syntax for type %s: %r" % (name, text))
        value = value * base + d
    if name == "euid":
        value, check = value >> 7, value & 127
        if check != 127 and check != _euid_check(value):
            raise ValueError(
                "invalid input syntax for type euid: %r (the check symbol does not match the value)" % text
            )
    elif value > layout.limit:
        raise ValueError("value out of range for type %s: %r" % (name, text))
    return value


def decode(name: str, data: bytes) -> str:
    """The canonical text of a value of type ``name`` from its binary wire format."""
    if len(data) != BINARY_LENGTH[name]:
        raise ValueError("%s: %d bytes, expected %d" % (name, len(data), BINARY_LENGTH[name]))
    return _text(name, int.from_bytes(data, "big"))


def encode(name: str, text: str) -> bytes:
    """The binary wire format of a value of type ``name`` from its text (as the server reads it)."""
    return _value(name, text).to_bytes(BINARY_LENGTH[name], "big")
