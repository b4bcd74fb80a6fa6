#!/usr/bin/env node
// idtypes from Node.js with node-postgres (pg), text format.
//
// Connects with the usual environment (PGHOST, PGPORT, PGUSER, PGDATABASE; a unix socket directory
// as PGHOST works) and:
// - looks up the OIDs of the five types (and of their arrays) in pg_type and registers a type
//   parser for each with pg.types.setTypeParser: a column of an idtypes type reads as an IdValue
//   (the canonical text, the type, and the value as a BigInt decoded by the small codecs below),
//   which goes back to the server as its text (toPostgres);
// - creates a table with a column of each type, generated defaults, and generated rows;
// - makes IDs on the client (a chosen time plus random bits), inserts them as parameters, reads
//   them back through the parsers, inserts the IdValue objects read back as parameters again, and
//   checks every value is exactly what was sent; checks the decoded values of every row against
//   the server's casts (numeric, bigint, uuid) and the server's accessors against the chosen times;
// - queries by `^@` prefix, by `<@ <type>_time_range($1)` and (ulid, euid) by `= $1::uuid` in named
//   prepared statements with plan_cache_mode = force_generic_plan: the rows must be the expected
//   ones, the statement must have run with a generic plan (pg_prepared_statements), and that plan,
//   EXPLAINed through a server-side PREPARE of the same text and parameter types, must be a btree
//   index range scan.
// Prints one line per check ("ok: ..." or "FAILED: ...") and exits 1 if any check failed.
'use strict';

const crypto = require('crypto');
const pg = require('pg');

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const SORTABLE32 = '234567abcdefghijklmnopqrstuvwxyz'; // atproto TID
const CROCKFORD32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const XID_EPOCH_MS = BigInt(Date.UTC(2011, 10, 11, 11, 11, 11, 111));
const ULIDFLAKE_EPOCH_MS = BigInt(Date.UTC(2024, 0, 1));

// Each type: text width and alphabet, bits under the time field, the time's epoch and unit (us per
// unit), and whether the text carries the EUID check (value mod 127 in 7 more bits).
const CODECS = {
  uid11: { column: 'x', alphabet: BASE58, width: 11, shift: 22n, epochUs: XID_EPOCH_MS * 1000n, unitUs: 1000n,
    generator: 'generate_xid()', timeFn: 'xid_timestamp', max: (1n << 64n) - 1n, serverValue: 'x::numeric::text' },
  timeid: { column: 't', alphabet: SORTABLE32, width: 13, shift: 10n, epochUs: 0n, unitUs: 1n,
    generator: 'generate_tid()', timeFn: 'timeid_timestamp', max: (1n << 63n) - 1n, serverValue: 't::bigint::text' },
  ulidflake: { column: 'f', alphabet: CROCKFORD32, width: 13, shift: 20n, epochUs: ULIDFLAKE_EPOCH_MS * 1000n, unitUs: 1000n,
    generator: 'generate_ulidflake()', timeFn: 'ulidflake_timestamp', max: (1n << 63n) - 1n, serverValue: 'f::bigint::text' },
  ulid: { column: 'u', alphabet: CROCKFORD32, width: 26, shift: 80n, epochUs: 0n, unitUs: 1000n,
    generator: 'generate_ulid()', timeFn: 'ulid_timestamp', max: (1n << 128n) - 1n, serverValue: 'u::uuid::text' },
  euid: { column: 'e', alphabet: CROCKFORD32, width: 27, shift: 83n, epochUs: 0n, unitUs: 1000n, check: true,
    generator: 'generate_euid()', timeFn: 'euid_timestamp', max: (1n << 128n) - 1n, serverValue: 'e::uuid::text' },
};
const TYPES = Object.keys(CODECS);

function encode(type, value) {
  const c = CODECS[type];
  let n = c.check ? (value << 7n) | (value % 127n) : value;
  const base = BigInt(c.alphabet.length);
  let out = '';
  for (let i = 0; i < c.width; i++) {
    out = c.alphabet[Number(n % base)] + out;
    n /= base;
  }
  if (n !== 0n) throw new RangeError(`${type}: value too large`);
  return out;
}

function decode(type, text) {
  const c = CODECS[type];
  const base = BigInt(c.alphabet.length);
  let n = 0n;
  for (const ch of text) {
    const digit = c.alphabet.indexOf(ch);
    if (digit < 0) throw new SyntaxError(`${type}: bad symbol '${ch}' in ${text}`);
    n = n * base + BigInt(digit);
  }
  if (!c.check) return n;
  const value = n >> 7n;
  if ((n & 127n) !== value % 127n) throw new SyntaxError(`euid: bad check symbol in ${text}`);
  return value;
}

// The ID of a time (microseconds since 1970, BigInt) with `low` below the time field.
function make(type, us, low) {
  const c = CODECS[type];
  return (((us - c.epochUs) / c.unitUs) << c.shift) | low;
}

function randomBits(bits) {
  const bytes = crypto.randomBytes(Math.ceil(bits / 8));
  return BigInt('0x' + bytes.toString('hex')) & ((1n << BigInt(bits)) - 1n);
}

// What a column of an idtypes type reads as (through the parsers registered below).
class IdValue {
  constructor(type, text) {
    this.type = type;
    this.text = text;
    this.value = decode(type, text); // BigInt; for ulid and euid the 128 bits of the uuid form
  }
  get uuid() { // ulid, euid: the uuid text of the same 16 bytes
    const h = this.value.toString(16).padStart(32, '0');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
  toString() { return this.text; }
  toPostgres() { return this.text; } // node-postgres sends this as the parameter's text
}

// Look up the OIDs of the types (and their array types) and register a parser for each.
async function registerIdtypes(client) {
  const { rows } = await client.query(
    `SELECT t.typname, t.oid::int AS oid, t.typarray::int AS typarray FROM pg_type t
      WHERE t.typname = ANY($1)
        AND t.typnamespace = (SELECT extnamespace FROM pg_extension WHERE extname = 'idtypes')`, [TYPES]);
  if (rows.length !== TYPES.length) throw new Error(`found ${rows.length} of the 5 idtypes types`);
  const oids = {};
  for (const { typname, oid, typarray } of rows) {
    oids[typname] = oid;
    pg.types.setTypeParser(oid, 'text', (text) => new IdValue(typname, text));
    // An array of IDs prints as {A,B,NULL}: the symbols need no quoting.
    pg.types.setTypeParser(typarray, 'text', (text) => (text === '{}' ? [] : text.slice(1, -1).split(','))
      .map((s) => (s === 'NULL' ? null : new IdValue(typname, s))));
  }
  return oids;
}

let checks = 0;
let failures = 0;
function check(ok, what, detail) {
  checks++;
  if (ok) {
    console.log(`ok: ${what}`);
  } else {
    failures++;
    console.log(`FAILED: ${what}${detail ? `: ${detail}` : ''}`);
  }
}

// A failing query fails its check (with the server's message) and the example goes on.
async function guarded(what, fn) {
  try {
    await fn();
  } catch (err) {
    if (!(err instanceof pg.DatabaseError)) throw err;
    check(false, what, `${err.code}: ${err.message}`);
  }
}

const isoUs = (us) => new Date(Number(us / 1000n)).toISOString().slice(0, 23) + String(us % 1000n).padStart(3, '0');

let planNo = 0;
// The named statement (found by its marker comment) ran with a generic plan, and that plan, EXPLAINed
// through a server-side PREPARE of the same text and parameter types, reads a btree index range
// with the parameter in the index condition.
async function checkGenericPlan(client, marker, what, param) {
  const { rows } = await client.query(
    `SELECT statement, parameter_types::text[] AS types, to_jsonb(p) AS info FROM pg_prepared_statements p
      WHERE NOT from_sql AND strpos(statement, $1) > 0`, [marker]);
  if (rows.length !== 1) {
    check(false, `${what}: driver statement prepared`, `${rows.length} statements in pg_prepared_statements`);
    return;
  }
  const { statement, types, info } = rows[0];
  if ('generic_plans' in info) { // PostgreSQL 14+
    check(info.generic_plans >= 1 && info.custom_plans === 0, `${what}: ran with a generic plan (${types.join(', ')})`,
      `generic_plans ${info.generic_plans}, custom_plans ${info.custom_plans}`);
  }
  const name = `check_plan_${++planNo}`;
  await client.query(`PREPARE ${name} (${types.join(', ')}) AS ${statement}`);
  const explain = await client.query(`EXPLAIN EXECUTE ${name} (${client.escapeLiteral(String(param))})`);
  await client.query(`DEALLOCATE ${name}`);
  const lines = explain.rows.map((r) => r['QUERY PLAN']);
  const plan = lines.join('\n');
  const scan = plan.match(/(Index Scan|Index Only Scan|Bitmap Index Scan) using (\S+)/);
  const cond = lines.filter((l) => l.includes('Index Cond') && l.includes('$1')).map((l) => l.trim());
  check(scan && cond.length > 0 && !plan.includes('Seq Scan'),
    `${what}: generic plan is ${scan ? scan[0] : 'no index scan'}, ${cond[0] || 'no Index Cond on $1'}`, `\n${plan}`);
}

async function main() {
  const client = new pg.Client();
  await client.connect();
  try {
    const version = (await client.query('SHOW server_version')).rows[0].server_version;
    console.log(`node ${process.version}, pg ${require('pg/package.json').version}, server ${version}`);
    await client.query('SET client_min_messages = warning');
    await client.query('CREATE EXTENSION IF NOT EXISTS idtypes');
    await client.query('SET plan_cache_mode = force_generic_plan');
    await client.query("SET TimeZone = 'UTC'");
    const oids = await registerIdtypes(client);
    console.log(`type OIDs: ${TYPES.map((t) => `${t} ${oids[t]}`).join(', ')}`);

    const cols = TYPES.map((t) => CODECS[t].column);
    await client.query('DROP TABLE IF EXISTS example_ids');
    await client.query(`CREATE TABLE example_ids (label text PRIMARY KEY, ${
      TYPES.map((t) => `${CODECS[t].column} ${t} NOT NULL DEFAULT ${CODECS[t].generator}`).join(', ')})`);
    for (const c of cols) await client.query(`CREATE INDEX example_ids_${c} ON example_ids (${c})`);
    await client.query("INSERT INTO example_ids (label) SELECT 'gen-' || g FROM generate_series(1, 2000) g");
    await client.query('ANALYZE example_ids');

    // Six rows 90 s apart with a random sub-second part, and the smallest and largest IDs.
    const baseUs = BigInt(Date.UTC(2024, 6, 1, 10, 0, 0)) * 1000n;
    const made = {}; // label -> {type: BigInt}
    const timeUs = {}; // label -> microseconds since 1970 (exact for timeid; the others keep the ms)
    for (let i = 0; i < 6; i++) {
      const us = baseUs + BigInt(90e6 * i) + BigInt(crypto.randomInt(1e6));
      timeUs[`node-${i}`] = us;
      made[`node-${i}`] = {
        uid11: make('uid11', us, randomBits(22)),
        timeid: make('timeid', us, randomBits(10)),
        ulidflake: make('ulidflake', us, randomBits(20)),
        ulid: make('ulid', us, randomBits(80)),
        euid: make('euid', us, (randomBits(15) << 68n) | randomBits(64)), // no extension (length 0)
      };
    }
    made['node-min'] = Object.fromEntries(TYPES.map((t) => [t, 0n]));
    made['node-max'] = Object.fromEntries(TYPES.map((t) => [t, CODECS[t].max]));
    const insert = `INSERT INTO example_ids (label, ${cols.join(', ')}) VALUES ($1, $2, $3, $4, $5, $6)`;
    for (const [label, ids] of Object.entries(made)) {
      await client.query(insert, [label, ...TYPES.map((t) => encode(t, ids[t]))]);
    }

    // Read back through the parsers: IdValue objects with exactly the values sent.
    const select = `SELECT label, ${cols.join(', ')} FROM example_ids WHERE label LIKE $1 ORDER BY label`;
    const back = (await client.query(select, ['node-%'])).rows;
    let bad = [];
    for (const r of back) {
      for (const t of TYPES) {
        const v = r[CODECS[t].column];
        if (!(v instanceof IdValue) || v.type !== t || v.value !== made[r.label][t] || v.text !== encode(t, made[r.label][t])) {
          bad.push(`${r.label} ${t}: ${v}`);
        }
      }
    }
    check(bad.length === 0 && back.length === Object.keys(made).length,
      `${back.length} rows x 5 types inserted as text parameters read back as IdValue, exactly`, bad.slice(0, 3).join('; '));

    // The IdValue objects themselves as parameters (toPostgres), then read back once more.
    for (const r of back) {
      await client.query(insert, [`copy-${r.label}`, ...cols.map((c) => r[c])]);
    }
    const copies = (await client.query(select, ['copy-node-%'])).rows;
    bad = copies.filter((r) => TYPES.some((t) => r[CODECS[t].column].value !== made[r.label.slice(5)][t]))
      .map((r) => r.label);
    check(bad.length === 0 && copies.length === back.length,
      `${copies.length} rows inserted again with the IdValue objects as parameters read back exactly`, bad.join(', '));

    // Every row (generated defaults too): the client's decoding against the server's own casts.
    const all = (await client.query(
      `SELECT label, ${cols.join(', ')}, ${TYPES.map((t, i) => `${CODECS[t].serverValue} AS s${i}`).join(', ')} FROM example_ids`)).rows;
    bad = [];
    for (const r of all) {
      TYPES.forEach((t, i) => {
        const v = r[CODECS[t].column];
        const server = r[`s${i}`];
        const ok = t === 'ulid' || t === 'euid' ? v.uuid === server : v.value === BigInt(server);
        if (!ok) bad.push(`${r.label} ${t}: ${v.text} decodes to ${v.value}, server says ${server}`);
      });
    }
    check(bad.length === 0, `all ${all.length} rows: decoded values equal the server's casts (uid11::numeric, ::bigint, ::uuid)`,
      bad.slice(0, 3).join('; '));

    // The server reads the chosen times out of the client-made IDs.
    const timeLabels = Object.keys(timeUs);
    const times = (await client.query(
      `SELECT label, ${TYPES.map((t) => `to_char(${CODECS[t].timeFn}(${CODECS[t].column}), 'YYYY-MM-DD"T"HH24:MI:SS.US') AS ${t}`).join(', ')},
              timeid_clock_id(t) AS clock_id, euid_extension(e) AS extension
         FROM example_ids WHERE label = ANY($1)`, [timeLabels])).rows;
    bad = [];
    for (const r of times) {
      for (const t of TYPES) {
        const want = t === 'timeid' ? timeUs[r.label] : timeUs[r.label] / 1000n * 1000n;
        if (r[t] !== isoUs(want)) bad.push(`${r.label} ${t}: ${r[t]}, want ${isoUs(want)}`);
      }
      if (BigInt(r.clock_id) !== (made[r.label].timeid & 1023n)) bad.push(`${r.label} clock id ${r.clock_id}`);
      if (r.extension !== null) bad.push(`${r.label} euid extension ${r.extension}`);
    }
    check(bad.length === 0 && times.length === timeLabels.length,
      `server accessors give the times the client encoded (${times.length} rows x 5 types, ms; timeid us)`, bad.slice(0, 3).join('; '));

    // Arrays through the array parsers.
    const arr = (await client.query(
      "SELECT array_agg(x ORDER BY label) AS xs, array_agg(e ORDER BY label) AS es FROM example_ids WHERE label LIKE 'node-%'")).rows[0];
    const sorted = Object.keys(made).sort();
    check(arr.xs.length === sorted.length && arr.xs.every((v, i) => v.value === made[sorted[i]].uid11)
      && arr.es.every((v, i) => v.value === made[sorted[i]].euid), `uid11[] and euid[] read back element by element`);

    // Named prepared statements with bound parameters, generic plans.
    const want3 = ['node-1', 'node-2', 'node-3'];
    const wantWindow = [...want3.map((l) => `copy-${l}`), ...want3].sort(); // rows 1..3 and their copies
    for (const t of TYPES) {
      const c = CODECS[t];
      // ^@: the common prefix of rows 1 and 3 (so row 2 has it too); expected from every row's text.
      await guarded(`${t} ^@ $1`, async () => {
        const a = encode(t, made['node-1'][t]);
        const b = encode(t, made['node-3'][t]);
        let k = 0;
        while (k < a.length && a[k] === b[k]) k++;
        const prefix = a.slice(0, k);
        const want = all.filter((r) => r[c.column].text.startsWith(prefix)).map((r) => r.label).sort();
        const marker = `[prefix node ${t}]`;
        const got = (await client.query({ name: `prefix-${t}`, text: `SELECT label /* ${marker} */ FROM example_ids WHERE ${c.column} ^@ $1`, values: [prefix] }))
          .rows.map((r) => r.label).sort();
        check(JSON.stringify(got) === JSON.stringify(want) && want3.every((l) => got.includes(l)),
          `${t} ^@ '${prefix}' -> ${got.length} rows, as expected`, `got ${got}, want ${want}`);
        await checkGenericPlan(client, marker, `${t} ^@ $1`, prefix);
      });

      // <@ time range: rows 1..3 (90 s apart) and their copies; expected from every row's decoded time.
      await guarded(`${t} <@ ${t}_time_range($1)`, async () => {
        const loUs = baseUs + 90000000n;
        const hiUs = baseUs + 360000000n;
        const window = `[${new Date(Number(loUs / 1000n)).toISOString()},${new Date(Number(hiUs / 1000n)).toISOString()})`;
        const loUnit = (loUs - c.epochUs) / c.unitUs;
        const hiUnit = (hiUs - c.epochUs) / c.unitUs;
        const want = all.filter((r) => { const u = r[c.column].value >> c.shift; return u >= loUnit && u < hiUnit; })
          .map((r) => r.label).sort();
        const marker = `[range node ${t}]`;
        const got = (await client.query({ name: `range-${t}`, text: `SELECT label /* ${marker} */ FROM example_ids WHERE ${c.column} <@ ${t}_time_range($1)`, values: [window] }))
          .rows.map((r) => r.label).sort();
        check(JSON.stringify(got) === JSON.stringify(want) && JSON.stringify(want) === JSON.stringify(wantWindow),
          `${t} <@ ${t}_time_range('${window}') -> ${got}`, `by decoding ${want}, by construction ${wantWindow}`);
        await checkGenericPlan(client, marker, `${t} <@ ${t}_time_range($1)`, window);
      });

      // = uuid (ulid, euid): the uuid form of the value, a parameter typed uuid.
      if (t === 'ulid' || t === 'euid') {
        await guarded(`${t} = $1::uuid`, async () => {
          const key = back.find((r) => r.label === 'node-2')[c.column].uuid;
          const marker = `[uuid node ${t}]`;
          const got = (await client.query({ name: `uuid-${t}`, text: `SELECT label, ${c.column} /* ${marker} */ FROM example_ids WHERE ${c.column} = $1::uuid`, values: [key] })).rows;
          check(got.length === 2 && got.every((r) => r[c.column].value === made['node-2'][t])
            && got.map((r) => r.label).sort().join() === 'copy-node-2,node-2',
          `${t} = '${key}'::uuid finds its row and its copy`, JSON.stringify(got.map((r) => r.label)));
          await checkGenericPlan(client, marker, `${t} = $1::uuid`, key);
        });
      }
    }
  } finally {
    await client.end();
  }
  console.log(`${checks} checks, ${failures} failed`);
  process.exitCode = failures ? 1 : 0;
}

main().catch((err) => {
  console.log(`FAILED: ${err.stack || err}`);
  process.exitCode = 1;
});
