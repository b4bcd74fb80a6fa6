// idtypes/drizzle: Drizzle ORM column builders for the five ID types, and ^@ / <@ helpers.
//
//   import { ulid, timeid, prefix, inTimeRange } from 'idtypes/drizzle';
//   const events = pgTable('events', {
//     id: ulid('id', { generator: true }).primaryKey(),   // "id" "ulid" PRIMARY KEY DEFAULT generate_ulid()
//     seq: ulid('seq', { generator: 'generate_ulid_monotonic' }),
//     tid: timeid('tid', { generator: true }).notNull(),   // DEFAULT generate_timeid()
//   });
//   db.select().from(events).where(prefix(events.id, '01M8'));
//   db.select().from(events).where(inTimeRange(events.id, lo, hi));   // lo or hi null: open
//
// drizzle-kit generate/push emit the type by name (customType's dataType) and find no change on
// a second run. Values are strings.
import { sql } from 'drizzle-orm';
import { customType } from 'drizzle-orm/pg-core';
import { checkType, generatorOf, timeRangeFunctionOf } from './index.js';

function idColumn(type) {
  const base = customType({
    dataType() {
      return type;
    },
  });
  // (name?, { generator }?): the column defaults to the type's generator (true) or the one named.
  return (...args) => {
    const named = typeof args[0] === 'string';
    const config = (named ? args[1] : args[0]) ?? {};
    if ('generated' in config) {
      throw new TypeError("idtypes: { generated } is now { generator: true } (or a generator's name)");
    }
    const builder = named ? base(args[0]) : base();
    return config.generator ? builder.default(generator(type, config.generator)) : builder;
  };
}

export const uid11 = idColumn('uid11');
export const timeid = idColumn('timeid');
export const ulidflake = idColumn('ulidflake');
export const ulid = idColumn('ulid');
export const euid = idColumn('euid');

/** A generator call as SQL, for .default(): generator('ulid') is generate_ulid(),
 * generator('ulid', 'generate_ulid_monotonic') that function's call. */
export function generator(type, name) {
  return sql.raw(generatorOf(type, name));
}

/** column ^@ p: the IDs whose text starts with p (an index range scan). */
export function prefix(column, p) {
  return sql`${column} ^@ ${p}`;
}

/** <type>_time_range(tstzrange(lo, hi)), the IDs of a time window ('[)' bounds; null: open). */
export function timeRange(lo, hi, type) {
  return sql`${sql.raw(timeRangeFunctionOf(type))}(tstzrange(${lo}::timestamptz, ${hi}::timestamptz))`;
}

/** column <@ <type>_time_range(tstzrange(lo, hi)); the type is the column's unless given. */
export function inTimeRange(column, lo, hi, type) {
  const t = checkType(type ?? column.getSQLType());
  return sql`${column} <@ ${timeRange(lo, hi, t)}`;
}
