// The package installed as docs/orms.md says (npm install --install-links), with the versions of
// one of versions/*/package.json (the lowest the peer ranges accept, or the latest on npm): each
// ORM's helpers in a few checks, so that a version the ranges admit but the helpers do not work
// with fails here. Drizzle: a { generator } column, a window with an open end, a prefix; Kysely: a
// column made with idType()/generator(), inTimeRange(ref, lo, null, type), ulid[] read as
// string[] after registerTypes(pool); TypeORM: registerIdtypes(), idColumn({ generator }),
// InTimeRange(lo, null, type), an { array: true } column. Then the package from CommonJS
// (require() of the ES modules, Node.js 20.19 and later).
import 'reflect-metadata';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { check, run, connection } from './common.mjs';

const require = createRequire(import.meta.url);
// A package's package.json (not every package exports it).
const manifest = (name) => JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url)));
const versionOf = (name) => manifest(name).version;
const since = () => new Date(Date.now() - 600e3);

async function drizzleChecks() {
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { pgTable, text } = await import('drizzle-orm/pg-core');
  const { eq } = await import('drizzle-orm');
  const { ulid, uid11, prefix, inTimeRange } = await import('idtypes/drizzle');
  const v = `drizzle-orm ${versionOf('drizzle-orm')}`;
  const pool = new pg.Pool(connection());
  await pool.query('CREATE TABLE v_dz (id ulid PRIMARY KEY DEFAULT generate_ulid(), u uid11 DEFAULT generate_xid(), name text)');
  const t = pgTable('v_dz', { id: ulid('id', { generator: true }).primaryKey(), u: uid11('u', { generator: true }), name: text('name') });
  const db = drizzle(pool);
  const [row] = await db.insert(t).values({ name: 'a' }).returning();
  check(`${v}: insert returns the generated ids`, typeof row.id === 'string' && typeof row.u === 'string', JSON.stringify(row));
  const byWindow = await db.select().from(t).where(inTimeRange(t.u, since(), null));
  check(`${v}: inTimeRange(uid11 column, lo, null)`, byWindow.length === 1, JSON.stringify(byWindow));
  const byPrefix = await db.select().from(t).where(prefix(t.id, row.id.slice(0, 8)));
  const same = await db.select().from(t).where(eq(t.id, row.id.toLowerCase()));
  check(`${v}: prefix() and eq() by a lower-case id`, byPrefix.length === 1 && same.length === 1);
  await pool.end();
}

async function kyselyChecks() {
  const { Kysely, PostgresDialect, sql } = await import('kysely');
  const { idType, generator, inTimeRange } = await import('idtypes/kysely');
  const { registerTypes } = await import('idtypes/pg');
  const v = `kysely ${versionOf('kysely')}`;
  const pool = new pg.Pool(connection());
  await registerTypes(pool);
  const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  await db.schema.createTable('v_ky').addColumn('id', idType('ulid'), (c) => c.primaryKey().defaultTo(generator('ulid', 'generate_ulid_monotonic')))
    .addColumn('ids', sql`ulid[]`).execute();
  const row = await db.insertInto('v_ky').values({ ids: sql`ARRAY[generate_ulid()]` }).returningAll().executeTakeFirstOrThrow();
  check(`${v}: insert returns the id and a ulid[] as string[]`, typeof row.id === 'string' && Array.isArray(row.ids) && typeof row.ids[0] === 'string', JSON.stringify(row));
  const n = await db.selectFrom('v_ky').select('id').where(inTimeRange('id', since(), null, 'ulid')).execute();
  check(`${v}: inTimeRange(ref, lo, null, type)`, n.length === 1, JSON.stringify(n));
  await db.destroy();
}

async function typeormChecks() {
  const { DataSource, EntitySchema } = await import('typeorm');
  const { registerIdtypes, idColumn, InTimeRange, Prefix } = await import('idtypes/typeorm');
  const v = `typeorm ${versionOf('typeorm')}`;
  const c = connection();
  const ds = registerIdtypes(new DataSource({
    type: 'postgres', host: c.host, port: c.port, username: c.user, database: c.database, synchronize: true,
    entities: [new EntitySchema({ name: 'V', tableName: 'v_to', columns: {
      id: { ...idColumn('uid11', { generator: true }), primary: true },
      ids: { type: 'ulid', array: true, nullable: true },
    } })],
  }));
  await ds.initialize();
  const repo = ds.getRepository('V');
  const saved = await repo.save({ ids: ['01arz3ndektsv4rrffq69g5fav'] });
  const back = await repo.findOneByOrFail({ id: saved.id });
  check(`${v}: save() returns the generated uid11, an array column reads as string[]`,
    typeof saved.id === 'string' && JSON.stringify(back.ids) === '["01ARZ3NDEKTSV4RRFFQ69G5FAV"]', JSON.stringify(back));
  const inWindow = await repo.findBy({ id: InTimeRange(since(), null, 'uid11') });
  const byPrefix = await repo.findBy({ id: Prefix(saved.id.slice(0, 5)) });
  check(`${v}: InTimeRange(lo, null, type) and Prefix()`, inWindow.length === 1 && byPrefix.length === 1, `${inWindow.length} ${byPrefix.length}`);
  await ds.destroy();
}

// '1.2.3' as a number to compare (each part below 1000).
const num = (v) => [...v.split('.'), '0', '0'].slice(0, 3).reduce((a, x) => a * 1000 + Number.parseInt(x, 10), 0);
// Whether version v meets an engines range of the forms the libraries use: alternatives joined by
// '||', each '>=X.Y.Z' or '^X.Y.Z' (the same major, at least X.Y.Z).
const satisfies = (v, range) => range.split('||').some((alt) => {
  const m = /^\s*(>=|\^)\s*v?(\d+(?:\.\d+){0,2})\s*$/.exec(alt);
  if (!m) return true; // a form not known here: let the library run
  if (m[1] === '>=') return num(v) >= num(m[2]);
  return v.split('.')[0] === m[2].split('.')[0] && num(v) >= num(m[2]);
});

run(async () => {
  // The set is its package.json's name: idtypes-orm-node-lowest or -latest.
  const set = JSON.parse(readFileSync(new URL('./package.json', import.meta.url))).name.replace(/.*-/, '');
  const peers = manifest('idtypes').peerDependencies;
  for (const name of ['drizzle-orm', 'kysely', 'typeorm', 'pg']) {
    const [, lo, hi] = /^>=(\S+) <(\S+)$/.exec(peers[name]) ?? [];
    const v = versionOf(name);
    if (set === 'lowest') check(`${name} ${v} is the lowest version of the peer range ${peers[name]}`, v === lo, peers[name]);
    else check(`${name} ${v} is in the peer range ${peers[name]}`, num(v) >= num(lo) && num(v) < num(hi), peers[name]);
  }
  for (const [name, f] of [['drizzle-orm', drizzleChecks], ['kysely', kyselyChecks], ['typeorm', typeormChecks]]) {
    const engines = manifest(name).engines?.node;
    if (engines && !satisfies(process.versions.node, engines)) {
      console.log(`skip: ${name} ${versionOf(name)} (needs Node.js ${engines}; this is ${process.versions.node})`);
      continue;
    }
    await f();
  }
  if (!satisfies(process.versions.node, '^20.19.0 || >=22.12.0')) {
    console.log(`skip: CommonJS require() of the package (ES modules: Node.js 20.19 or 22.12 and later; this is ${process.versions.node})`);
    return;
  }
  const cjs = require('idtypes');
  const cjsKysely = require('idtypes/kysely');
  check('CommonJS: require() of idtypes and idtypes/kysely', cjs.GENERATORS.uid11 === 'generate_uid11_xid' && typeof cjsKysely.generator === 'function');
});
