import type { RawBuilder, Generated } from 'kysely';
import type { IdType, UID11, TimeID, ULIDFlake, ULID, EUID } from './index.js';

export type { IdType, UID11, TimeID, ULIDFlake, ULID, EUID };
/** A column whose value the database generates by default (insert may omit it). */
export type GeneratedId = Generated<string>;

export declare function idType(type: IdType): RawBuilder<unknown>;
export declare function generated(type: IdType): RawBuilder<string>;
export declare function prefix(ref: string, p: string): RawBuilder<boolean>;
/** A range, typed `any` so that where('id', '<@', timeRange(...)) type-checks on a string column. */
export declare function timeRange(type: IdType, lo: Date | string, hi: Date | string): RawBuilder<any>;
export declare function inTimeRange(ref: string, type: IdType, lo: Date | string, hi: Date | string): RawBuilder<boolean>;
