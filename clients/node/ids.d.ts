// idtypes/ids: IDs made in the application (generate, parse, validate the five formats).

/** Text the server rejects as well; `code` is the server's SQLSTATE: '22P02' (malformed) or '22003' (out of range). */
export declare class InvalidIdError extends RangeError {
  readonly type: 'uid11' | 'timeid' | 'ulidflake' | 'ulid' | 'euid';
  readonly text: string;
  readonly detail: string;
  readonly code: '22P02' | '22003';
}

export interface ParsedUid11 {
  /** The unsigned 64-bit payload. */
  value: bigint;
  /** The xid profile's time (ms). */
  time: Date;
  unixMs: number;
  /** The low 22 bits. */
  random: number;
}
export interface ParsedTimeid {
  value: bigint;
  /** To the millisecond; unixUs holds the microsecond. */
  time: Date;
  unixUs: number;
  /** 0..1023 */
  clockId: number;
}
export interface ParsedUlidflake {
  value: bigint;
  time: Date;
  unixMs: number;
  /** The low 5 bits (the scalable variant's sid). */
  sid: number;
}
export interface ParsedUlid {
  /** The 128-bit value (the 16 bytes, big-endian). */
  value: bigint;
  time: Date;
  unixMs: number;
}
export interface ParsedEuid {
  /** The 128-bit value, without the check. */
  value: bigint;
  time: Date;
  unixMs: number;
  /** null when the EUID carries no extension. */
  extension: number | null;
}

/** A uid11 of the xid profile; nodeId 0..31 takes the top 5 bits of the 22-bit field. */
export declare function newUid11(options?: { nodeId?: number | null }): string;
/** A TID; clockId 0..1023, default defaultClockId(). */
export declare function newTimeid(options?: { clockId?: number | null }): string;
/** A ULID-Flake; sid 0..31: the scalable variant; nodeId 0..31 takes the top 5 bits of the 20-bit field. */
export declare function newUlidflake(options?: { sid?: number | null; nodeId?: number | null }): string;
/** A ULID: the ms, its fraction in 12 bits, 68 random bits; { monotonic: true }: 80 random bits, + 1 within a ms. */
export declare function newUlid(options?: { monotonic?: boolean }): string;
/** An EUID; extension 0..32767. */
export declare function newEuid(options?: { extension?: number | null }): string;
/** The clock id newTimeid() uses without one: drawn once per process from 512..991. */
export declare function defaultClockId(): number;

export declare function parseUid11(text: string): ParsedUid11;
/** Plain, or the display form STTT-TTT-TTTT-CC. */
export declare function parseTimeid(text: string): ParsedTimeid;
export declare function parseUlidflake(text: string): ParsedUlidflake;
export declare function parseUlid(text: string): ParsedUlid;
export declare function parseEuid(text: string): ParsedEuid;

export declare function isValidUid11(text: unknown): boolean;
export declare function isValidTimeid(text: unknown): boolean;
export declare function isValidUlidflake(text: unknown): boolean;
export declare function isValidUlid(text: unknown): boolean;
export declare function isValidEuid(text: unknown): boolean;

export declare function uid11Timestamp(text: string): Date;
export declare function timeidTimestamp(text: string): Date;
export declare function ulidflakeTimestamp(text: string): Date;
export declare function ulidTimestamp(text: string): Date;
export declare function euidTimestamp(text: string): Date;

export declare function formatUid11(value: bigint): string;
export declare function formatTimeid(value: bigint): string;
export declare function formatUlidflake(value: bigint): string;
export declare function formatUlid(value: bigint): string;
export declare function formatEuid(value: bigint): string;
/** The display form STTT-TTT-TTTT-CC of a TID given as text or value. */
export declare function timeidDashed(textOrValue: string | bigint): string;
