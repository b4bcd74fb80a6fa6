"""IDs made in the application: generate, parse and validate the five idtypes formats in Python.

The same layouts, text rules and generators as the extension's (docs/formats.md and the
"Generators" section of docs/reference.md), with nothing beyond the standard library:

- ``new_uid11()``, ``new_timeid()``, ``new_ulidflake()``, ``new_ulid()``, ``new_euid()`` return the
  canonical text of a new ID. Each is monotonic within the process where the server's generator is
  (thread-safe), and takes the format's node, clock, sid or extension field where it has one.
- ``parse_<type>(text)`` returns the value and its fields (a named tuple), raising
  ``InvalidIdError`` (a ``ValueError``) for every text the server rejects, with the server's
  SQLSTATE; ``is_valid_<type>(text)``; ``<type>_timestamp(text)``; ``format_<type>(value)``.
"""

import os
import secrets
import threading
import time
from datetime import datetime, timedelta, timezone
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

__all__ = [
    "InvalidIdError",
    "ParsedUid11", "ParsedTimeid", "ParsedUlidflake", "ParsedUlid", "ParsedEuid",
    "new_uid11", "new_timeid", "new_ulidflake", "new_ulid", "new_euid",
    "parse_uid11", "parse_timeid", "parse_ulidflake", "parse_ulid", "parse_euid",
    "is_valid_uid11", "is_valid_timeid", "is_valid_ulidflake", "is_valid_ulid", "is_valid_euid",
    "uid11_timestamp", "timeid_timestamp", "ulidflake_timestamp", "ulid_timestamp",
    "euid_timestamp",
    "format_uid11", "format_timeid", "format_ulidflake", "format_ulid", "format_euid",
    "timeid_dashed", "default_clock_id",
]

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


# ---- generators -----------------------------------------------------------------------------------

def _arg(what: str, value: object, maximum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("the %s is an int, not %s" % (what, type(value).__name__))
    if value < 0 or value > maximum:
        raise ValueError("%s %d is out of range: the %s must be between 0 and %d"
                         % (what, value, what, maximum))
    return value


class _State:
    """The process's generator state (reset in a forked child, which gets its own)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.pool = b""
        self.pool_at = 0
        # The steady clock: the wall clock while it is at or after the latest time handed out;
        # when it is behind, time runs on from that latest time at half the monotonic clock's rate.
        self.high_us = -(1 << 62)
        self.mono_at = 0
        self.behind = False
        self.xid: Optional[int] = None
        self.ulidflake: Optional[int] = None
        self.tid: Optional[int] = None
        self.ulid_fraction: Optional[int] = None  # ms << 12 | fraction of the last generated ulid
        self.ulid_monotonic: Optional[int] = None
        self.euid: Dict[int, int] = {}             # extension (-1: none) -> its last EUID
        # The default TID clock id: drawn once per process from 512..991 (see default_clock_id()).
        self.clock_id = 512 + secrets.randbelow(480)


_lock = threading.Lock()
_state = _State()

_OK, _OVERFLOW, _OUT_OF_RANGE = 0, 1, 2


def _current() -> _State:
    global _state
    if _state.pid != os.getpid():  # a forked child: its own random bits and clock id
        _state = _State()
    return _state


def _random64(s: _State) -> int:
    if s.pool_at + 8 > len(s.pool):
        s.pool = os.urandom(512)
        s.pool_at = 0
    r = int.from_bytes(s.pool[s.pool_at:s.pool_at + 8], "big")
    s.pool_at += 8
    return r


def _now_us(s: _State) -> int:
    wall = time.time_ns() // 1000
    if not s.behind and wall >= s.high_us:
        s.high_us = wall
        return wall
    mono = time.monotonic_ns() // 1000
    if not s.behind:
        s.behind = True
        s.mono_at = mono
        return s.high_us
    virt = s.high_us + max(0, mono - s.mono_at) // 2
    if wall >= virt:
        s.behind = False
        s.high_us = wall
        return wall
    return virt


def _wait() -> None:
    """An overflow: wait for the next millisecond, as the server does by default."""
    time.sleep(0.001)


def _step_max(left: int) -> int:
    m = left >> 12
    return 255 if m >= 255 else m if m > 1 else 1


def _step(left: int, random32: int) -> int:
    return 1 + (((random32 & 0xFFFFFFFF) * _step_max(left)) >> 32)


def _mono64(last: Optional[int], now_units: int, max_units: int, field_bits: int,
            fixed_bits: int, fixed: int, low_bits: int, low: int, random: int) -> Tuple[int, int]:
    """One step of the 64-bit [time | fixed | counter | low] generators (xid, ulidflake)."""
    counter_bits = field_bits - fixed_bits - low_bits
    counter_max = (1 << counter_bits) - 1
    last_units = -1 if last is None else last >> field_bits
    if last is not None and now_units <= last_units:
        units = last_units  # the same unit, or a clock that went back
    elif now_units < 0:
        return _OUT_OF_RANGE, 0
    else:
        units = now_units
    if units > max_units:
        return _OUT_OF_RANGE, 0
    if last is not None and units == last_units:
        prev = (last >> low_bits) & counter_max
        step = _step(counter_max - prev, random >> 32)
        if step > counter_max - prev:
            return _OVERFLOW, 0
        counter = prev + step
    else:
        # The first ID of a unit starts in the lowest eighth of the counter.
        counter = random & (counter_max >> 3)
    field = (fixed << (counter_bits + low_bits)) | (counter << low_bits) | low
    v = (units << field_bits) | field
    if last is not None and v <= last:  # another layout than the last ID's: never go back
        return _OVERFLOW, 0
    return _OK, v


def _era_error(type_name: str) -> OverflowError:
    return OverflowError("the clock is outside the time range of type %s" % type_name)


def new_uid11(node_id: Optional[int] = None) -> str:
    """A new uid11 of the xid profile: the ms since 2011-11-11T11:11:11.111Z, then 22 bits.

    The first ID of a millisecond starts low in the 22-bit field, each further one adds a random
    step (the server's generate_uid11_xid()). node_id (0..31) takes the field's top 5 bits, as
    the server's idtypes.node_id does: IDs of different node ids are never equal.
    """
    fixed_bits, fixed = (0, 0) if node_id is None else (NODE_ID_BITS, _arg("node id", node_id, 31))
    with _lock:
        s = _current()
        while True:
            status, v = _mono64(s.xid, _now_us(s) // 1000 - XID_EPOCH_MS, XID_MAX_MS,
                                XID_RANDOM_BITS, fixed_bits, fixed, 0, 0, _random64(s))
            if status == _OK:
                s.xid = v
                return format_uid11(v)
            if status == _OUT_OF_RANGE:
                raise _era_error("uid11")
            _wait()


def default_clock_id() -> int:
    """The TID clock id new_timeid() uses without one: drawn once per process from 512..991."""
    with _lock:
        return _current().clock_id


def new_timeid(clock_id: Optional[int] = None) -> str:
    """A new TID: the µs since 1970 (at least the last one's + 1), then the 10-bit clock id.

    Without clock_id, the process's default_clock_id(). It runs at most a second ahead of the
    clock when asked for more than one TID a microsecond, then waits.
    """
    cid = None if clock_id is None else _arg("clock id", clock_id, 1023)
    with _lock:
        s = _current()
        if cid is None:
            cid = s.clock_id
        while True:
            now = _now_us(s)
            if s.tid is not None and now <= s.tid >> 10:
                micros = (s.tid >> 10) + 1
                if micros > TIMEID_MAX_US:
                    raise _era_error("timeid")
                if now >= 0 and micros - now > TIMEID_MAX_AHEAD_US:
                    _wait()
                    continue
            elif now < 0 or now > TIMEID_MAX_US:
                raise _era_error("timeid")
            else:
                micros = now
            s.tid = (micros << 10) | cid
            return format_timeid(s.tid)


def new_ulidflake(sid: Optional[int] = None, node_id: Optional[int] = None) -> str:
    """A new ULID-Flake: the ms since 2024-01-01, then 20 bits (the server's generate_ulidflake()).

    With sid (0..31), the scalable variant: 15 random bits, then the sid in the low 5. node_id
    (0..31) takes the top 5 bits of the 20, as the server's idtypes.node_id does.
    """
    low_bits, low = (0, 0) if sid is None else (5, _arg("sid", sid, 31))
    fixed_bits, fixed = (0, 0) if node_id is None else (NODE_ID_BITS, _arg("node id", node_id, 31))
    with _lock:
        s = _current()
        while True:
            status, v = _mono64(s.ulidflake, _now_us(s) // 1000 - ULIDFLAKE_EPOCH_MS,
                                ULIDFLAKE_MAX_MS, ULIDFLAKE_RANDOM_BITS, fixed_bits, fixed,
                                low_bits, low, _random64(s))
            if status == _OK:
                s.ulidflake = v
                return format_ulidflake(v)
            if status == _OUT_OF_RANGE:
                raise _era_error("ulidflake")
            _wait()


def new_ulid(monotonic: bool = False) -> str:
    """A new ULID.

    Default (the server's generate_ulid()): the ms, then the fraction of the ms in 12 bits
    (4096ths), then 68 fresh random bits; an ID at or before the last one's time goes one 4096th
    past it, so the process's ULIDs increase. monotonic=True (generate_ulid_monotonic()): 80
    random bits, and in the same ms the last ID + 1.
    """
    with _lock:
        s = _current()
        if not monotonic:
            us = time.time_ns() // 1000
            if us < 0 or us // 1000 > ULID_MAX_MS:
                raise _era_error("ulid")
            t = ((us // 1000) << ULID_FRACTION_BITS) | ((us % 1000) * 4096 // 1000)
            if s.ulid_fraction is not None and t <= s.ulid_fraction:
                t = s.ulid_fraction + 1
            if t >> ULID_FRACTION_BITS > ULID_MAX_MS:
                raise _era_error("ulid")
            s.ulid_fraction = t
            random68 = ((_random64(s) & 15) << 64) | _random64(s)
            return format_ulid((t << 68) | random68)
        while True:
            ms = _now_us(s) // 1000
            last = s.ulid_monotonic
            if last is not None and ms <= last >> 80:
                if last & ((1 << 80) - 1) == (1 << 80) - 1:
                    _wait()
                    continue
                v = last + 1
            elif ms < 0 or ms > ULID_MAX_MS:
                raise _era_error("ulid")
            else:
                v = (ms << 80) | ((_random64(s) & 0xFFFF) << 64) | _random64(s)
            s.ulid_monotonic = v
            return format_ulid(v)


def _euid_pack(ms: int, extension: int, random15: int, random64: int) -> int:
    if extension < 0:
        field, length = random15 & 0x7FFF, 0
    else:
        length = max(1, extension.bit_length())
        field = ((random15 & ((1 << (15 - length)) - 1)) << length) | extension
    return (((ms << 19) | (field << 4) | length) << 64) | random64


def new_euid(extension: Optional[int] = None) -> str:
    """A new EUID: 45-bit ms, 15 bits random-or-extension, 4-bit extension length, 64 random bits.

    extension (0..32767) goes into the low bits of the 15-bit field. In the same ms (per
    extension, as the server's generate_euid()) the high 32 of the 64 random bits count up by
    one and the low 32 are drawn afresh.
    """
    ext = -1 if extension is None else _arg("extension", extension, 32767)
    with _lock:
        s = _current()
        while True:
            ms = _now_us(s) // 1000
            last = s.euid.get(ext)
            if last is not None and ms <= last >> 83:
                r_hi = (last >> 32) & 0xFFFFFFFF
                if r_hi == 0xFFFFFFFF:
                    _wait()
                    continue
                v = (last >> 64 << 64) | ((r_hi + 1) << 32) | (_random64(s) & 0xFFFFFFFF)
            elif ms < 0 or ms > EUID_MAX_MS:
                raise _era_error("euid")
            else:
                v = _euid_pack(ms, ext, _random64(s), _random64(s))
            s.euid[ext] = v
            return format_euid(v)
