import type { IdType } from './index.js';

/** The rows registerTypes found: one per ID type of the connected database. */
export interface IdTypeRow {
  typname: IdType;
  oid: number;
  typarray: number;
}

/** Anything with node-postgres's query and setTypeParser (a pg.Client, a pool's client). */
export interface TypeParserClient {
  query(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
  setTypeParser(oid: number, format: 'text', parse: (value: string) => unknown): void;
}

/** A pg.Pool, as registerTypes uses it. */
export interface TypeParserPool {
  connect(): Promise<TypeParserClient & { release(): void }>;
  on(event: 'connect', listener: (client: TypeParserClient) => void): unknown;
}

/** Registers the ID types and their arrays (ulid[] reads as string[]) with a client or a pool. */
export declare function registerTypes(clientOrPool: TypeParserClient | TypeParserPool): Promise<IdTypeRow[]>;
/** An array of IDs from its text: '{A,NULL,B}' is ['A', null, 'B']; nested arrays nest. */
export declare function parseIdArray(text: string): any[];
