import type { SQL, SQLWrapper } from 'drizzle-orm';
import type { PgCustomColumnBuilder, PgColumn } from 'drizzle-orm/pg-core';
import type { ColumnBuilderBaseConfig, HasDefault } from 'drizzle-orm';
import type { IdType, TimeBound, Generator } from './index.js';

type IdBuilder<TName extends string> = PgCustomColumnBuilder<
  ColumnBuilderBaseConfig<'custom', 'PgCustomColumn'> & {
    name: TName;
    data: string;
    driverParam: string;
    enumValues: undefined;
  }
>;

export interface IdColumnConfig {
  /** The column's database default: true for the type's generator (generate_ulid(), generate_uid11_xid(), ...), or a generator's name. */
  generator?: Generator;
}

export interface IdColumnFunction {
  (): IdBuilder<''>;
  <TName extends string>(name: TName): IdBuilder<TName>;
  <TName extends string>(name: TName, config: { generator: Generator }): HasDefault<IdBuilder<TName>>;
  <TName extends string>(name: TName, config?: IdColumnConfig): IdBuilder<TName>;
  (config: { generator: Generator }): HasDefault<IdBuilder<''>>;
  (config?: IdColumnConfig): IdBuilder<''>;
}

export declare const uid11: IdColumnFunction;
export declare const timeid: IdColumnFunction;
export declare const ulidflake: IdColumnFunction;
export declare const ulid: IdColumnFunction;
export declare const euid: IdColumnFunction;

/** A generator call for .default(): the type's default, or the function named. */
export declare function generator(type: IdType, name?: Generator): SQL;
/** column ^@ p */
export declare function prefix(column: PgColumn | SQLWrapper, p: string): SQL;
/** <type>_time_range(tstzrange(lo, hi)); null is an open end. */
export declare function timeRange(lo: TimeBound, hi: TimeBound, type: IdType): SQL;
/** column <@ <type>_time_range(tstzrange(lo, hi)); type defaults to the column's SQL type; null is an open end. */
export declare function inTimeRange(column: PgColumn, lo: TimeBound, hi: TimeBound, type?: IdType): SQL;
