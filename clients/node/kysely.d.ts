import type { RawBuilder, Generated } from 'kysely';
import type { IdType, UID11, TimeID, ULIDFlake, ULID, EUID, TimeBound, Generator } from './index.js';

export type { IdType, UID11, TimeID, ULIDFlake, ULID, EUID, TimeBound, Generator };
/** A column whose value the database generates by default (insert may omit it). */
export type GeneratedId = Generated<string>;

export declare function idType(type: IdType): RawBuilder<unknown>;
/** A generator call for defaultTo(): the type's default, or the function named. */
export declare function generator(type: IdType, name?: Generator): RawBuilder<string>;
export declare function prefix(ref: string, p: string): RawBuilder<boolean>;
/** A range, typed `any` so that where('id', '<@', timeRange(...)) type-checks on a string column; null is an open end. */
export declare function timeRange(lo: TimeBound, hi: TimeBound, type: IdType): RawBuilder<any>;
/** <ref> <@ <type>_time_range(tstzrange(lo, hi)); null is an open end. */
export declare function inTimeRange(ref: string, lo: TimeBound, hi: TimeBound, type: IdType): RawBuilder<boolean>;
