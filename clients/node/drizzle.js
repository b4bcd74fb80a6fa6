// idtypes/drizzle: Drizzle ORM column builders for the five ID types, and ^@ / <@ helpers.
//
//   import { ulid, timeid, prefix, inTimeRange } from 'idtypes/drizzle';
//   const events = pgTable('events', {
//     id: ulid('id', { generated: true }).primaryKey(),   // "id" "ulid" PRIMARY KEY DEFAULT generate_ulid()
//     tid: timeid('tid', { generated: true }).notNull(),
//   });
//   db.select().from(events).where(prefix(events.id, '01M8'));
//   db.select().from(events).where(inTimeRange(events.id, lo, hi));
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
  // (name?, { generated }?): with generated: true the column defaults to the type's generator.
  return (...args) => {
    const named = typeof args[0] === 'string';
    const config = named ? args[1] : args[0];
    const builder = named ? base(args[0]) : base();
    return config && config.generated ? builder.default(generated(type)) : builder;
  };
}

export const uid11 = idColumn('uid11');
export const timeid = idColumn('timeid');
export const ulidflake = idColumn('ulidflake');
export const ulid = idColumn('ulid');
export const euid = idColumn('euid');

/** The generator call of a type as SQL, for .default(): generated('ulid') is generate_ulid(). */
export function generated(type) {
  return sql.raw(generatorOf(type));
}

/** column ^@ p: the IDs whose text starts with p (an index range scan). */
export function prefix(column, p) {
  return sql`${column} ^@ ${p}`;
}

/** <type>_time_range(tstzrange(lo, hi)), the IDs of a time window ('[)' bounds). */
export function timeRange(type, lo, hi) {
  return sql`${sql.raw(timeRangeFunctionOf(type))}(tstzrange(${lo}::timestamptz, ${hi}::timestamptz))`;
}

/** column <@ <type>_time_range(tstzrange(lo, hi)); the type is the column's unless given. */
export function inTimeRange(column, lo, hi, type) {
  const t = checkType(type ?? column.getSQLType());
  return sql`${column} <@ ${timeRange(t, lo, hi)}`;
}
