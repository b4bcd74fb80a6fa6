// Shared by the ORM test programs: checks that print "ok: ..." / "FAILED: ...", the rows every
// program seeds, and EXPLAIN through node-postgres. Connection from PGHOST, PGPORT, PGUSER,
// PGDATABASE (set by test/scripts/orm_node.py).
import pg from 'pg';

let checks = 0;
let failed = 0;

export function check(what, cond, detail = '') {
  checks++;
  if (cond) {
    console.log(`ok: ${what}`);
  } else {
    failed++;
    console.log(`FAILED: ${what}${detail ? `: ${detail}` : ''}`);
  }
}

export async function checkThrows(what, fn, pattern) {
  try {
    await fn();
    check(what, false, 'no error');
  } catch (e) {
    check(what, pattern.test(String(e?.message ?? e)), String(e?.message ?? e));
  }
}

// run(main): the program's body; an exception is a failed check, and the summary line ends it.
export async function run(main) {
  try {
    await main();
  } catch (e) {
    check('the program ran to its end', false, e?.stack ?? String(e));
  }
  if (pool) await pool.end();
  console.log(`${checks} checks, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

export const connection = () => ({
  host: process.env.PGHOST,
  port: Number(process.env.PGPORT),
  user: process.env.PGUSER,
  database: process.env.PGDATABASE,
});

export const ULID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;
export const sameSet = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

// The window every program queries: [W_LO, W_HI).
export const W_LO = new Date('2026-03-01T00:00:00Z');
export const W_HI = new Date('2026-03-02T00:00:00Z');

// seed(table): 3000 rows an hour apart from 2025-12-01 (so 24 in the window [W_LO, W_HI),
// and a 7-character prefix selects a few), then ANALYZE. The ORM made the table: an id column of
// type ulid, a name column of type text, any other column with a default.
export async function seed(table) {
  const client = own();
  await client.query(`INSERT INTO ${table} (id, name)
    SELECT generate_ulid_at(timestamptz '2025-12-01 00:00+00' + i * interval '1 hour' + interval '17 s'), 'seed ' || i
    FROM generate_series(1, 3000) i`);
  await client.query(`ANALYZE ${table}`);
}

// truth(table, where, params): the ids the plain SQL condition selects.
export async function truth(table, where, params = []) {
  const client = own();
  const r = await client.query(`SELECT id::text AS id FROM ${table} WHERE ${where}`, params);
  return r.rows.map((x) => x.id);
}

// plan(sql, params): EXPLAIN of a statement as the ORM sends it (a custom plan).
export async function plan(sql, params = []) {
  const client = own();
  const r = await client.query(`EXPLAIN ${sql}`, params);
  return r.rows.map((x) => x['QUERY PLAN']).join('\n');
}

export const usesIndex = (p) => /Index (Only )?Scan/.test(p) && /Index Cond/.test(p) && !/Seq Scan/.test(p);

// Whether this server has LIKE on the ID types (the operator ulid ~~ text).
export async function hasLike() {
  const client = own();
  const r = await client.query(`SELECT 1 FROM pg_operator WHERE oprname = '~~' AND oprleft = 'ulid'::regtype`);
  return r.rowCount > 0;
}

// The checks' own connections (node-postgres), apart from the ORM's.
let pool;
const own = () => (pool ??= new pg.Pool(connection()));
