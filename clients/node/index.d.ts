/** The SQL type names of the idtypes extension. */
export type IdType = 'uid11' | 'timeid' | 'ulidflake' | 'ulid' | 'euid';

/** IDs travel as their canonical text: every driver and ORM returns them as strings. */
export type UID11 = string;
export type TimeID = string;
export type ULIDFlake = string;
export type ULID = string;
export type EUID = string;

export declare const ID_TYPES: readonly IdType[];
export declare const GENERATORS: Readonly<Record<IdType, string>>;
export declare function checkType(type: string): IdType;
/** e.g. 'generate_ulid()' */
export declare function generatorOf(type: IdType): string;
/** e.g. 'ulid_time_range' */
export declare function timeRangeFunctionOf(type: IdType): string;
