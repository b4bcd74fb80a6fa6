import type { SQL, SQLWrapper } from 'drizzle-orm';
import type { PgCustomColumnBuilder, PgColumn } from 'drizzle-orm/pg-core';
import type { ColumnBuilderBaseConfig, HasDefault } from 'drizzle-orm';
import type { IdType } from './index.js';

type IdBuilder<TName extends string> = PgCustomColumnBuilder<
  ColumnBuilderBaseConfig<'custom', 'PgCustomColumn'> & {
    name: TName;
    data: string;
    driverParam: string;
    enumValues: undefined;
  }
>;

export interface IdColumnConfig {
  /** Default to the type's generator (generate_ulid(), generate_tid(), ...). */
  generated?: boolean;
}

export interface IdColumnFunction {
  (): IdBuilder<''>;
  <TName extends string>(name: TName): IdBuilder<TName>;
  <TName extends string>(name: TName, config: IdColumnConfig & { generated: true }): HasDefault<IdBuilder<TName>>;
  <TName extends string>(name: TName, config?: IdColumnConfig): IdBuilder<TName>;
  (config: IdColumnConfig & { generated: true }): HasDefault<IdBuilder<''>>;
  (config?: IdColumnConfig): IdBuilder<''>;
}

export declare const uid11: IdColumnFunction;
export declare const timeid: IdColumnFunction;
export declare const ulidflake: IdColumnFunction;
export declare const ulid: IdColumnFunction;
export declare const euid: IdColumnFunction;

/** The type's generator call, for .default(). */
export declare function generated(type: IdType): SQL;
/** column ^@ p */
export declare function prefix(column: PgColumn | SQLWrapper, p: string): SQL;
/** <type>_time_range(tstzrange(lo, hi)) */
export declare function timeRange(type: IdType, lo: Date | string, hi: Date | string): SQL;
/** column <@ <type>_time_range(tstzrange(lo, hi)); type defaults to the column's SQL type. */
export declare function inTimeRange(column: PgColumn, lo: Date | string, hi: Date | string, type?: IdType): SQL;
