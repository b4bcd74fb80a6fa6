// idtypes: the extension's five ID types, their default generators and time-range functions.
// Nothing here talks to a database; the ORM helpers are in idtypes/drizzle, idtypes/kysely and
// idtypes/typeorm, the node-postgres type registration in idtypes/pg.

/** The SQL type names, 64-bit first. */
export const ID_TYPES = Object.freeze(['uid11', 'timeid', 'ulidflake', 'ulid', 'euid']);

/**
 * The type's generator, the one a column of each type defaults to: time-ordered, named after the
 * type (idtypes 1.1; on 1.0 name 'generate_xid' and 'generate_tid', their aliases, as a column's
 * generator). uid11's is the xid profile (generate_uid11_random() is 64 random bits with no time:
 * a time window finds none of its IDs).
 */
export const GENERATORS = Object.freeze({
  uid11: 'generate_uid11_xid',
  timeid: 'generate_timeid',
  ulidflake: 'generate_ulidflake',
  ulid: 'generate_ulid',
  euid: 'generate_euid',
});

/** Throws a TypeError unless `type` is one of ID_TYPES (the name goes into SQL text). */
export function checkType(type) {
  if (!ID_TYPES.includes(type)) {
    throw new TypeError(`idtypes: unknown ID type ${JSON.stringify(type)} (one of ${ID_TYPES.join(', ')})`);
  }
  return type;
}

// A function name, optionally schema-qualified: it goes into SQL text as it is.
const FUNCTION_NAME = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;

/**
 * The call of a generator as SQL text: the type's default ('generate_ulid()'), or the function
 * named (`generatorOf('ulid', 'generate_ulid_monotonic')` is 'generate_ulid_monotonic()').
 */
export function generatorOf(type, name) {
  checkType(type);
  const fn = name === undefined || name === true ? GENERATORS[type] : name;
  if (typeof fn !== 'string' || !FUNCTION_NAME.test(fn)) {
    throw new TypeError(`idtypes: not a generator function name: ${JSON.stringify(name)}`);
  }
  return `${fn}()`;
}

/** The function that maps a tstzrange to the type's ID range, e.g. 'ulid_time_range'. */
export function timeRangeFunctionOf(type) {
  return `${checkType(type)}_time_range`;
}
