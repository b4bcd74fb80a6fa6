// idtypes/kysely: Kysely helpers for the five ID types.
//
//   import { idType, generated, prefix, inTimeRange } from 'idtypes/kysely';
//   await db.schema.createTable('events')
//     .addColumn('id', idType('ulid'), (c) => c.primaryKey().defaultTo(generated('ulid')))
//     .execute();
//   await db.selectFrom('events').selectAll().where(prefix('id', '01M8')).execute();
//   await db.selectFrom('events').selectAll().where(inTimeRange('id', 'ulid', lo, hi)).execute();
//
// Kysely's own operators take them too: where('id', '^@', '01M8'),
// where('id', '<@', timeRange('ulid', lo, hi)). Values are strings.
import { sql } from 'kysely';
import { checkType, generatorOf, timeRangeFunctionOf } from './index.js';

/** The type as a data type for addColumn/alterColumn (addColumn('id', 'ulid') is refused). */
export function idType(type) {
  return sql.raw(checkType(type));
}

/** The generator call of a type, for defaultTo(): generated('ulid') is generate_ulid(). */
export function generated(type) {
  return sql.raw(generatorOf(type));
}

/** <ref> ^@ p: the IDs whose text starts with p (an index range scan). */
export function prefix(ref, p) {
  return sql`${sql.ref(ref)} ^@ ${p}`;
}

/** <type>_time_range(tstzrange(lo, hi)), the IDs of a time window ('[)' bounds). */
export function timeRange(type, lo, hi) {
  return sql`${sql.raw(timeRangeFunctionOf(type))}(tstzrange(${lo}::timestamptz, ${hi}::timestamptz))`;
}

/** <ref> <@ <type>_time_range(tstzrange(lo, hi)) */
export function inTimeRange(ref, type, lo, hi) {
  return sql`${sql.ref(ref)} <@ ${timeRange(type, lo, hi)}`;
}
