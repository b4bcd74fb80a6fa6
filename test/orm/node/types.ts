// Type-checked by orm_node.sh (tsc --noEmit, strict) with the doc's TypeScript blocks: the
// package's hand-written declarations against the libraries' own. Never run.
import { pgTable, text } from 'drizzle-orm/pg-core';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { ulid, timeid, uid11, ulidflake, euid, generated, prefix, inTimeRange } from 'idtypes/drizzle';
import { Kysely, type Generated } from 'kysely';
import * as K from 'idtypes/kysely';
import { DataSource, EntitySchema } from 'typeorm';
import { registerIdtypes, idColumn, Prefix, InTimeRange } from 'idtypes/typeorm';
import { ID_TYPES, GENERATORS, generatorOf, timeRangeFunctionOf, type IdType, type ULID, type TimeID } from 'idtypes';

// Drizzle: generated columns are optional on insert, the others required; all read as string.
const t = pgTable('t', {
  a: ulid('a', { generated: true }).primaryKey(),
  b: timeid({ generated: true }),
  c: uid11('c').notNull(),
  d: ulidflake('d').default(generated('ulidflake')),
  e: euid('e'),
  f: text('f'),
});
const row: typeof t.$inferSelect = { a: 'x', b: 'y', c: 'z', d: null, e: null, f: null };
const ins: typeof t.$inferInsert = { c: 'z' };
// @ts-expect-error c is required
const bad: typeof t.$inferInsert = { a: 'x' };
declare const db: NodePgDatabase;
db.select().from(t).where(prefix(t.a, 'ab'));
db.select().from(t).where(inTimeRange(t.a, new Date(), '2026-01-01T00:00:00Z'));

// Kysely
interface KDB { ev: { id: Generated<ULID>; tid: Generated<TimeID>; name: string } }
declare const k: Kysely<KDB>;
k.schema.createTable('ev').addColumn('id', K.idType('ulid'), (c) => c.primaryKey().defaultTo(K.generated('ulid')));
k.selectFrom('ev').selectAll().where(K.prefix('id', 'ab'));
k.selectFrom('ev').selectAll().where(K.inTimeRange('id', 'ulid', new Date(), new Date()));
k.selectFrom('ev').selectAll().where('id', '<@', K.timeRange('ulid', new Date(), new Date()));
k.insertInto('ev').values({ name: 'n' });

// TypeORM
const ds = registerIdtypes(new DataSource({ type: 'postgres', entities: [
  new EntitySchema<{ id: string }>({ name: 'E', columns: { id: { ...idColumn('ulid', { generated: true }), primary: true } } }),
] }));
ds.getRepository<{ id: string }>('E').findBy({ id: Prefix('ab') });
ds.getRepository<{ id: string }>('E').findBy({ id: InTimeRange('euid', new Date(), new Date()) });

// idtypes
const ty: IdType = ID_TYPES[0];
// @ts-expect-error not an ID type
generatorOf('uuid');
console.log(row, ins, bad, GENERATORS[ty], generatorOf('ulid'), timeRangeFunctionOf('euid'));
