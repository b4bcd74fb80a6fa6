// idtypes/pg: node-postgres (pg) parsers for the ID types and their arrays, in text and binary
// format.
//
//   import pg from 'pg';
//   import { registerTypes } from 'idtypes/pg';
//   const client = new pg.Client(); await client.connect(); await registerTypes(client);
//   const pool = new pg.Pool(); await registerTypes(pool);   // before the pool's first query
//   (await client.query('SELECT ARRAY[generate_ulid()] AS ids')).rows[0].ids   // ['01M8...']
//
// Without it node-postgres reads an ID as a string already but an array of IDs (ulid[] ...) as
// its text, '{01M8...,01M8...}'; in binary format (a query with `binary: true`) it would return
// the ID's 8 or 16 bytes as a string of their UTF-8 decoding. The binary parsers make the
// canonical text the server prints from those bytes, arrays included.
//
// node-postgres 8 (up to 8.23.1 at least: brianc/node-postgres#3495) decodes every field of a
// result as UTF-8 text and turns that text back into bytes before a binary parser runs: bytes
// that are not UTF-8 (most IDs) come out altered. registerTypes() asks the connection once
// whether binary results keep their bytes; where they do not, a binary parser returns the text of
// the bytes that provably came through unchanged (no U+FFFD replacement in them) and throws for
// the others, rather than return another ID.
import { ID_TYPES } from './index.js';

// (typname, oid, array oid) of the five types, wherever the extension was created. The oids as
// text: a client made with { binary: true } reads every result of a query with parameters in
// binary format, where node-postgres can alter the bytes of an int (see above), not those of digits.
const TYPES_QUERY = `SELECT t.typname::text AS typname, t.oid::text AS oid, t.typarray::text AS typarray
  FROM pg_catalog.pg_type t
  JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_type'::pg_catalog.regclass AND d.objid = t.oid AND d.deptype = 'e'
  JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'idtypes'
  WHERE t.typname = ANY($1::text[])`;

async function findTypes(client) {
  const { rows } = await client.query(TYPES_QUERY, [ID_TYPES]);
  return rows.map((r) => ({ typname: String(r.typname), oid: Number(r.oid), typarray: Number(r.typarray) }));
}

/**
 * An array of IDs from its text: '{A,NULL,B}' is ['A', null, 'B'], '{{A,B},{C,D}}' nests, '{}' is
 * []. The symbols of an ID never need quoting; a '[1:2]=' dimension decoration is skipped.
 */
export function parseIdArray(text) {
  if (text === null || text === undefined) return null;
  let i = text[0] === '[' ? text.indexOf('=') + 1 : 0;
  const list = () => {
    const out = [];
    i++; // '{'
    if (text[i] === '}') {
      i++;
      return out;
    }
    for (;;) {
      if (text[i] === '{') {
        out.push(list());
      } else {
        let j = i;
        while (text[j] !== ',' && text[j] !== '}') j++;
        const s = text.slice(i, j);
        out.push(s === 'NULL' ? null : s);
        i = j;
      }
      if (text[i++] === '}') return out;
    }
  };
  return list();
}

const identity = (text) => text;

// The binary format: uid11, timeid and ulidflake are 8 bytes, ulid and euid 16, big-endian.
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const SORTABLE32 = '234567abcdefghijklmnopqrstuvwxyz';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

// `count` base-32 symbols of the bits of `bytes` followed by the `tailBits` low bits of `tail`,
// most significant first; the first symbol's bits beyond them are leading zeros.
function base32(bytes, alphabet, count, tail = 0, tailBits = 0) {
  let pending = count * 5 - (bytes.length * 8 + tailBits); // leading zero bits, 0 to 4
  let acc = 0;
  let out = '';
  for (let i = 0; i <= bytes.length; i++) {
    const last = i === bytes.length;
    if (last && tailBits === 0) break;
    acc = last ? (acc << tailBits) | (tail & ((1 << tailBits) - 1)) : (acc << 8) | bytes[i];
    pending += last ? tailBits : 8;
    while (pending >= 5) {
      pending -= 5;
      out += alphabet[(acc >>> pending) & 31];
    }
    acc &= (1 << pending) - 1;
  }
  return out;
}

const u32 = (b, at) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

// uid11: the unsigned 64-bit value in 11 Base58 symbols (long division of its two 32-bit halves).
function uid11Text(b) {
  let hi = u32(b, 0);
  let lo = u32(b, 4);
  const out = new Array(11);
  for (let k = 10; k >= 0; k--) {
    const rh = hi % 58;
    hi = (hi - rh) / 58;
    const x = rh * 0x100000000 + lo; // below 58 * 2^32: exact in a double
    const rl = x % 58;
    lo = (x - rl) / 58;
    out[k] = BASE58[rl];
  }
  return out.join('');
}

// euid: the 128 bits and their check value (the value modulo 127, 7 bits) in 27 symbols.
function euidText(b) {
  let check = 0;
  for (let i = 0; i < 16; i++) check = (check * 256 + b[i]) % 127;
  return base32(b, CROCKFORD, 27, check, 7);
}

const CODECS = Object.freeze({
  uid11: [8, uid11Text],
  timeid: [8, (b) => base32(b, SORTABLE32, 13)],
  ulidflake: [8, (b) => base32(b, CROCKFORD, 13)],
  ulid: [16, (b) => base32(b, CROCKFORD, 26)],
  euid: [16, euidText],
});

function codecOf(type) {
  const codec = CODECS[type];
  if (!codec) throw new TypeError(`idtypes: unknown ID type ${JSON.stringify(type)} (one of ${ID_TYPES.join(', ')})`);
  return codec;
}

/**
 * The canonical text of an ID from its binary format (8 bytes for uid11, timeid and ulidflake,
 * 16 for ulid and euid, big-endian), as the server's output function writes it.
 */
export function idFromBinary(type, bytes) {
  const [size, text] = codecOf(type);
  if (!(bytes instanceof Uint8Array) || bytes.length !== size) {
    throw new RangeError(`idtypes: a ${type} is ${size} bytes in binary format, not ${bytes?.length ?? typeof bytes}`);
  }
  return text(bytes);
}

/**
 * An array of IDs from its binary format (PostgreSQL's: the number of dimensions, a flag, the
 * element type's oid, each dimension's length and lower bound, then each element's length, -1
 * for NULL, and bytes): nested arrays as parseIdArray makes them from the text, [] for an empty
 * array; the lower bounds are left out, as the text's '[2:3]=' decoration is. `elementOid`, when
 * given, must be the element type's oid.
 */
export function parseIdArrayBinary(bytes, type, elementOid) {
  const [size, text] = codecOf(type);
  if (!(bytes instanceof Uint8Array)) throw new TypeError('idtypes: parseIdArrayBinary takes the bytes of an array');
  const fail = (what) => {
    throw new RangeError(`idtypes: not a ${type}[] in binary format: ${what}`);
  };
  let at = 0;
  const int32 = () => {
    if (at + 4 > bytes.length) fail(`it ends at byte ${bytes.length}`);
    const v = u32(bytes, at) | 0;
    at += 4;
    return v;
  };
  const ndim = int32();
  int32(); // whether it has NULLs
  const oid = int32() >>> 0;
  if (ndim < 0 || ndim > 6) fail(`${ndim} dimensions`);
  if (elementOid !== undefined && ndim > 0 && oid !== elementOid) fail(`elements of type oid ${oid}, not ${elementOid}`);
  const lengths = [];
  for (let d = 0; d < ndim; d++) {
    lengths.push(int32());
    int32(); // the lower bound
    if (lengths[d] < 0) fail(`dimension ${d + 1} of length ${lengths[d]}`);
  }
  const level = (d) => {
    const out = new Array(lengths[d]);
    for (let i = 0; i < lengths[d]; i++) {
      if (d + 1 < ndim) {
        out[i] = level(d + 1);
        continue;
      }
      const len = int32();
      if (len === -1) {
        out[i] = null;
      } else if (len !== size || at + len > bytes.length) {
        fail(`an element of ${len} bytes${len === size ? ` past its end (${bytes.length} bytes)` : ''}`);
      } else {
        out[i] = text(bytes.subarray(at, at + len));
        at += len;
      }
    }
    return out;
  };
  const out = ndim === 0 ? [] : level(0);
  if (at !== bytes.length) fail(`${bytes.length - at} bytes after its last element`);
  return out;
}

// U+FFFD in UTF-8: what node-postgres puts where the bytes of a binary result were not UTF-8.
const REPLACEMENT = Uint8Array.of(0xef, 0xbf, 0xbd);
const hasReplacement = (b) => Buffer.prototype.indexOf.call(b, REPLACEMENT) !== -1;

function altered(type) {
  return new Error(`idtypes: a ${type} read in binary format came through node-postgres with a U+FFFD in its bytes, ` +
    'the mark of bytes it altered (it decodes binary results as UTF-8 text: brianc/node-postgres#3495); read the ID ' +
    'types in text format (a query without binary: true)');
}

// The binary parsers of a type and of its array. `exact`: whether the client's binary results
// keep their bytes; if not, bytes with a U+FFFD in them may have been altered and are refused
// (bytes without one came through unchanged: only a replacement changes them).
function binaryParsers(type, oid, exact) {
  const one = (bytes) => {
    if (!exact && hasReplacement(bytes)) throw altered(type);
    return idFromBinary(type, bytes);
  };
  const array = (bytes) => {
    if (!exact && hasReplacement(bytes)) throw altered(`${type}[]`);
    return parseIdArrayBinary(bytes, type, oid);
  };
  return [one, array];
}

function apply(client, rows, exact) {
  for (const { typname, oid, typarray } of rows) {
    client.setTypeParser(oid, 'text', identity);
    client.setTypeParser(typarray, 'text', parseIdArray);
    const [one, array] = binaryParsers(typname, oid, exact);
    client.setTypeParser(oid, 'binary', one);
    client.setTypeParser(typarray, 'binary', array);
  }
}

// Bytes that are not UTF-8; node-postgres must hand them to a binary parser unchanged.
const PROBE = Uint8Array.of(0x00, 0xff, 0x80, 0xe2, 0x82, 0x41);
const raw = Object.freeze({ getTypeParser: () => (value) => value });

/** Whether the client's results in binary format keep their bytes (a query of bytes that are not UTF-8). */
export async function binaryResultsExact(client) {
  const hex = Buffer.from(PROBE).toString('hex');
  const { rows } = await client.query({ text: "SELECT decode($1, 'hex') AS b", values: [hex], binary: true, types: raw });
  const b = rows[0]?.b;
  return b instanceof Uint8Array && Buffer.from(b).equals(PROBE);
}

/**
 * Registers the ID types and their arrays, in text and binary format, with a pg.Client (or a
 * client of a pool), or with every client of a pg.Pool: the ones it has and the ones it connects
 * later. Returns the rows { typname, oid, typarray } found (none where the extension is not
 * created).
 */
export async function registerTypes(clientOrPool) {
  const target = clientOrPool;
  if (typeof target.setTypeParser === 'function') {
    const rows = await findTypes(target);
    apply(target, rows, await binaryResultsExact(target));
    return rows;
  }
  if (typeof target.connect !== 'function' || typeof target.on !== 'function') {
    throw new TypeError('idtypes: registerTypes takes a pg.Client or a pg.Pool');
  }
  const client = await target.connect();
  let rows;
  let exact;
  try {
    rows = await findTypes(client);
    exact = await binaryResultsExact(client);
  } finally {
    client.release();
  }
  // pg-pool emits 'connect' for each new client before it runs a query.
  target.on('connect', (c) => apply(c, rows, exact));
  // The clients the pool has already (pg-pool's list of them).
  for (const c of target._clients ?? [client]) apply(c, rows, exact);
  return rows;
}
