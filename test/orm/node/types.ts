// Type-checked by orm_node.py (tsc --noEmit, strict) with the doc's TypeScript blocks: the
// package's hand-written declarations against the libraries' own. Never run.
import { pgTable, text } from 'drizzle-orm/pg-core';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { ulid, timeid, uid11, ulidflake, euid, generator, prefix, inTimeRange, timeRange } from 'idtypes/drizzle';
import { Kysely, type Generated } from 'kysely';
import * as K from 'idtypes/kysely';
import { DataSource, EntitySchema } from 'typeorm';
import { registerIdtypes, idColumn, Prefix, InTimeRange } from 'idtypes/typeorm';
import pg from 'pg';
import { registerTypes, parseIdArray, idFromBinary, parseIdArrayBinary, binaryResultsExact } from 'idtypes/pg';
import { ID_TYPES, GENERATORS, generatorOf, timeRangeFunctionOf, type IdType, type ULID, type TimeID } from 'idtypes';
import { newUlid, newEuid, newUlidflake, parseEuid, parseTimeid, parseUlid, isValidUid11, ulidTimestamp, formatUlid, InvalidIdError } from 'idtypes/ids';

// Drizzle: generated columns are optional on insert, the others required; all read as string.
const t = pgTable('t', {
  a: ulid('a', { generator: true }).primaryKey(),
  b: timeid({ generator: true }),
  c: uid11('c').notNull(),
  d: ulidflake('d').default(generator('ulidflake')),
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
// Open ends, a chosen generator, the range alone.
db.select().from(t).where(inTimeRange(t.a, null, new Date()));
db.select().from(t).where(inTimeRange(t.c, new Date(), null, 'uid11'));
const seq = pgTable('seq', { s: ulid('s', { generator: 'generate_ulid_monotonic' }).primaryKey(), n: text('n') });
const seqIns: typeof seq.$inferInsert = { n: 'x' };
timeRange(null, null, 'ulid');
// @ts-expect-error the type goes last: (lo, hi, type)
timeRange('ulid', new Date(), new Date());

// Kysely
interface KDB { ev: { id: Generated<ULID>; tid: Generated<TimeID>; name: string } }
declare const k: Kysely<KDB>;
k.schema.createTable('ev').addColumn('id', K.idType('ulid'), (c) => c.primaryKey().defaultTo(K.generator('ulid')));
k.selectFrom('ev').selectAll().where(K.prefix('id', 'ab'));
k.selectFrom('ev').selectAll().where(K.inTimeRange('id', new Date(), null, 'ulid'));
k.schema.createTable('ev2').addColumn('id', K.idType('uid11'), (c) => c.primaryKey().defaultTo(K.generator('uid11', 'generate_uid11')));
k.selectFrom('ev').selectAll().where('id', '<@', K.timeRange(new Date(), new Date(), 'ulid'));
k.insertInto('ev').values({ name: 'n' });

// TypeORM
const ds = registerIdtypes(new DataSource({ type: 'postgres', entities: [
  new EntitySchema<{ id: string }>({ name: 'E', columns: { id: { ...idColumn('ulid', { generator: true }), primary: true } } }),
] }));
ds.getRepository<{ id: string }>('E').findBy({ id: Prefix('ab') });
ds.getRepository<{ id: string }>('E').findBy({ id: InTimeRange(new Date(), null, 'euid') });
idColumn('ulid', { generator: 'generate_ulid_monotonic' });
// @ts-expect-error no { generated } option: { generator }
idColumn('ulid', { generated: true });

// node-postgres: a Client, a Pool, a pool's client
declare const client: pg.Client;
declare const poolClient: pg.PoolClient;
registerTypes(client);
registerTypes(poolClient);
registerTypes(new pg.Pool()).then((rows) => rows.map((r) => r.typname + r.typarray));
const ids: (string | null)[] = parseIdArray('{A,NULL}');
const fromBytes: string = idFromBinary('ulid', new Uint8Array(16));
const binIds: (string | null)[] = parseIdArrayBinary(new Uint8Array(12), 'euid', 16384);
binaryResultsExact(client).then((exact: boolean) => exact);
binaryResultsExact(poolClient);
// @ts-expect-error not an ID type
idFromBinary('uuid', new Uint8Array(16));

// idtypes
const ty: IdType = ID_TYPES[0];
// @ts-expect-error not an ID type
generatorOf('uuid');

// idtypes/ids: IDs made in the application
const made: string = newUlid({ monotonic: true });
const ext: number | null = parseEuid(newEuid({ extension: 7 })).extension;
const clock: number = parseTimeid('3jzfcijpj2z2a').clockId;
const when: Date = ulidTimestamp(made);
const again: string = formatUlid(parseUlid(made).value);
const valid: boolean = isValidUid11(42);
declare const err: InvalidIdError;
const code: string = err.code;
// @ts-expect-error a sid is a number
newUlidflake({ sid: 'x' });
// @ts-expect-error a value is a bigint
formatUlid(1);
console.log(made, ext, clock, when, again, valid, code);
console.log(row, ins, bad, ids, fromBytes, binIds, seqIns, GENERATORS[ty], generatorOf('ulid'), timeRangeFunctionOf('euid'));
