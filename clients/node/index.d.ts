/** The SQL type names of the idtypes extension. */
export type IdType = 'uid11' | 'timeid' | 'ulidflake' | 'ulid' | 'euid';

/** IDs travel as their canonical text: every driver and ORM returns them as strings. */
export type UID11 = string;
export type TimeID = string;
export type ULIDFlake = string;
export type ULID = string;
export type EUID = string;

/** An end of a time window: a Date, a timestamptz text, or null for an open end. */
export type TimeBound = Date | string | null;

/**
 * A column's generator: true for the type's default (GENERATORS), or the name of the SQL
 * function, e.g. 'generate_ulid_monotonic', 'generate_uid11_random'.
 */
export type Generator = true | string;

export declare const ID_TYPES: readonly IdType[];
/** The type's generator, each column's default: generate_uid11_xid, generate_timeid, generate_ulidflake, generate_ulid, generate_euid. */
export declare const GENERATORS: Readonly<Record<IdType, string>>;
export declare function checkType(type: string): IdType;
/** e.g. 'generate_ulid()', or generatorOf('ulid', 'generate_ulid_monotonic'): 'generate_ulid_monotonic()' */
export declare function generatorOf(type: IdType, name?: Generator): string;
/** e.g. 'ulid_time_range' */
export declare function timeRangeFunctionOf(type: IdType): string;
