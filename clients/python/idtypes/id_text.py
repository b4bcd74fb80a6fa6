"""The five idtypes formats' text and values in Python: parse, validate, format (idtypes.ids).

Exactly what the extension accepts and writes (docs/formats.md): ``parse_<type>``,
``is_valid_<type>``, ``<type>_timestamp`` and ``format_<type>``, with ``InvalidIdError`` carrying the
server's SQLSTATE. The generators, which make their text with these, are in ``idtypes.ids``.
"""

from datetime import datetime, timedelta, timezone
from typing import Callable, Dict, List, NamedTuple, Optional

# ---- the formats' constants ---------------------------------------------------------------------

XID_EPOCH_MS = 1321009871111        # 2011-11-11T11:11:11.111Z
XID_RANDOM_BITS = 22
XID_MAX_MS = (1 << 42) - 1
TIMEID_MAX_US = (1 << 53) - 1
TIMEID_MAX_AHEAD_US = 1_000_000     # a TID runs at most a second ahead of the clock
ULIDFLAKE_EPOCH_MS = 1704067200000  # 2024-01-01T00:00:00Z
ULIDFLAKE_RANDOM_BITS = 20
ULIDFLAKE_MAX_MS = (1 << 43) - 1
ULID_MAX_MS = (1 << 48) - 1
ULID_FRACTION_BITS = 12
EUID_MAX_MS = (1 << 45) - 1
EUID_NO_CHECK = 127
NODE_ID_BITS = 5
MAX64 = (1 << 64) - 1
MAX63 = (1 << 63) - 1
MAX128 = (1 << 128) - 1

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_SORTABLE = "234567abcdefghijklmnopqrstuvwxyz"
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

_B58_DIGITS = {c: i for i, c in enumerate(_BASE58)}
_SORTABLE_DIGITS = {c: i for i, c in enumerate(_SORTABLE)}
_CROCKFORD_DIGITS = {c: i for i, c in enumerate(_CROCKFORD)}
_CROCKFORD_DIGITS.update({c.lower(): i for i, c in enumerate(_CROCKFORD) if c.isalpha()})
_EUID_DIGITS = dict(_CROCKFORD_DIGITS)
_EUID_DIGITS.update({"I": 1, "i": 1, "L": 1, "l": 1, "O": 0, "o": 0})

# What the server's messages say of each type (its alphabet, length and range).
_SYMBOLS = {
    "uid11": "1-9, A-Z and a-z except I, O and l",
    "timeid": "2-7 and lower-case a-z",
    "ulidflake": "0-9 and A-Z except I, L, O and U, in either case",
    "ulid": "0-9 and A-Z except I, L, O and U, in either case",
    "euid": "0-9 and A-Z except U, in either case (I and L read as 1, O as 0)",
}
_LENGTHS = {
    "uid11": "11 characters",
    "timeid": "13 characters, or 16 with dashes",
    "ulidflake": "13 characters",
    "ulid": "26 characters",
    "euid": "27 characters",
}
_RANGES = {
    "uid11": "The largest uid11 is jpXCZedGfVQ (2^64-1).",
    "timeid": "The first symbol of a timeid is one of 2-7, a and b (the top bit is zero).",
    "ulidflake": "The first symbol of a ulidflake is at most 7 (13 symbols hold 65 bits, a "
                 "ulidflake 63).",
    "ulid": "The first symbol of a ulid is at most 7 (26 symbols hold 130 bits, a ulid 128).",
}

_UTC = timezone.utc
_UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=_UTC)


# ---- errors ---------------------------------------------------------------------------------------

class InvalidIdError(ValueError):
    """Text the server rejects as well. ``sqlstate`` is the server's code for the same text:
    ``22P02`` (malformed: length, symbol, dash, check symbol) or ``22003`` (out of range)."""

    def __init__(self, type_name: str, text: str, detail: str, sqlstate: str) -> None:
        if sqlstate == "22003":
            message = 'value "%s" is out of range for type %s' % (text, type_name)
        else:
            message = 'invalid input syntax for type %s: "%s"' % (type_name, text)
        super().__init__("%s: %s" % (message, detail))
        self.type_name = type_name
        self.text = text
        self.detail = detail
        self.sqlstate = sqlstate


_CHAR_NAMES = {" ": "space", "\t": "tab", "\n": "line feed", "\r": "carriage return"}


def _char(c: str) -> str:
    """A character as the server's messages name it: "K", U+0020 (space), "é" (U+00E9)."""
    o = ord(c)
    if 0x21 <= o <= 0x7E:
        return '"%s"' % c
    if c in _CHAR_NAMES:
        return "U+%04X (%s)" % (o, _CHAR_NAMES[c])
    if o > 0x7F and c.isprintable() and not c.isspace():
        return '"%s" (U+%04X)' % (c, o)
    return "U+%04X" % o


def _symbol_error(type_name: str, text: str, i: int) -> InvalidIdError:
    detail = "The character %s at position %d is not a valid symbol; %s symbols are %s." % (
        _char(text[i]), i + 1, type_name, _SYMBOLS[type_name])
    return InvalidIdError(type_name, text, detail, "22P02")


def _length_error(type_name: str, text: str, table: Dict[str, int]) -> InvalidIdError:
    detail = "Expected %s, got %d" % (_LENGTHS[type_name], len(text))
    for i, c in enumerate(text):
        if c not in table and not (type_name == "timeid" and c == "-"):
            detail += "; the character %s at position %d is not a valid symbol" % (_char(c), i + 1)
            break
    return InvalidIdError(type_name, text, detail + ".", "22P02")


def _dash_error(text: str, i: int) -> InvalidIdError:
    if i in (4, 8, 13):
        detail = ("Expected a dash at position %d, found %s (the display form is "
                  "STTT-TTT-TTTT-CC)." % (i + 1, _char(text[i])))
    else:
        detail = ("The dash at position %d is out of place: dashes go only at positions 5, 9 "
                  "and 14 (the display form STTT-TTT-TTTT-CC)." % (i + 1))
    return InvalidIdError("timeid", text, detail, "22P02")


def _range_error(type_name: str, text: str) -> InvalidIdError:
    return InvalidIdError(type_name, text, _RANGES[type_name], "22003")


def _need_str(type_name: str, text: object) -> str:
    if not isinstance(text, str):
        raise TypeError("a %s is read from str, not %s" % (type_name, type(text).__name__))
    return text


def _digits(type_name: str, text: str, table: Dict[str, int]) -> List[int]:
    out = []
    for i, c in enumerate(text):
        d = table.get(c)
        if d is None:
            raise _symbol_error(type_name, text, i)
        out.append(d)
    return out


def _b32_value(digits: List[int]) -> int:
    v = 0
    for d in digits:
        v = (v << 5) | d
    return v


def _b32_text(value: int, n: int, alphabet: str) -> str:
    out = [""] * n
    for i in range(n - 1, -1, -1):
        out[i] = alphabet[value & 31]
        value >>= 5
    return "".join(out)


def _unix_ms_time(ms: int) -> Optional[datetime]:
    try:
        return _UNIX_EPOCH + timedelta(milliseconds=ms)
    except OverflowError:  # past 9999-12-31, which a datetime cannot hold
        return None


def _unix_us_time(us: int) -> datetime:
    return _UNIX_EPOCH + timedelta(microseconds=us)


# ---- parsing and text ------------------------------------------------------------------------------

class ParsedUid11(NamedTuple):
    value: int          # the unsigned 64-bit payload
    time: datetime      # the xid profile's time (ms)
    unix_ms: int
    random: int         # the low 22 bits


class ParsedTimeid(NamedTuple):
    value: int
    time: datetime      # exact to the microsecond
    unix_us: int
    clock_id: int       # 0..1023


class ParsedUlidflake(NamedTuple):
    value: int
    time: datetime
    unix_ms: int
    sid: int            # the low 5 bits (the scalable variant's sid)


class ParsedUlid(NamedTuple):
    value: int          # the 128-bit value (the 16 bytes, big-endian)
    time: Optional[datetime]  # None past 9999-12-31 (unix_ms still holds it)
    unix_ms: int


class ParsedEuid(NamedTuple):
    value: int          # the 128-bit value, without the check
    time: datetime
    unix_ms: int
    extension: Optional[int]  # None when the EUID carries no extension


def _uid11_value(text: object) -> int:
    t = _need_str("uid11", text)
    if len(t) != 11:
        raise _length_error("uid11", t, _B58_DIGITS)
    v = 0
    for d in _digits("uid11", t, _B58_DIGITS):
        v = v * 58 + d
    if v > MAX64:
        raise _range_error("uid11", t)
    return v


def _timeid_value(text: object) -> int:
    t = _need_str("timeid", text)
    plain = t
    if len(t) == 16:
        # The display form STTT-TTT-TTTT-CC: dashes exactly at indexes 4, 8 and 13.
        if "-" not in t:
            raise _dash_error(t, 4)
        for i, c in enumerate(t):
            if (i in (4, 8, 13)) != (c == "-"):
                raise _dash_error(t, i)
        plain = t.replace("-", "")
        for i, c in enumerate(t):
            if c != "-" and c not in _SORTABLE_DIGITS:
                raise _symbol_error("timeid", t, i)
    elif len(t) != 13:
        raise _length_error("timeid", t, _SORTABLE_DIGITS)
    d = _digits("timeid", plain, _SORTABLE_DIGITS)
    if d[0] > 7:
        raise _range_error("timeid", t)
    return _b32_value(d)


def _crockford_value(type_name: str, text: object, length: int) -> int:
    """ulidflake (13 symbols) and ulid (26): strict Crockford, either case, the first at most 7."""
    t = _need_str(type_name, text)
    if len(t) != length:
        raise _length_error(type_name, t, _CROCKFORD_DIGITS)
    d = _digits(type_name, t, _CROCKFORD_DIGITS)
    if d[0] > 7:
        raise _range_error(type_name, t)
    return _b32_value(d)


def _ulidflake_value(text: object) -> int:
    return _crockford_value("ulidflake", text, 13)


def _ulid_value(text: object) -> int:
    return _crockford_value("ulid", text, 26)


def _euid_check(value: int) -> int:
    return value % 127


def _euid_value(text: object) -> int:
    t = _need_str("euid", text)
    if len(t) != 27:
        raise _length_error("euid", t, _EUID_DIGITS)
    n = _b32_value(_digits("euid", t, _EUID_DIGITS))  # 135 bits: the value, then a 7-bit check
    value, check = n >> 7, n & 127
    if check != EUID_NO_CHECK and check != _euid_check(value):
        raise InvalidIdError("euid", t, "The check symbol does not match the value.", "22P02")
    return value


def _euid_extension(value: int) -> Optional[int]:
    hi = value >> 64
    length = hi & 15
    if length == 0:
        return None
    return (hi >> 4) & ((1 << length) - 1)


def parse_uid11(text: str) -> ParsedUid11:
    """The payload of a uid11 and its xid-profile fields."""
    v = _uid11_value(text)
    ms = XID_EPOCH_MS + (v >> XID_RANDOM_BITS)
    t = _unix_ms_time(ms)
    assert t is not None
    return ParsedUid11(v, t, ms, v & ((1 << XID_RANDOM_BITS) - 1))


def parse_timeid(text: str) -> ParsedTimeid:
    """A TID, plain or in the display form STTT-TTT-TTTT-CC."""
    v = _timeid_value(text)
    us = v >> 10
    return ParsedTimeid(v, _unix_us_time(us), us, v & 1023)


def parse_ulidflake(text: str) -> ParsedUlidflake:
    v = _ulidflake_value(text)
    ms = ULIDFLAKE_EPOCH_MS + (v >> ULIDFLAKE_RANDOM_BITS)
    t = _unix_ms_time(ms)
    assert t is not None
    return ParsedUlidflake(v, t, ms, v & 31)


def parse_ulid(text: str) -> ParsedUlid:
    v = _ulid_value(text)
    ms = v >> 80
    return ParsedUlid(v, _unix_ms_time(ms), ms)


def parse_euid(text: str) -> ParsedEuid:
    v = _euid_value(text)
    ms = v >> 83
    t = _unix_ms_time(ms)
    assert t is not None
    return ParsedEuid(v, t, ms, _euid_extension(v))


def _valid(f: Callable[[object], int], text: object) -> bool:
    try:
        f(text)
    except (InvalidIdError, TypeError):
        return False
    return True


def is_valid_uid11(text: object) -> bool:
    return _valid(_uid11_value, text)


def is_valid_timeid(text: object) -> bool:
    return _valid(_timeid_value, text)


def is_valid_ulidflake(text: object) -> bool:
    return _valid(_ulidflake_value, text)


def is_valid_ulid(text: object) -> bool:
    return _valid(_ulid_value, text)


def is_valid_euid(text: object) -> bool:
    return _valid(_euid_value, text)


def uid11_timestamp(text: str) -> datetime:
    """The xid profile's time (as the server's xid_timestamp())."""
    return parse_uid11(text).time


def timeid_timestamp(text: str) -> datetime:
    return parse_timeid(text).time


def ulidflake_timestamp(text: str) -> datetime:
    return parse_ulidflake(text).time


def ulid_timestamp(text: str) -> datetime:
    """The ULID's time; ValueError past 9999-12-31, which a datetime cannot hold."""
    p = parse_ulid(text)
    if p.time is None:
        raise ValueError("the time of ulid %r (%d ms after 1970) is past 9999-12-31, beyond a "
                         "datetime; parse_ulid(text).unix_ms holds it" % (text, p.unix_ms))
    return p.time


def euid_timestamp(text: str) -> datetime:
    return parse_euid(text).time


def _check_value(type_name: str, value: object, maximum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("a %s value is an int, not %s" % (type_name, type(value).__name__))
    if value < 0 or value > maximum:
        raise ValueError("%d is out of range for type %s (0..%d)" % (value, type_name, maximum))
    return value


def format_uid11(value: int) -> str:
    """The canonical text of a uid11 payload (0..2^64-1)."""
    v = _check_value("uid11", value, MAX64)
    out = [""] * 11
    for i in range(10, -1, -1):
        v, d = divmod(v, 58)
        out[i] = _BASE58[d]
    return "".join(out)


def format_timeid(value: int) -> str:
    return _b32_text(_check_value("timeid", value, MAX63), 13, _SORTABLE)


def timeid_dashed(text_or_value: object) -> str:
    """The display form STTT-TTT-TTTT-CC of a TID (as the server's timeid_dashed())."""
    v = _timeid_value(text_or_value) if isinstance(text_or_value, str) else \
        _check_value("timeid", text_or_value, MAX63)
    t = _b32_text(v, 13, _SORTABLE)
    return "%s-%s-%s-%s" % (t[0:4], t[4:7], t[7:11], t[11:13])


def format_ulidflake(value: int) -> str:
    return _b32_text(_check_value("ulidflake", value, MAX63), 13, _CROCKFORD)


def format_ulid(value: int) -> str:
    return _b32_text(_check_value("ulid", value, MAX128), 26, _CROCKFORD)


def format_euid(value: int) -> str:
    v = _check_value("euid", value, MAX128)
    return _b32_text((v << 7) | _euid_check(v), 27, _CROCKFORD)
