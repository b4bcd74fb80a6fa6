// Drizzle ORM + drizzle-kit with idtypes/drizzle: generate and push emit the ID types and find no
// change a second time; insert, get by a string id, ^@ prefix, <@ window (index scans), a foreign
// key join, like() (through LIKE on the ID types, where the server has it).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { eq, like, and } from 'drizzle-orm';
import pg from 'pg';
import { prefix, inTimeRange } from 'idtypes/drizzle';
import { events, tickets } from './drizzle_schema.ts';
import { check, run, connection, ULID_RE, sameSet, W_LO, W_HI, seed, truth, plan, usesIndex, hasLike } from './common.mjs';

const here = import.meta.dirname ?? new URL('.', import.meta.url).pathname;
const c = connection();
const url = `postgresql://${c.user}@localhost:${c.port}/${c.database}?host=${encodeURIComponent(c.host)}`;
const kit = (...args) => {
  const schema = args[0] === 'pull' ? [] : ['--schema', join(here, 'drizzle_schema.ts')];
  const r = spawnSync(join(here, 'node_modules/.bin/drizzle-kit'),
    [...args, '--dialect', 'postgresql', ...schema], { cwd: here, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
};

run(async () => {
  // drizzle-kit generate: the migration names our types; a second generate has nothing to do.
  // (drizzle-kit 0.31 takes --out relative to the working directory.)
  const out = 'drizzle-out';
  let r = kit('generate', '--out', out);
  const file = readdirSync(join(here, out)).find((f) => f.endsWith('.sql'));
  const ddl = file ? readFileSync(join(here, out, file), 'utf8') : '';
  check('drizzle-kit generate exits 0', r.status === 0, r.out);
  check('generate: "id" "ulid" PRIMARY KEY DEFAULT generate_ulid()', ddl.includes('"id" "ulid" PRIMARY KEY DEFAULT generate_ulid()'), ddl);
  check('generate: timeid, uid11 (generate_uid11_xid()), ulidflake, euid columns with their generators, seq with the one named',
    /"tid" "?timeid"? DEFAULT generate_timeid\(\) NOT NULL/.test(ddl) && ddl.includes('"u11" "uid11" DEFAULT generate_uid11_xid()') && ddl.includes('"seq" "ulid" DEFAULT generate_ulid_monotonic()') &&
      ddl.includes('"flake" "ulidflake" DEFAULT generate_ulidflake()') && ddl.includes('"eu" "euid" DEFAULT generate_euid()'), ddl);
  check('generate: the foreign key column is a ulid', ddl.includes('"event_id" "ulid" NOT NULL') && /FOREIGN KEY \("event_id"\)/.test(ddl), ddl);
  r = kit('generate', '--out', out);
  check('a second drizzle-kit generate finds no change', r.status === 0 && /No schema changes/.test(r.out), r.out);

  // drizzle-kit push, twice.
  r = kit('push', '--url', url, '--force');
  check('drizzle-kit push exits 0', r.status === 0 && /Changes applied/.test(r.out), r.out);
  r = kit('push', '--url', url, '--force');
  check('a second drizzle-kit push finds no change', r.status === 0 && /No changes detected/.test(r.out), r.out);

  // drizzle-kit pull: shown, not asserted (the doc describes its misreads: unknown(), time()).
  r = kit('pull', '--url', url, '--out', 'drizzle-pull');
  let pulled = '';
  try { pulled = readFileSync(join(here, 'drizzle-pull', 'schema.ts'), 'utf8'); } catch { /* shown below */ }
  const misread = pulled.split('\n').filter((l) => /unknown\(|time\(|TODO/.test(l)).map((l) => l.trim());
  console.log(`note: drizzle-kit pull (exit ${r.status}) reads: ${misread.join(' ') || r.out.slice(-300)}`);

  const pool = new pg.Pool(c);
  const db = drizzle(pool);
  const types = await pool.query(`SELECT table_name || '.' || column_name || ' ' || udt_name AS t FROM information_schema.columns
    WHERE table_name IN ('dz_events', 'dz_tickets') AND udt_name <> 'text' ORDER BY 1`);
  check('push made the columns our types', types.rows.map((x) => x.t).join(', ') ===
    'dz_events.eu euid, dz_events.flake ulidflake, dz_events.id ulid, dz_events.seq ulid, dz_events.tid timeid, dz_events.u11 uid11, dz_tickets.event_id ulid, dz_tickets.id uid11',
    types.rows.map((x) => x.t).join(', '));

  // Insert with the database's defaults, the id back by RETURNING, get by the string id.
  const [row] = await db.insert(events).values({ name: 'launch' }).returning();
  check('insert returns a ULID id (a string)', typeof row.id === 'string' && ULID_RE.test(row.id), JSON.stringify(row));
  check('insert returns the other generated columns as strings', [row.tid, row.u11, row.flake, row.eu].every((v) => typeof v === 'string' && v.length > 0), JSON.stringify(row));
  // The defaults: each type's generator (uid11: generate_uid11_xid(), time-ordered), or the one named.
  const defaults = await pool.query(`SELECT column_name || ' ' || column_default AS d FROM information_schema.columns
    WHERE table_name = 'dz_events' AND column_default IS NOT NULL ORDER BY 1`);
  check('column defaults: generate_uid11_xid() for uid11, generate_timeid() for timeid, the generator named for seq',
    defaults.rows.map((x) => x.d).join(', ') === 'eu generate_euid(), flake generate_ulidflake(), id generate_ulid(), seq generate_ulid_monotonic(), tid generate_timeid(), u11 generate_uid11_xid()',
    defaults.rows.map((x) => x.d).join(', '));
  // A window open at its upper end finds the new row by each generated column: by its uid11 too.
  const since = new Date(Date.now() - 600e3);
  for (const c of ['id', 'tid', 'u11', 'flake', 'eu', 'seq']) {
    const found = await db.select({ id: events.id }).from(events).where(inTimeRange(events[c], since, null));
    check(`inTimeRange(${c}, lo, null) finds the new row`, found.length === 1 && found[0].id === row.id, JSON.stringify(found));
  }
  const got = await db.select().from(events).where(eq(events.id, row.id));
  check('get by a string id', got.length === 1 && got[0].name === 'launch' && got[0].tid === row.tid, JSON.stringify(got));

  // Foreign key: a ticket for the event, joined back.
  const [t] = await db.insert(tickets).values({ eventId: row.id, note: 'front row' }).returning();
  const joined = await db.select({ name: events.name, note: tickets.note, tid: tickets.id }).from(tickets)
    .innerJoin(events, eq(tickets.eventId, events.id)).where(eq(events.id, row.id));
  check('a foreign key to the ulid id joins', joined.length === 1 && joined[0].note === 'front row' && joined[0].tid === t.id, JSON.stringify(joined));

  // Prefix and window: the rows plain SQL gives, by an index scan.
  await seed('dz_events');
  const want = await truth('dz_events', `id <@ ulid_time_range(tstzrange($1, $2))`, [W_LO, W_HI]);
  const q = db.select({ id: events.id }).from(events).where(inTimeRange(events.id, W_LO, W_HI));
  const win = (await q).map((x) => x.id);
  check(`inTimeRange: the ${want.length} rows of the window`, want.length === 24 && sameSet(win, want), `${win.length} rows`);
  let p = await plan(q.toSQL().sql, q.toSQL().params);
  check('inTimeRange is an index scan', usesIndex(p), p);

  const pre = want[0].slice(0, 5);
  const wantPre = await truth('dz_events', `id::text LIKE $1`, [pre + '%']);
  const qp = db.select({ id: events.id }).from(events).where(prefix(events.id, pre));
  const gotPre = (await qp).map((x) => x.id);
  check(`prefix('${pre}'): the ${wantPre.length} rows whose text starts with it`, wantPre.length > 0 && sameSet(gotPre, wantPre), `${gotPre.length} rows`);
  p = await plan(qp.toSQL().sql, qp.toSQL().params);
  check('prefix is an index scan', usesIndex(p), p);

  if (await hasLike()) {
    const ql = db.select({ id: events.id }).from(events).where(and(like(events.id, pre + '%')));
    const gotLike = (await ql).map((x) => x.id);
    check(`like(id, '${pre}%'): the same rows`, sameSet(gotLike, wantPre), `${gotLike.length} rows`);
    p = await plan(ql.toSQL().sql, ql.toSQL().params);
    check('like() is an index scan', usesIndex(p), p);
  } else {
    console.log('note: like() not checked: this server has no LIKE on the ID types');
  }
  await pool.end();
});
