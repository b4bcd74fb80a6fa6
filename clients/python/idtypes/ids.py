"""IDs made in the application: generate, parse and validate the five idtypes formats in Python.

The same layouts, text rules and generators as the extension's (docs/formats.md and the
"Generators" section of docs/reference.md), with nothing beyond the standard library:

- ``new_uid11()``, ``new_timeid()``, ``new_ulidflake()``, ``new_ulid()``, ``new_euid()`` return the
  canonical text of a new ID. Each is monotonic within the process where the server's generator is
  (thread-safe), and takes the format's node, clock, sid or extension field where it has one.
- From ``idtypes.id_text``, the formats' text: ``parse_<type>(text)`` returns the value and its fields (a named tuple), raising
  ``InvalidIdError`` (a ``ValueError``) for every text the server rejects, with the server's
  SQLSTATE; ``is_valid_<type>(text)``; ``<type>_timestamp(text)``; ``format_<type>(value)``.
"""

import os
import secrets
import threading
import time
from typing import Dict, Optional, Tuple

from .id_text import (
    EUID_MAX_MS, NODE_ID_BITS, TIMEID_MAX_AHEAD_US, TIMEID_MAX_US, ULID_FRACTION_BITS, ULID_MAX_MS,
    ULIDFLAKE_EPOCH_MS, ULIDFLAKE_MAX_MS, ULIDFLAKE_RANDOM_BITS, XID_EPOCH_MS, XID_MAX_MS,
    XID_RANDOM_BITS,
    InvalidIdError, ParsedEuid, ParsedTimeid, ParsedUid11, ParsedUlid, ParsedUlidflake,
    euid_timestamp, format_euid, format_timeid, format_uid11, format_ulid, format_ulidflake,
    is_valid_euid, is_valid_timeid, is_valid_uid11, is_valid_ulid, is_valid_ulidflake, parse_euid,
    parse_timeid, parse_uid11, parse_ulid, parse_ulidflake, timeid_dashed, timeid_timestamp,
    uid11_timestamp, ulid_timestamp, ulidflake_timestamp,
)

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
