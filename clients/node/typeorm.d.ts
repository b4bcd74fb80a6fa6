import type { ColumnType, DataSource, FindOperator } from 'typeorm';
import type { IdType, TimeBound, Generator } from './index.js';

/**
 * Registers uid11, timeid, ulidflake, ulid and euid with the DataSource's driver (before
 * initialize()); initialize() then registers their arrays with node-postgres (idtypes/pg).
 */
export declare function registerIdtypes<T extends DataSource>(dataSource: T): T;
/** column ^@ p, as a find operator. */
export declare function Prefix(p: string): FindOperator<string>;
/** column <@ <type>_time_range(tstzrange(lo, hi)), as a find operator; null is an open end. */
export declare function InTimeRange(lo: TimeBound, hi: TimeBound, type: IdType): FindOperator<string>;
/** Column options { type } (+ default: the generator's call, with generator), typed for TypeORM. */
export declare function idColumn(type: IdType, options?: { generator?: Generator }): { type: ColumnType; default?: () => string };
