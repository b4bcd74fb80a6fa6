"""The binary wire format of the five types, to and from their canonical text (shared by the drivers).

On the wire uid11, timeid and ulidflake are 8 big-endian bytes (the value as an unsigned 64-bit
integer), ulid and euid 16 big-endian bytes. ``decode(name, data)`` makes the text the server's
output function makes; ``encode(name, text)`` reads what the server's input function reads (upper
or lower case where the type allows it, euid's aliases and unchecked check symbol, timeid's
dashed display form) and raises ``ValueError`` for what it rejects.
"""

from typing import Callable, Dict, Tuple

__all__ = ["decode", "encode", "BINARY_LENGTH"]

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_SORTABLE32 = "234567abcdefghijklmnopqrstuvwxyz"
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

_MAX64 = (1 << 64) - 1
_MAX63 = (1 << 63) - 1

BINARY_LENGTH: Dict[str, int] = {"uid11": 8, "timeid": 8, "ulidflake": 8, "ulid": 16, "euid": 16}


def _digits(value: int, alphabet: str, base: int, width: int) -> str:
    out = []
    for _ in range(width):
        value, d = divmod(value, base)
        out.append(alphabet[d])
    return "".join(reversed(out))


def _number(text: str, table: Dict[str, int], base: int, name: str) -> int:
    value = 0
    for ch in text:
        d = table.get(ch)
        if d is None:
            raise ValueError("invalid input syntax for type %s: %r" % (name, text))
        value = value * base + d
    return value


def _table(alphabet: str, fold: bool) -> Dict[str, int]:
    t = {ch: i for i, ch in enumerate(alphabet)}
    if fold:
        t.update({ch.lower(): i for i, ch in enumerate(alphabet)})
    return t


_B58 = _table(_BASE58, False)
_S32 = _table(_SORTABLE32, False)
_C32 = _table(_CROCKFORD, True)
_C32_EUID = dict(_C32, I=1, i=1, L=1, l=1, O=0, o=0)


def _euid_check(value: int) -> int:
    return value % 127


def _text_uid11(v: int) -> str:
    return _digits(v, _BASE58, 58, 11)


def _text_timeid(v: int) -> str:
    return _digits(v, _SORTABLE32, 32, 13)


def _text_ulidflake(v: int) -> str:
    return _digits(v, _CROCKFORD, 32, 13)


def _text_ulid(v: int) -> str:
    return _digits(v, _CROCKFORD, 32, 26)


def _text_euid(v: int) -> str:
    return _digits((v << 7) | _euid_check(v), _CROCKFORD, 32, 27)


def _value_uid11(text: str) -> int:
    if len(text) != 11:
        raise ValueError("invalid input syntax for type uid11: %r (11 Base58 symbols)" % text)
    v = _number(text, _B58, 58, "uid11")
    if v > _MAX64:
        raise ValueError("value out of range for type uid11: %r" % text)
    return v


def _value_timeid(text: str) -> int:
    if "-" in text:
        # The display form STTT-TTT-TTTT-CC: dashes after the 4th, 7th and 11th symbols.
        if len(text) != 16 or text[4] != "-" or text[8] != "-" or text[13] != "-" or text.count("-") != 3:
            raise ValueError("invalid input syntax for type timeid: %r" % text)
        text = text.replace("-", "")
    if len(text) != 13:
        raise ValueError("invalid input syntax for type timeid: %r (13 symbols)" % text)
    v = _number(text, _S32, 32, "timeid")
    if v > _MAX63:
        raise ValueError("value out of range for type timeid: %r" % text)
    return v


def _value_ulidflake(text: str) -> int:
    if len(text) != 13:
        raise ValueError("invalid input syntax for type ulidflake: %r (13 symbols)" % text)
    v = _number(text, _C32, 32, "ulidflake")
    if v > _MAX63:
        raise ValueError("value out of range for type ulidflake: %r" % text)
    return v


def _value_ulid(text: str) -> int:
    if len(text) != 26:
        raise ValueError("invalid input syntax for type ulid: %r (26 symbols)" % text)
    v = _number(text, _C32, 32, "ulid")
    if v >> 128:
        raise ValueError("value out of range for type ulid: %r" % text)
    return v


def _value_euid(text: str) -> int:
    if len(text) != 27:
        raise ValueError("invalid input syntax for type euid: %r (27 symbols)" % text)
    n = _number(text, _C32_EUID, 32, "euid")
    v, check = n >> 7, n & 127
    if check != 127 and check != _euid_check(v):
        raise ValueError("invalid input syntax for type euid: %r (the check symbol does not match the value)" % text)
    return v


_CODECS: Dict[str, Tuple[Callable[[int], str], Callable[[str], int]]] = {
    "uid11": (_text_uid11, _value_uid11),
    "timeid": (_text_timeid, _value_timeid),
    "ulidflake": (_text_ulidflake, _value_ulidflake),
    "ulid": (_text_ulid, _value_ulid),
    "euid": (_text_euid, _value_euid),
}


def decode(name: str, data: bytes) -> str:
    """The canonical text of a value of type ``name`` from its binary wire format."""
    if len(data) != BINARY_LENGTH[name]:
        raise ValueError("%s: %d bytes, expected %d" % (name, len(data), BINARY_LENGTH[name]))
    return _CODECS[name][0](int.from_bytes(data, "big"))


def encode(name: str, text: str) -> bytes:
    """The binary wire format of a value of type ``name`` from its text (as the server reads it)."""
    return _CODECS[name][1](text).to_bytes(BINARY_LENGTH[name], "big")
