// idtypes: the extension's five ID types, their default generators and time-range functions.
// Nothing here talks to a database; the ORM helpers are in idtypes/drizzle, idtypes/kysely and
// idtypes/typeorm.

/** The SQL type names, 64-bit first. */
export const ID_TYPES = Object.freeze(['uid11', 'timeid', 'ulidflake', 'ulid', 'euid']);

/** The generator each type's column usually defaults to. */
export const GENERATORS = Object.freeze({
  uid11: 'generate_uid11()',
  timeid: 'generate_tid()',
  ulidflake: 'generate_ulidflake()',
  ulid: 'generate_ulid()',
  euid: 'generate_euid()',
});

/** Throws a TypeError unless `type` is one of ID_TYPES (the name goes into SQL text). */
export function checkType(type) {
  if (!ID_TYPES.includes(type)) {
    throw new TypeError(`idtypes: unknown ID type ${JSON.stringify(type)} (one of ${ID_TYPES.join(', ')})`);
  }
  return type;
}

/** The default generator call of a type, e.g. 'generate_ulid()'. */
export function generatorOf(type) {
  return GENERATORS[checkType(type)];
}

/** The function that maps a tstzrange to the type's ID range, e.g. 'ulid_time_range'. */
export function timeRangeFunctionOf(type) {
  return `${checkType(type)}_time_range`;
}
