// ids_client.mjs: the Node.js side of test/clients/client_ids.py (idtypes/ids, imported by its
// package name as a user does). The same commands as ids_client.py:
//   node ids_client.mjs make   < "TYPE KIND N" lines
//   node ids_client.mjs view [plain]   < "TYPE<TAB>hex" (or "TYPE<TAB>text") lines
import * as ids from 'idtypes/ids';
import { createInterface } from 'node:readline';

const cap = (t) => t[0].toUpperCase() + t.slice(1);

// The wall clock in µs, as idtypes/ids reads it: Date.now()'s millisecond with the microseconds of
// performance.now().
function wallUs() {
  const ms = Date.now();
  const us = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  return Math.min(Math.max(us, ms * 1000), ms * 1000 + 999);
}

function make(type, kind, n) {
  const opts = {};
  for (const part of kind.split(',')) {
    if (part === '-') continue;
    if (part === 'monotonic') {
      opts.monotonic = true;
      continue;
    }
    const [key, value] = part.split('=');
    opts[{ node: 'nodeId', clock: 'clockId', sid: 'sid', ext: 'extension' }[key]] = Number(value);
  }
  const fn = ids[`new${cap(type)}`];
  const made = new Array(n);
  const before = new Array(n);
  for (let i = 0; i < n; i++) {
    before[i] = wallUs();
    made[i] = fn(opts);
  }
  return made.map((id, i) => `${type}\t${kind}\t${i + 1}\t${id}\t${before[i]}\n`).join('');
}

function view(type, text) {
  let p;
  try {
    p = ids[`parse${cap(type)}`](text);
  } catch (e) {
    if (e instanceof ids.InvalidIdError && e instanceof RangeError) {
      return `ERR:${e.code}${ids[`isValid${cap(type)}`](text) ? '!valid' : ''}`;
    }
    return `EXC:${e.name}`;
  }
  if (!ids[`isValid${cap(type)}`](text)) return 'EXC:isValid';
  const ts = ids[`${type}Timestamp`](text);
  let us = BigInt(ts.getTime()) * 1000n;
  if (type === 'timeid') {
    if (Math.floor(p.unixUs / 1000) !== ts.getTime()) return 'EXC:time';
    us = BigInt(p.unixUs);
    if (ids.timeidDashed(text).replaceAll('-', '') !== ids.formatTimeid(p.value)) return 'EXC:dashed';
  }
  const width = ['uid11', 'timeid', 'ulidflake'].includes(type) ? 16 : 32;
  const field = { uid11: p.random, timeid: p.clockId, ulidflake: p.sid, ulid: null, euid: p.extension }[type];
  return [ids[`format${cap(type)}`](p.value), p.value.toString(16).padStart(width, '0'), String(us),
    field === null || field === undefined ? '-' : String(field)].join('|');
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === 'make') {
  const out = [];
  for await (const line of createInterface({ input: process.stdin })) {
    const [type, kind, n] = line.trim().split(/\s+/);
    out.push(make(type, kind, Number(n)));
  }
  process.stdout.write(out.join(''));
} else if (cmd === 'view') {
  const lines = [];
  for await (const line of createInterface({ input: process.stdin })) {
    const [type, hex] = line.split('\t');
    lines.push(`${type}\t${hex}\t${view(type, args[0] === 'plain' ? hex : Buffer.from(hex, 'hex').toString('utf8'))}`);
  }
  process.stdout.write(lines.length ? `${lines.join('\n')}\n` : '');
}
