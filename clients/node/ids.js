// idtypes/ids: IDs made in the application. Generate, parse and validate the five idtypes formats
// with the extension's layouts, text rules and generators (docs/formats.md, and "Generators" in
// docs/reference.md), with nothing beyond Node.js itself. 64- and 128-bit values are BigInts.
import { randomFillSync } from 'node:crypto';

const XID_EPOCH_MS = 1321009871111; // 2011-11-11T11:11:11.111Z
const XID_RANDOM_BITS = 22n;
const XID_MAX_MS = 2 ** 42 - 1;
const TIMEID_MAX_US = 2 ** 53 - 1;
const TIMEID_MAX_AHEAD_US = 1_000_000; // a TID runs at most a second ahead of the clock
const ULIDFLAKE_EPOCH_MS = 1704067200000; // 2024-01-01T00:00:00Z
const ULIDFLAKE_RANDOM_BITS = 20n;
const ULIDFLAKE_MAX_MS = 2 ** 43 - 1;
const ULID_MAX_MS = 2 ** 48 - 1;
const EUID_MAX_MS = 2 ** 45 - 1;
const EUID_NO_CHECK = 127n;
const NODE_ID_BITS = 5;
const MAX64 = (1n << 64n) - 1n;
const MAX63 = (1n << 63n) - 1n;
const MAX128 = (1n << 128n) - 1n;
const LOW80 = (1n << 80n) - 1n;
const LOW32 = 0xffffffffn;

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const SORTABLE = '234567abcdefghijklmnopqrstuvwxyz';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function table(alphabet, extra = {}) {
  const t = new Map();
  [...alphabet].forEach((c, i) => t.set(c, i));
  for (const [c, v] of Object.entries(extra)) t.set(c, v);
  return t;
}
const lower = Object.fromEntries([...CROCKFORD].filter((c) => c >= 'A').map((c) => [c.toLowerCase(), CROCKFORD.indexOf(c)]));
const B58_DIGITS = table(BASE58);
const SORTABLE_DIGITS = table(SORTABLE);
const CROCKFORD_DIGITS = table(CROCKFORD, lower);
const EUID_DIGITS = table(CROCKFORD, { ...lower, I: 1, i: 1, L: 1, l: 1, O: 0, o: 0 });

const SYMBOLS = {
  uid11: '1-9, A-Z and a-z except I, O and l',
  timeid: '2-7 and lower-case a-z',
  ulidflake: '0-9 and A-Z except I, L, O and U, in either case',
  ulid: '0-9 and A-Z except I, L, O and U, in either case',
  euid: '0-9 and A-Z except U, in either case (I and L read as 1, O as 0)',
};
const LENGTHS = {
  uid11: '11 characters',
  timeid: '13 characters, or 16 with dashes',
  ulidflake: '13 characters',
  ulid: '26 characters',
  euid: '27 characters',
};
const RANGES = {
  uid11: 'The largest uid11 is jpXCZedGfVQ (2^64-1).',
  timeid: 'The first symbol of a timeid is one of 2-7, a and b (the top bit is zero).',
  ulidflake: 'The first symbol of a ulidflake is at most 7 (13 symbols hold 65 bits, a ulidflake 63).',
  ulid: 'The first symbol of a ulid is at most 7 (26 symbols hold 130 bits, a ulid 128).',
};

// ---- errors ---------------------------------------------------------------------------------------

/**
 * Text the server rejects as well: a RangeError whose `code` is the server's SQLSTATE for the same
 * text, '22P02' (malformed: length, symbol, dash, check symbol) or '22003' (out of range).
 */
export class InvalidIdError extends RangeError {
  constructor(type, text, detail, code) {
    super(code === '22003'
      ? `value "${text}" is out of range for type ${type}: ${detail}`
      : `invalid input syntax for type ${type}: "${text}": ${detail}`);
    this.name = 'InvalidIdError';
    this.type = type;
    this.text = text;
    this.detail = detail;
    this.code = code;
  }
}

const CHAR_NAMES = { ' ': 'space', '\t': 'tab', '\n': 'line feed', '\r': 'carriage return' };

function charName(c) {
  const o = c.codePointAt(0);
  const hex = `U+${o.toString(16).toUpperCase().padStart(4, '0')}`;
  if (o >= 0x21 && o <= 0x7e) return `"${c}"`;
  if (c in CHAR_NAMES) return `${hex} (${CHAR_NAMES[c]})`;
  if (o > 0x7f && /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(c)) return `"${c}" (${hex})`;
  return hex;
}

const charAt = (text, i) => String.fromCodePoint(text.codePointAt(i));

function symbolError(type, text, i) {
  return new InvalidIdError(type, text,
    `The character ${charName(charAt(text, i))} at position ${i + 1} is not a valid symbol; ${type} symbols are ${SYMBOLS[type]}.`,
    '22P02');
}

function lengthError(type, text, digits) {
  let detail = `Expected ${LENGTHS[type]}, got ${[...text].length}`;
  const c = [...text];
  const i = c.findIndex((x) => !digits.has(x) && !(type === 'timeid' && x === '-'));
  if (i >= 0) detail += `; the character ${charName(c[i])} at position ${i + 1} is not a valid symbol`;
  return new InvalidIdError(type, text, `${detail}.`, '22P02');
}

function dashError(text, i) {
  const detail = i === 4 || i === 8 || i === 13
    ? `Expected a dash at position ${i + 1}, found ${charName(charAt(text, i))} (the display form is STTT-TTT-TTTT-CC).`
    : `The dash at position ${i + 1} is out of place: dashes go only at positions 5, 9 and 14 (the display form STTT-TTT-TTTT-CC).`;
  return new InvalidIdError('timeid', text, detail, '22P02');
}

const rangeError = (type, text) => new InvalidIdError(type, text, RANGES[type], '22003');

function needString(type, text) {
  if (typeof text !== 'string') throw new TypeError(`idtypes: a ${type} is read from a string, not ${typeof text}`);
  return text;
}

function digitsOf(type, text, digits, shown = text, offset = (i) => i) {
  const out = new Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const d = digits.get(text[i]);
    if (d === undefined) throw symbolError(type, shown, offset(i));
    out[i] = d;
  }
  return out;
}

function b32Value(digits) {
  let v = 0n;
  for (const d of digits) v = (v << 5n) | BigInt(d);
  return v;
}

function b32Text(value, n, alphabet) {
  const out = new Array(n);
  for (let i = n - 1; i >= 0; i--) {
    out[i] = alphabet[Number(value & 31n)];
    value >>= 5n;
  }
  return out.join('');
}

// ---- parsing and text ------------------------------------------------------------------------------

function uid11Value(text) {
  const t = needString('uid11', text);
  if (t.length !== 11) throw lengthError('uid11', t, B58_DIGITS);
  let v = 0n;
  for (const d of digitsOf('uid11', t, B58_DIGITS)) v = v * 58n + BigInt(d);
  if (v > MAX64) throw rangeError('uid11', t);
  return v;
}

function timeidValue(text) {
  const t = needString('timeid', text);
  let plain = t;
  let offset = (i) => i;
  if (t.length === 16) {
    // The display form STTT-TTT-TTTT-CC: dashes exactly at indexes 4, 8 and 13.
    if (!t.includes('-')) throw dashError(t, 4);
    for (let i = 0; i < 16; i++) {
      if ((i === 4 || i === 8 || i === 13) !== (t[i] === '-')) throw dashError(t, i);
    }
    plain = t.replaceAll('-', '');
    offset = (i) => i + (i >= 4) + (i >= 7) + (i >= 11);
  } else if (t.length !== 13) {
    throw lengthError('timeid', t, SORTABLE_DIGITS);
  }
  const d = digitsOf('timeid', plain, SORTABLE_DIGITS, t, offset);
  if (d[0] > 7) throw rangeError('timeid', t);
  return b32Value(d);
}

function crockfordValue(type, text, n) {
  const t = needString(type, text);
  if (t.length !== n) throw lengthError(type, t, CROCKFORD_DIGITS);
  const d = digitsOf(type, t, CROCKFORD_DIGITS);
  if (d[0] > 7) throw rangeError(type, t);
  return b32Value(d);
}

const ulidflakeValue = (text) => crockfordValue('ulidflake', text, 13);
const ulidValue = (text) => crockfordValue('ulid', text, 26);
const euidCheck = (value) => value % 127n;

function euidValue(text) {
  const t = needString('euid', text);
  if (t.length !== 27) throw lengthError('euid', t, EUID_DIGITS);
  const n = b32Value(digitsOf('euid', t, EUID_DIGITS)); // 135 bits: the value, then a 7-bit check
  const value = n >> 7n;
  const check = n & 127n;
  if (check !== EUID_NO_CHECK && check !== euidCheck(value)) {
    throw new InvalidIdError('euid', t, 'The check symbol does not match the value.', '22P02');
  }
  return value;
}

function euidExtension(value) {
  const hi = value >> 64n;
  const length = hi & 15n;
  return length === 0n ? null : Number((hi >> 4n) & ((1n << length) - 1n));
}

/** A uid11: { value, time, unixMs, random }, the time of the xid profile. */
export function parseUid11(text) {
  const value = uid11Value(text);
  const unixMs = XID_EPOCH_MS + Number(value >> XID_RANDOM_BITS);
  return { value, time: new Date(unixMs), unixMs, random: Number(value & 0x3fffffn) };
}

/** A TID, plain or in the display form: { value, time, unixUs, clockId }. */
export function parseTimeid(text) {
  const value = timeidValue(text);
  const unixUs = Number(value >> 10n);
  return { value, time: new Date(Math.floor(unixUs / 1000)), unixUs, clockId: Number(value & 1023n) };
}

/** A ULID-Flake: { value, time, unixMs, sid } (sid: the low 5 bits). */
export function parseUlidflake(text) {
  const value = ulidflakeValue(text);
  const unixMs = ULIDFLAKE_EPOCH_MS + Number(value >> ULIDFLAKE_RANDOM_BITS);
  return { value, time: new Date(unixMs), unixMs, sid: Number(value & 31n) };
}

/** A ULID: { value, time, unixMs }. */
export function parseUlid(text) {
  const value = ulidValue(text);
  const unixMs = Number(value >> 80n);
  return { value, time: new Date(unixMs), unixMs };
}

/** An EUID: { value, time, unixMs, extension } (extension null when it carries none). */
export function parseEuid(text) {
  const value = euidValue(text);
  const unixMs = Number(value >> 83n);
  return { value, time: new Date(unixMs), unixMs, extension: euidExtension(value) };
}

function valid(f, text) {
  try {
    f(text);
    return true;
  } catch (e) {
    if (e instanceof InvalidIdError || e instanceof TypeError) return false;
    throw e;
  }
}

export const isValidUid11 = (text) => valid(uid11Value, text);
export const isValidTimeid = (text) => valid(timeidValue, text);
export const isValidUlidflake = (text) => valid(ulidflakeValue, text);
export const isValidUlid = (text) => valid(ulidValue, text);
export const isValidEuid = (text) => valid(euidValue, text);

export const uid11Timestamp = (text) => parseUid11(text).time;
export const timeidTimestamp = (text) => parseTimeid(text).time;
export const ulidflakeTimestamp = (text) => parseUlidflake(text).time;
export const ulidTimestamp = (text) => parseUlid(text).time;
export const euidTimestamp = (text) => parseEuid(text).time;

function checkValue(type, value, max) {
  if (typeof value !== 'bigint') throw new TypeError(`idtypes: a ${type} value is a bigint, not ${typeof value}`);
  if (value < 0n || value > max) throw new RangeError(`idtypes: ${value} is out of range for type ${type} (0..${max})`);
  return value;
}

/** The canonical text of a uid11 payload (0n..2n**64n-1n). */
export function formatUid11(value) {
  let v = checkValue('uid11', value, MAX64);
  const out = new Array(11);
  for (let i = 10; i >= 0; i--) {
    out[i] = BASE58[Number(v % 58n)];
    v /= 58n;
  }
  return out.join('');
}

export const formatTimeid = (value) => b32Text(checkValue('timeid', value, MAX63), 13, SORTABLE);
export const formatUlidflake = (value) => b32Text(checkValue('ulidflake', value, MAX63), 13, CROCKFORD);
export const formatUlid = (value) => b32Text(checkValue('ulid', value, MAX128), 26, CROCKFORD);

export function formatEuid(value) {
  const v = checkValue('euid', value, MAX128);
  return b32Text((v << 7n) | euidCheck(v), 27, CROCKFORD);
}

/** The display form STTT-TTT-TTTT-CC of a TID (text or bigint), as the server's timeid_dashed(). */
export function timeidDashed(textOrValue) {
  const v = typeof textOrValue === 'string' ? timeidValue(textOrValue) : checkValue('timeid', textOrValue, MAX63);
  const t = b32Text(v, 13, SORTABLE);
  return `${t.slice(0, 4)}-${t.slice(4, 7)}-${t.slice(7, 11)}-${t.slice(11)}`;
}

// ---- generators -----------------------------------------------------------------------------------

function arg(what, value, max) {
  if (!Number.isInteger(value)) throw new TypeError(`idtypes: the ${what} is an integer, not ${String(value)}`);
  if (value < 0 || value > max) throw new RangeError(`idtypes: ${what} ${value} is out of range: the ${what} must be between 0 and ${max}`);
  return value;
}

// Random bits from the operating system's generator, 512 bytes at a time.
const pool = new Uint8Array(512);
const poolView = new DataView(pool.buffer);
let poolAt = pool.length;
function random64() {
  if (poolAt + 8 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const r = poolView.getBigUint64(poolAt);
  poolAt += 8;
  return r;
}

// The wall clock in µs: Date.now()'s millisecond, with the microseconds of the monotonic clock
// where it agrees with it.
function wallUs() {
  const ms = Date.now();
  const us = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  return Math.min(Math.max(us, ms * 1000), ms * 1000 + 999);
}

// The steady clock: the wall clock while it is at or after the latest time handed out; when it is
// behind (stepped back), time runs on from that latest time at half the monotonic clock's rate.
const clock = { highUs: -(2 ** 52), monoAt: 0, behind: false };
function nowUs() {
  const wall = wallUs();
  if (!clock.behind && wall >= clock.highUs) {
    clock.highUs = wall;
    return wall;
  }
  const mono = Math.floor(performance.now() * 1000);
  if (!clock.behind) {
    clock.behind = true;
    clock.monoAt = mono;
    return clock.highUs;
  }
  const virt = clock.highUs + Math.floor(Math.max(0, mono - clock.monoAt) / 2);
  if (wall >= virt) {
    clock.behind = false;
    clock.highUs = wall;
    return wall;
  }
  return virt;
}

// An overflow: wait for the next millisecond, as the server does by default (synchronously:
// Atomics.wait where the thread may block, else a spin).
const sleepCell = typeof SharedArrayBuffer === 'function' ? new Int32Array(new SharedArrayBuffer(4)) : null;
function wait() {
  try {
    if (sleepCell) {
      Atomics.wait(sleepCell, 0, 0, 1);
      return;
    }
  } catch {
    // a thread that may not block
  }
  const end = Date.now() + 1;
  while (Date.now() < end);
}

const OK = 0;
const OVERFLOW = 1;
const OUT_OF_RANGE = 2;

function stepMax(left) {
  const m = left >> 12n;
  return m >= 255n ? 255n : m > 1n ? m : 1n;
}

// One step of the 64-bit [time | fixed | counter | low] generators (xid, ulidflake).
function mono64(last, nowUnits, maxUnits, fieldBits, fixedBits, fixed, lowBits, low, random) {
  const counterBits = fieldBits - fixedBits - lowBits;
  const counterMax = (1n << counterBits) - 1n;
  const lastUnits = last === null ? -1 : Number(last >> fieldBits);
  let units;
  if (last !== null && nowUnits <= lastUnits) units = lastUnits; // the same unit, or the clock went back
  else if (nowUnits < 0) return [OUT_OF_RANGE, 0n];
  else units = nowUnits;
  if (units > maxUnits) return [OUT_OF_RANGE, 0n];
  let counter;
  if (last !== null && units === lastUnits) {
    const prev = (last >> lowBits) & counterMax;
    const left = counterMax - prev;
    const step = 1n + (((random >> 32n) & LOW32) * stepMax(left) >> 32n);
    if (step > left) return [OVERFLOW, 0n];
    counter = prev + step;
  } else {
    counter = random & (counterMax >> 3n); // the first ID of a unit starts in the lowest eighth
  }
  const v = (BigInt(units) << fieldBits) | (fixed << (counterBits + lowBits)) | (counter << lowBits) | low;
  if (last !== null && v <= last) return [OVERFLOW, 0n]; // another layout than the last ID's
  return [OK, v];
}

const eraError = (type) => new RangeError(`idtypes: the clock is outside the time range of type ${type}`);

const state = {
  xid: null,
  ulidflake: null,
  tid: null,
  ulidFraction: null, // ms << 12 | fraction of the last generated ulid
  ulidMonotonic: null,
  euid: new Map(), // extension (-1: none) -> its last EUID
};

/** The TID clock id newTimeid() uses without one: drawn once per process (thread) from 512..991. */
const DEFAULT_CLOCK_ID = 512 + (Number(random64() % 480n));
export const defaultClockId = () => DEFAULT_CLOCK_ID;

/**
 * A new uid11 of the xid profile (the server's generate_uid11_xid()). nodeId (0..31) takes the top
 * 5 bits of the 22-bit field, as the server's idtypes.node_id does.
 */
export function newUid11({ nodeId } = {}) {
  const [fixedBits, fixed] = nodeId === undefined || nodeId === null ? [0n, 0n] : [BigInt(NODE_ID_BITS), BigInt(arg('node id', nodeId, 31))];
  for (;;) {
    const [status, v] = mono64(state.xid, Math.floor(nowUs() / 1000) - XID_EPOCH_MS, XID_MAX_MS,
      XID_RANDOM_BITS, fixedBits, fixed, 0n, 0n, random64());
    if (status === OK) {
      state.xid = v;
      return formatUid11(v);
    }
    if (status === OUT_OF_RANGE) throw eraError('uid11');
    wait();
  }
}

/**
 * A new TID (the server's generate_timeid()): µs since 1970, at least the last one's + 1, then the
 * clock id (0..1023; default defaultClockId()).
 */
export function newTimeid({ clockId } = {}) {
  const cid = clockId === undefined || clockId === null ? DEFAULT_CLOCK_ID : arg('clock id', clockId, 1023);
  for (;;) {
    const now = nowUs();
    let micros;
    const lastUs = state.tid === null ? -1 : Number(state.tid >> 10n);
    if (state.tid !== null && now <= lastUs) {
      micros = lastUs + 1;
      if (micros > TIMEID_MAX_US) throw eraError('timeid');
      if (now >= 0 && micros - now > TIMEID_MAX_AHEAD_US) {
        wait();
        continue;
      }
    } else if (now < 0 || now > TIMEID_MAX_US) {
      throw eraError('timeid');
    } else {
      micros = now;
    }
    state.tid = (BigInt(micros) << 10n) | BigInt(cid);
    return formatTimeid(state.tid);
  }
}

/**
 * A new ULID-Flake (the server's generate_ulidflake()): with sid (0..31) the scalable variant;
 * nodeId (0..31) takes the top 5 bits of the 20-bit field, as the server's idtypes.node_id does.
 */
export function newUlidflake({ sid, nodeId } = {}) {
  const [lowBits, low] = sid === undefined || sid === null ? [0n, 0n] : [5n, BigInt(arg('sid', sid, 31))];
  const [fixedBits, fixed] = nodeId === undefined || nodeId === null ? [0n, 0n] : [BigInt(NODE_ID_BITS), BigInt(arg('node id', nodeId, 31))];
  for (;;) {
    const [status, v] = mono64(state.ulidflake, Math.floor(nowUs() / 1000) - ULIDFLAKE_EPOCH_MS,
      ULIDFLAKE_MAX_MS, ULIDFLAKE_RANDOM_BITS, fixedBits, fixed, lowBits, low, random64());
    if (status === OK) {
      state.ulidflake = v;
      return formatUlidflake(v);
    }
    if (status === OUT_OF_RANGE) throw eraError('ulidflake');
    wait();
  }
}

/**
 * A new ULID. Default (the server's generate_ulid()): the ms, its fraction in 12 bits (4096ths),
 * then 68 fresh random bits, one 4096th past the last ID where the clock has not moved on.
 * { monotonic: true } (generate_ulid_monotonic()): 80 random bits, in the same ms the last + 1.
 */
export function newUlid({ monotonic = false } = {}) {
  if (!monotonic) {
    const us = wallUs();
    if (us < 0 || Math.floor(us / 1000) > ULID_MAX_MS) throw eraError('ulid');
    let t = (BigInt(Math.floor(us / 1000)) << 12n) | BigInt(Math.floor((us % 1000) * 4096 / 1000));
    if (state.ulidFraction !== null && t <= state.ulidFraction) t = state.ulidFraction + 1n;
    if (t >> 12n > BigInt(ULID_MAX_MS)) throw eraError('ulid');
    state.ulidFraction = t;
    return formatUlid((t << 68n) | ((random64() & 15n) << 64n) | random64());
  }
  for (;;) {
    const ms = Math.floor(nowUs() / 1000);
    const last = state.ulidMonotonic;
    let v;
    if (last !== null && ms <= Number(last >> 80n)) {
      if ((last & LOW80) === LOW80) {
        wait();
        continue;
      }
      v = last + 1n;
    } else if (ms < 0 || ms > ULID_MAX_MS) {
      throw eraError('ulid');
    } else {
      v = (BigInt(ms) << 80n) | ((random64() & 0xffffn) << 64n) | random64();
    }
    state.ulidMonotonic = v;
    return formatUlid(v);
  }
}

function euidPack(ms, extension, random15, random64bits) {
  let field;
  let length;
  if (extension < 0) {
    field = random15 & 0x7fffn;
    length = 0n;
  } else {
    length = BigInt(extension === 0 ? 1 : extension.toString(2).length);
    field = ((random15 & ((1n << (15n - length)) - 1n)) << length) | BigInt(extension);
  }
  return (((BigInt(ms) << 19n) | (field << 4n) | length) << 64n) | random64bits;
}

/**
 * A new EUID (the server's generate_euid()): extension (0..32767) in the low bits of the 15-bit
 * field; in the same ms, per extension, the high 32 random bits + 1 and the low 32 drawn afresh.
 */
export function newEuid({ extension } = {}) {
  const ext = extension === undefined || extension === null ? -1 : arg('extension', extension, 32767);
  for (;;) {
    const ms = Math.floor(nowUs() / 1000);
    const last = state.euid.get(ext);
    let v;
    if (last !== undefined && ms <= Number(last >> 83n)) {
      const rHi = (last >> 32n) & LOW32;
      if (rHi === LOW32) {
        wait();
        continue;
      }
      v = ((last >> 64n) << 64n) | ((rHi + 1n) << 32n) | (random64() & LOW32);
    } else if (ms < 0 || ms > EUID_MAX_MS) {
      throw eraError('euid');
    } else {
      v = euidPack(ms, ext, random64(), random64());
    }
    state.euid.set(ext, v);
    return formatEuid(v);
  }
}
