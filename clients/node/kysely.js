// idtypes/kysely: Kysely helpers for the five ID types.
//
//   import { idType, generator, prefix, inTimeRange } from 'idtypes/kysely';
//   await db.schema.createTable('events')
//     .addColumn('id', idType('ulid'), (c) => c.primaryKey().defaultTo(generator('ulid')))
//     .execute();
//   await db.selectFrom('events').selectAll().where(prefix('id', '01M8')).execute();
//   await db.selectFrom('events').selectAll().where(inTimeRange('id', lo, hi, 'ulid')).execute();
//
// Kysely's own operators take them too: where('id', '^@', '01M8'),
// where('id', '<@', timeRange(lo, hi, 'ulid')). Values are strings; arrays of IDs read as
// string[] once idtypes/pg's registerTypes(pool) has run.
import { sql } from 'kysely';
import { checkType, generatorOf, timeRangeFunctionOf } from './index.js';

/** The type as a data type for addColumn/alterColumn (addColumn('id', 'ulid') is refused). */
export function idType(type) {
  return sql.raw(checkType(type));
}

/** A generator call for defaultTo(): generator('ulid') is generate_ulid(),
 * generator('ulid', 'generate_ulid_monotonic') that function's call. */
export function generator(type, name) {
  return sql.raw(generatorOf(type, name));
}

/** <ref> ^@ p: the IDs whose text starts with p (an index range scan). */
export function prefix(ref, p) {
  return sql`${sql.ref(ref)} ^@ ${p}`;
}

/** <type>_time_range(tstzrange(lo, hi)), the IDs of a time window ('[)' bounds; null: open). */
export function timeRange(lo, hi, type) {
  return sql`${sql.raw(timeRangeFunctionOf(type))}(tstzrange(${lo}::timestamptz, ${hi}::timestamptz))`;
}

/** <ref> <@ <type>_time_range(tstzrange(lo, hi)) */
export function inTimeRange(ref, lo, hi, type) {
  return sql`${sql.ref(ref)} <@ ${timeRange(lo, hi, type)}`;
}
