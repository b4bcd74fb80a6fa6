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
  query(config: { text: string; values?: unknown[]; binary?: boolean; types?: { getTypeParser: (...args: any[]) => any } }): Promise<{ rows: any[] }>;
  /** In text format the parser gets a string, in binary format a Buffer (@types/pg types both as string). */
  setTypeParser(oid: number, format: 'text' | 'binary', parse: (value: any) => unknown): void;
}

/** A pg.Pool, as registerTypes uses it. */
export interface TypeParserPool {
  connect(): Promise<TypeParserClient & { release(): void }>;
  on(event: 'connect', listener: (client: TypeParserClient) => void): unknown;
}

/**
 * Registers the ID types and their arrays (ulid[] reads as string[]) with a client or a pool, in
 * text and in binary format (a query with binary: true).
 */
export declare function registerTypes(clientOrPool: TypeParserClient | TypeParserPool): Promise<IdTypeRow[]>;
/** An array of IDs from its text: '{A,NULL,B}' is ['A', null, 'B']; nested arrays nest. */
export declare function parseIdArray(text: string): any[];
/** The canonical text of an ID from its binary format (8 or 16 bytes, big-endian). */
export declare function idFromBinary(type: IdType, bytes: Uint8Array): string;
/** An array of IDs from its binary format: as parseIdArray makes it from the array's text. */
export declare function parseIdArrayBinary(bytes: Uint8Array, type: IdType, elementOid?: number): any[];
/**
 * Whether the client's results in binary format keep their bytes: node-postgres 8 (up to 8.23.1
 * at least) decodes them as UTF-8 text, and bytes that are not UTF-8 come out altered.
 */
export declare function binaryResultsExact(client: TypeParserClient): Promise<boolean>;
