import type { ColumnType, DataSource, FindOperator } from 'typeorm';
import type { IdType } from './index.js';

/** Registers uid11, timeid, ulidflake, ulid and euid with the DataSource's driver (before initialize()). */
export declare function registerIdtypes<T extends DataSource>(dataSource: T): T;
/** column ^@ p, as a find operator. */
export declare function Prefix(p: string): FindOperator<string>;
/** column <@ <type>_time_range(tstzrange(lo, hi)), as a find operator. */
export declare function InTimeRange(type: IdType, lo: Date | string, hi: Date | string): FindOperator<string>;
/** Column options { type } (+ default: the type's generator, with generated: true), typed for TypeORM. */
export declare function idColumn(type: IdType, options?: { generated?: boolean }): { type: ColumnType; default?: () => string };
