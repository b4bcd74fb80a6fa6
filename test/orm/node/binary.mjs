// The binary format of the five types through idtypes/pg: after registerTypes(), what the
// binary parsers make of the server's bytes must be the server's own text (v::text).
//
// For each type about 3,700 values (the ends: all zero bits, all one bits, every single bit and
// every value with all bits but one, the sign bits of each byte; small integers, random bytes,
// bytes below 0x80, the spec examples, the generator's), and arrays of them (1-D with a NULL, 2-D
// and 3-D, all NULL, empty, one element, lower bounds other than 1):
// - the server's bytes (<type>_send(v), array_send(a), read as bytea in text format) through the
//   parsers registerTypes() set for binary format, and through idFromBinary/parseIdArrayBinary,
//   as a node-postgres that keeps binary bytes would hand them over;
// - queries with binary: true through this node-postgres: node-postgres 8 (8.23.1 at least,
//   brianc/node-postgres#3495) decodes binary results as UTF-8 text and alters bytes that are not
//   UTF-8, so each value and array reads as the server's text or fails with idtypes' error
//   naming that, never as another ID; values whose bytes are all below 0x80 read as the text;
// - a pg.Client made with { binary: true } and a pg.Pool; NULL; malformed bytes refused.
import { createRequire } from 'node:module';
import pg from 'pg';
import { registerTypes, parseIdArray, idFromBinary, parseIdArrayBinary, binaryResultsExact } from 'idtypes/pg';
import { check, checkThrows, run, connection } from './common.mjs';

const TYPES = { uid11: 'generate_xid', timeid: 'generate_tid', ulidflake: 'generate_ulidflake', ulid: 'generate_ulid', euid: 'generate_euid' };
const SIZE = { uid11: 8, timeid: 8, ulidflake: 8, ulid: 16, euid: 16 };
// timeid and ulidflake are 63 bits: their largest value is 2^63-1 (the server refuses the sign bit).
const BITS = { uid11: 64, timeid: 63, ulidflake: 63, ulid: 128, euid: 128 };
// The specs' examples (test/test_formats.cpp), and what the server makes of them.
const SPEC = {
  uid11: ['11111111111', '1111111NVpb', '113q8KFkAEs', 'NQm6nKp8qFD', 'jpXCZedGfVQ'],
  timeid: ['3kxnlhr3gxq23', '3kxn-lhr-3gxq-23', 'bzzzzzzzzzzzz', '2222222222222'],
  ulidflake: ['00CMXB6TAK4SA', '00cmxb6tak4sa', '7ZZZZZZZZZZZZ'],
  ulid: ['01ARZ3NDEKTSV4RRFFQ69G5FAV', '01arz3ndektsv4rrffq69g5fav', '01BX5ZZKBKACTAV9WEVGEMMVRZ', '01BX5ZZKBKACTAV9WEVGEMMVS0', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'],
  euid: ['C8EE934SR007G5Q94QKKXFRFV8B', 'c8ee934sr007g5q94qkkxfrfv8b', 'C8X2HA87098A0W837DX13FEAWSR'],
};
const ALTERED = /U\+FFFD.*brianc\/node-postgres#3495/;

// A fixed-seed generator of bytes (xorshift32), so that a failure can be replayed.
let seed = 0x9e3779b9;
const byte = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 24) & 0xff;
};

// The values of a type as hex (bytes) or text, with their kind.
function values(t) {
  const size = SIZE[t];
  const out = [];
  const hex = (bytes) => Buffer.from(bytes).toString('hex');
  const fromBigInt = (v) => v.toString(16).padStart(size * 2, '0');
  const max = (1n << BigInt(BITS[t])) - 1n;
  out.push(['zero', fromBigInt(0n)], ['max', fromBigInt(max)]);
  for (let k = 0; k < BITS[t]; k++) {
    out.push(['bit', fromBigInt(1n << BigInt(k))], ['all but a bit', fromBigInt(max ^ (1n << BigInt(k)))]);
  }
  // The sign bit of each byte alone, and each byte 0x7f among 0xff.
  for (let i = BITS[t] === 63 ? 1 : 0; i < size; i++) {
    const b = new Uint8Array(size);
    b[i] = 0x80;
    out.push(['sign bit', hex(b)]);
    const c = new Uint8Array(size).fill(0xff);
    if (BITS[t] === 63) c[0] = 0x7f;
    c[i] = 0x7f;
    out.push(['sign bit', hex(c)]);
  }
  for (let i = 0; i < 300; i++) out.push(['small', fromBigInt(BigInt(i < 200 ? i : 2600 + i))]);
  for (let i = 0; i < 2000; i++) {
    const b = Array.from({ length: size }, byte);
    if (BITS[t] === 63) b[0] &= 0x7f;
    out.push(['random', hex(b)]);
  }
  for (let i = 0; i < 1000; i++) out.push(['ascii', hex(Array.from({ length: size }, () => byte() & 0x7f))]);
  // Bytes that hold U+FFFD's UTF-8 (EF BF BD) themselves.
  const r = new Uint8Array(size);
  r.set([0xef, 0xbf, 0xbd], 2);
  out.push(['replacement', hex(r)]);
  for (const text of SPEC[t]) out.push(['spec', null, text]);
  return out;
}

// Whether a binary parser of a client whose binary results are altered may refuse these (true)
// bytes: they hold EF BF BD, which node-postgres makes of bytes that are not UTF-8.
let exact;
const refusable = (bytes, error) => !exact && bytes.includes(Buffer.of(0xef, 0xbf, 0xbd)) && ALTERED.test(error.message);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
// compare(what, got, want): one check over lists, naming the first differences.
function compare(what, got, want) {
  const bad = [];
  for (let i = 0; i < Math.max(got.length, want.length); i++) if (!same(got[i], want[i])) bad.push([i, got[i], want[i]]);
  check(what, got.length === want.length && bad.length === 0,
    `${bad.length} of ${want.length} differ (${got.length} got), first ${JSON.stringify(bad.slice(0, 3))}`);
}
const attempt = (fn) => {
  try {
    return { value: fn() };
  } catch (e) {
    return { error: e };
  }
};

run(async () => {
  const client = new pg.Client(connection());
  await client.connect();
  const pgVersion = createRequire(import.meta.url)('pg/package.json').version;
  const found = await registerTypes(client);
  check('registerTypes(client) finds the five types', found.length === 5, JSON.stringify(found));
  exact = await binaryResultsExact(client);
  console.log(`node-postgres ${pgVersion}: binary results ${exact ? 'keep their bytes' : 'are altered where not UTF-8 (brianc/node-postgres#3495)'}`);
  const oids = Object.fromEntries(found.map((r) => [r.typname, r]));

  // A byte-exact node-postgres, simulated: registerTypes on a client whose binary results keep
  // their bytes (its answer to the probe), so that its binary parsers refuse nothing.
  const exactParsers = new Map();
  await registerTypes({
    query: (config, params) => (typeof config === 'string' ? client.query(config, params)
      : Promise.resolve({ rows: [{ b: Buffer.from(config.values[0], 'hex') }] })),
    setTypeParser: (oid, format, fn) => exactParsers.set(`${oid} ${format}`, fn),
  });
  check('registerTypes sets a text and a binary parser for each type and its array', exactParsers.size === 20, String(exactParsers.size));

  await client.query('CREATE TABLE vals (t text, n int, kind text, v_uid11 uid11, v_timeid timeid, v_ulidflake ulidflake, v_ulid ulid, v_euid euid)');
  await client.query('CREATE TABLE arrs (t text, k text, a_uid11 uid11[], a_timeid timeid[], a_ulidflake ulidflake[], a_ulid ulid[], a_euid euid[])');
  let total = 0;
  for (const [t, gen] of Object.entries(TYPES)) {
    const { oid, typarray } = oids[t];
    const list = values(t);
    await client.query(`INSERT INTO vals (t, n, kind, v_${t}) SELECT $1, n, kind, coalesce(decode(h, 'hex')::${t}, x::${t})
      FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY u(kind, h, x, n)`,
    [t, list.map((v) => v[0]), list.map((v) => v[1]), list.map((v) => v[2] ?? null)]);
    await client.query(`INSERT INTO vals (t, n, kind, v_${t}) SELECT $1, 100000 + i, 'generated', ${gen}() FROM generate_series(1, 50) i`, [t]);
    const { rows } = await client.query(`SELECT n, kind, v_${t} AS v, v_${t}::text AS text, ${t}_send(v_${t}) AS b FROM vals WHERE t = $1 ORDER BY n`, [t]);
    total += rows.length;
    const texts = rows.map((r) => r.text);
    check(`${t}: ${rows.length} values, each of ${SIZE[t]} bytes from ${t}_send, the spec examples read as ${JSON.stringify(rows.filter((r) => r.kind === 'spec').map((r) => r.text))}`,
      rows.length > 3000 && rows.every((r) => r.b.length === SIZE[t]));
    compare(`${t}: text format reads as the server's text (v::text)`, rows.map((r) => r.v), texts);

    // The server's bytes, as a node-postgres that keeps them hands them over.
    compare(`${t}: idFromBinary of the server's bytes is the server's text`, rows.map((r) => idFromBinary(t, r.b)), texts);
    compare(`${t}: the binary parser registerTypes sets (byte-exact client) reads the server's bytes as its text`,
      rows.map((r) => exactParsers.get(`${oid} binary`)(r.b)), texts);
    const parse = client.getTypeParser(oid, 'binary');
    const mine = rows.map((r) => attempt(() => parse(r.b)));
    const refused = mine.filter((m) => m.error).length;
    compare(`${t}: the binary parser of this client reads the server's bytes as its text, ${refused} refused (bytes holding EF BF BD, which node-postgres ${exact ? 'keeps' : 'may have made'})`,
      mine.map((m, i) => (m.error && refusable(rows[i].b, m.error) ? texts[i] : m.error ? String(m.error) : m.value)), texts);
    check(`${t}: the value holding EF BF BD is ${exact ? 'read' : 'refused'} by the binary parser of this client`,
      mine.some((m, i) => rows[i].kind === 'replacement' && (exact ? m.value === texts[i] : m.error)));

    // Through this node-postgres with binary: true, one query per value (every fourth of the
    // random, small and below-0x80 ones: a round trip each).
    const sample = rows.map((r, i) => [r, texts[i]]).filter(([r]) => !['random', 'small', 'ascii'].includes(r.kind) || r.n % 4 === 0);
    const read = [];
    for (const [r] of sample) {
      read.push(await client.query({ text: `SELECT v_${t} AS v FROM vals WHERE t = $1 AND n = $2`, values: [t, r.n], binary: true })
        .then((x) => ({ value: x.rows[0].v }), (error) => ({ error })));
    }
    const ok = read.filter((x, i) => !x.error && x.value === sample[i][1]).length;
    const no = read.filter((x) => x.error && ALTERED.test(x.error.message)).length;
    check(`${t}: binary: true, ${sample.length} queries of a value: ${ok} read as the server's text, ${no} refused with the error naming node-postgres's alteration, none else`,
      ok + no === sample.length && (exact ? no === 0 : no > 0), JSON.stringify(read.map((x, i) => [x, sample[i][1]]).filter(([x, want]) => !(x.error ? ALTERED.test(x.error.message) : x.value === want)).slice(0, 3)));
    const ascii = await client.query({ text: `SELECT v_${t} AS v, v_${t}::text AS text FROM vals WHERE t = $1 AND kind IN ('ascii', 'zero') ORDER BY n`, values: [t], binary: true });
    check(`${t}: binary: true, one query of the ${ascii.rows.length} values whose bytes are below 0x80 reads them as the server's text`,
      ascii.rows.length > 1000 && ascii.fields[0].format === 'binary' && ascii.rows.every((r) => r.v === r.text), JSON.stringify(ascii.rows.find((r) => r.v !== r.text)));
    const nul = await client.query({ text: `SELECT NULL::${t} AS v, NULL::${t}[] AS a, $1::int AS i`, values: [1], binary: true });
    check(`${t}: binary: true, NULL and a NULL ${t}[] read as null`, nul.rows[0].v === null && nul.rows[0].a === null, JSON.stringify(nul.rows[0]));

    // Arrays: built by the server from the values, their JSON (array_to_json of v::text) the truth.
    const v = `v_${t}`;
    const arrays = {
      '1-D of every value and a NULL': `SELECT array_agg(${v} ORDER BY n) || NULL::${t} FROM vals WHERE t = '${t}'`,
      '2-D of pairs': `SELECT array_agg(ARRAY[${v}, ${v}] ORDER BY n) FROM vals WHERE t = '${t}' AND n <= 500`,
      '2-D with NULLs': `SELECT array_agg(ARRAY[${v}, NULL, ${v}] ORDER BY n) FROM vals WHERE t = '${t}' AND n % 7 = 3`,
      '3-D': `SELECT ARRAY[[[a.${v}, NULL], [b.${v}, a.${v}]], [[NULL::${t}, NULL], [b.${v}, b.${v}]]] FROM vals a, vals b WHERE a.t = '${t}' AND b.t = '${t}' AND a.n = 1 AND b.n = 2`,
      'empty': `SELECT '{}'::${t}[]`,
      'all NULL': `SELECT ARRAY[NULL, NULL]::${t}[]`,
      'one element': `SELECT ARRAY[${v}] FROM vals WHERE t = '${t}' AND n = 2`,
      'lower bound 0': `SELECT ('[0:1]=' || format('%s', ARRAY[${v}, NULL]))::${t}[] FROM vals WHERE t = '${t}' AND n = 3`,
      'lower bounds -2 and 5, 2-D': `SELECT ('[-2:-1][5:6]=' || format('%s', ARRAY[[a.${v}, b.${v}], [NULL, a.${v}]]))::${t}[] FROM vals a, vals b WHERE a.t = '${t}' AND b.t = '${t}' AND a.n = 4 AND b.n = 5`,
    };
    for (const [k, q] of Object.entries(arrays)) await client.query(`INSERT INTO arrs (t, k, a_${t}) SELECT $1, $2, (${q})`, [t, k]);
    const { rows: arows } = await client.query(`SELECT k, a_${t}::text AS text, array_to_json(a_${t}::text[]) AS want, array_send(a_${t}) AS b,
        array_lower(a_${t}, 1) AS lo FROM arrs WHERE t = $1 ORDER BY k`, [t]);
    const want = arows.map((r) => r.want);
    check(`${t}[]: ${arows.length} arrays, lower bounds ${JSON.stringify([...new Set(arows.map((r) => r.lo))])}`, arows.length === Object.keys(arrays).length);
    compare(`${t}[]: parseIdArrayBinary of the server's bytes (array_send) is the server's text (array_to_json of ::text[])`,
      arows.map((r) => parseIdArrayBinary(r.b, t, oid)), want);
    compare(`${t}[]: the binary parser registerTypes sets (byte-exact client) reads the server's bytes as its text`,
      arows.map((r) => exactParsers.get(`${typarray} binary`)(r.b)), want);
    compare(`${t}[]: the text parser (parseIdArray) reads the array's text as the same`, arows.map((r) => parseIdArray(r.text)), want);
    const aparse = client.getTypeParser(typarray, 'binary');
    compare(`${t}[]: the binary parser of this client reads the server's bytes as its text (or refuses bytes holding EF BF BD)`,
      arows.map((r, i) => attempt(() => aparse(r.b))).map((m, i) => (m.error && refusable(arows[i].b, m.error) ? want[i] : m.error ? String(m.error) : m.value)), want);
    const aread = [];
    for (const r of arows) {
      aread.push(await client.query({ text: `SELECT a_${t} AS a FROM arrs WHERE t = $1 AND k = $2`, values: [t, r.k], binary: true })
        .then((x) => ({ value: x.rows[0].a }), (error) => ({ error })));
    }
    const aok = aread.filter((x, i) => !x.error && same(x.value, want[i])).length;
    const ano = aread.filter((x) => x.error && ALTERED.test(x.error.message)).length;
    check(`${t}[]: binary: true, ${arows.length} arrays: ${aok} read as the server's text, ${ano} refused with the error naming node-postgres's alteration, none else`,
      aok + ano === arows.length && (!exact || ano === 0), JSON.stringify(aread.filter((x, i) => !(x.error ? ALTERED.test(x.error.message) : same(x.value, want[i]))).slice(0, 2)));

    // Malformed bytes.
    const one = arows.find((r) => r.k === 'one element').b;
    await checkThrows(`${t}: idFromBinary refuses ${SIZE[t] - 1} bytes`, async () => idFromBinary(t, Buffer.alloc(SIZE[t] - 1)), /is \d+ bytes in binary format, not \d+/);
    await checkThrows(`${t}[]: parseIdArrayBinary refuses an array cut short`, async () => parseIdArrayBinary(one.subarray(0, one.length - 1), t, oid), /not a .*\[\] in binary format/);
    await checkThrows(`${t}[]: parseIdArrayBinary refuses another element type`, async () => parseIdArrayBinary(one, t, oid + 1), /elements of type oid/);
    await checkThrows(`${t}[]: parseIdArrayBinary refuses bytes after the last element`, async () => parseIdArrayBinary(Buffer.concat([one, Buffer.of(0)]), t, oid), /after its last element/);
  }
  console.log(`${total} values in all`);

  // A client made with { binary: true } reads every result of a query with parameters in binary
  // format: registerTypes there too (its catalog query's oids), then values and arrays.
  const bin = new pg.Client({ ...connection(), binary: true });
  await bin.connect();
  const binFound = await registerTypes(bin);
  check('pg.Client({ binary: true }): registerTypes finds the same oids', same(binFound, found), JSON.stringify(binFound));
  const b = await bin.query(`SELECT v_ulid AS v, v_ulid::text AS text FROM vals WHERE t = 'ulid' AND kind = $1 ORDER BY n`, ['ascii']);
  check(`pg.Client({ binary: true }): ${b.rows.length} ulid values read in binary format as the server's text`,
    b.fields[0].format === 'binary' && b.rows.length === 1000 && b.rows.every((r) => r.v === r.text));
  await bin.end();

  // A pool: the binary parsers on its clients.
  const pool = new pg.Pool({ ...connection(), max: 2 });
  await registerTypes(pool);
  const p = await pool.query({ text: `SELECT v_euid AS v, v_euid::text AS text FROM vals WHERE t = 'euid' AND kind = $1 ORDER BY n`, values: ['ascii'], binary: true });
  check(`pg.Pool: ${p.rows.length} euid values read in binary format as the server's text`,
    p.fields[0].format === 'binary' && p.rows.length === 1000 && p.rows.every((r) => r.v === r.text));
  await pool.end();

  // Parameters: node-postgres sends a string as text, the server reads it as the type; a Buffer
  // goes in binary format, read by the type's binary input.
  const par = await client.query('SELECT $1::ulid::text AS s, $2::ulid::text AS b', ['01arz3ndektsv4rrffq69g5fav', Buffer.from('01563e3ab5d3d6764c61efb99302bd5b', 'hex')]);
  check('parameters: a string and a 16-byte Buffer read by the server as the ulid', par.rows[0].s === '01ARZ3NDEKTSV4RRFFQ69G5FAV' && par.rows[0].b === '01ARZ3NDEKTSV4RRFFQ69G5FAV', JSON.stringify(par.rows[0]));
  await client.end();
});
