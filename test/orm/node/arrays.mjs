// Arrays of the ID types read as string[]: node-postgres with idtypes/pg's registerTypes() on a
// Client and on a Pool (its clients before and after the registration), Kysely over that pool,
// TypeORM ({ array: true } columns, registered by registerIdtypes()), and the plain node-postgres
// default (the array's text) that the registration changes.
import 'reflect-metadata';
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { DataSource, EntitySchema } from 'typeorm';
import { registerTypes, parseIdArray } from 'idtypes/pg';
import { registerIdtypes } from 'idtypes/typeorm';
import { check, run, connection } from './common.mjs';

const TYPES = { uid11: 'generate_xid', timeid: 'generate_tid', ulidflake: 'generate_ulidflake', ulid: 'generate_ulid', euid: 'generate_euid' };
const QUERY = (t) => `SELECT ARRAY[${TYPES[t]}(), NULL]::${t}[] AS a, ARRAY[[${TYPES[t]}(), ${TYPES[t]}()]]::${t}[] AS b,
  '{}'::${t}[] AS c, ARRAY(SELECT x::text FROM unnest(ARRAY[${TYPES[t]}()]) x)::text AS one`;
const isList = (v) => Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && v[0].length > 10 && v[1] === null;

async function checkClient(what, client) {
  for (const t of Object.keys(TYPES)) {
    const { rows: [r] } = await client.query(QUERY(t));
    check(`${what}: ${t}[] with a NULL reads as string[]`, isList(r.a), JSON.stringify(r.a));
    check(`${what}: ${t}[][] reads as nested arrays`, Array.isArray(r.b?.[0]) && r.b[0].length === 2 && typeof r.b[0][0] === 'string', JSON.stringify(r.b));
    check(`${what}: an empty ${t}[] reads as []`, Array.isArray(r.c) && r.c.length === 0, JSON.stringify(r.c));
  }
}

run(async () => {
  check("parseIdArray('{A,NULL,B}')", JSON.stringify(parseIdArray('{A,NULL,B}')) === '["A",null,"B"]');

  const plain = new pg.Client(connection());
  await plain.connect();
  const before = (await plain.query(QUERY('ulid'))).rows[0].a;
  check('without registerTypes, node-postgres reads ulid[] as its text (what the registration changes)',
    typeof before === 'string' && before.startsWith('{'), JSON.stringify(before));
  const found = await registerTypes(plain);
  check('registerTypes(client) finds the five types', found.length === 5, JSON.stringify(found));
  await checkClient('pg.Client', plain);
  const back = (await plain.query('SELECT $1::ulid[] AS a', [['01arz3ndektsv4rrffq69g5fav', null]])).rows[0].a;
  check('a string[] parameter as ulid[] reads back canonical', JSON.stringify(back) === '["01ARZ3NDEKTSV4RRFFQ69G5FAV",null]', JSON.stringify(back));
  await plain.end();

  // A pool with a client already (idle) before the registration, and one more after it.
  const pool = new pg.Pool({ ...connection(), max: 3 });
  await pool.query('SELECT 1');
  await registerTypes(pool);
  const held = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
  for (const [i, c] of held.entries()) {
    const r = (await c.query(QUERY('euid'))).rows[0];
    check(`pg.Pool: its client ${i + 1} of 3 reads euid[] as string[]`, isList(r.a), JSON.stringify(r.a));
  }
  held.forEach((c) => c.release());

  const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  await db.schema.createTable('ky_batches').addColumn('n', 'integer', (c) => c.primaryKey())
    .addColumn('ids', sql`ulid[]`).addColumn('tids', sql`timeid[]`).execute();
  await db.insertInto('ky_batches').values({ n: 1, ids: sql`ARRAY[generate_ulid(), generate_ulid()]`, tids: sql`ARRAY[generate_tid()]` }).execute();
  const k = await db.selectFrom('ky_batches').selectAll().executeTakeFirstOrThrow();
  check('Kysely: ulid[] and timeid[] columns read as string[]', Array.isArray(k.ids) && k.ids.length === 2 && typeof k.ids[0] === 'string' &&
    Array.isArray(k.tids) && k.tids.length === 1, JSON.stringify(k));
  await db.destroy();

  const c = connection();
  const ds = registerIdtypes(new DataSource({
    type: 'postgres', host: c.host, port: c.port, username: c.user, database: c.database, synchronize: true,
    entities: [new EntitySchema({
      name: 'Batch', tableName: 'to_batches',
      columns: { n: { type: 'integer', primary: true }, ids: { type: 'ulid', array: true }, u11s: { type: 'uid11', array: true, nullable: true } },
    })],
  }));
  await ds.initialize();
  const repo = ds.getRepository('Batch');
  await repo.save({ n: 1, ids: ['01arz3ndektsv4rrffq69g5fav', '01ARZ3NDEKTSV4RRFFQ69G5FAW'], u11s: [] });
  const b = await repo.findOneByOrFail({ n: 1 });
  check('TypeORM: an { array: true } ulid column saves and reads back as string[]',
    JSON.stringify(b.ids) === '["01ARZ3NDEKTSV4RRFFQ69G5FAV","01ARZ3NDEKTSV4RRFFQ69G5FAW"]' && JSON.stringify(b.u11s) === '[]', JSON.stringify(b));
  const types = await ds.query(`SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = 'to_batches'::regclass AND attname = 'ids'`);
  check('TypeORM: synchronize made the column ulid[]', types[0]?.t === 'ulid[]', JSON.stringify(types));
  await ds.destroy();
});
