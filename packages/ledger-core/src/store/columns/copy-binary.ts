import { assert } from '../../domain/errors.js';
import { ZERO_CENTS } from '../../domain/money.js';
import type { SqlType } from './table.js';

/*
 * COPY's binary format (the PostgreSQL manual, "COPY", Binary Format) for the SQL types the
 * journal's COPY writes: Postgres takes each value as its receive function reads it, with no
 * text to parse (ADR 0016). Each encoder refuses, loudly, a value its type's text input would
 * not take as it stands: a value that cannot be encoded exactly never reaches the journal.
 * Written into one growing buffer: a chunk's ~300,000 fields allocate nothing each, and each
 * field's encoder is chosen once per COPY, not per value.
 */

/** "PGCOPY\n\377\r\n\0", no flags, no header extension. */
const HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Postgres dates count days from 2000-01-01. */
const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);
const DAY_MS = 86_400_000;
const JSONB_VERSION = 1;
const NUMERIC_NEGATIVE = 0x4000;

/** A buffer written front to back, doubled when full. */
class Writer {
  // A chunk of 10,000 transactions is a few MB: start at 1 MB, so it is copied once or twice, not seven times.
  buffer = Buffer.allocUnsafe(1 << 20);
  length = 0;

  reserve(bytes: number): number {
    if (this.length + bytes > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    const at = this.length;
    this.length += bytes;
    return at;
  }

  // Each write reserves first, then reads `this.buffer`: reserve may have replaced it. Bytes are
  // set one by one: cheaper in V8 than Buffer's write methods for a few bytes each.
  int16(value: number): void {
    const at = this.reserve(2);
    const b = this.buffer;
    b[at] = (value >>> 8) & 0xff;
    b[at + 1] = value & 0xff;
  }

  int32(value: number): void {
    this.int32At(this.reserve(4), value);
  }

  /** An int32 at `at`, already reserved. */
  private int32At(at: number, value: number): void {
    const b = this.buffer;
    b[at] = (value >>> 24) & 0xff;
    b[at + 1] = (value >>> 16) & 0xff;
    b[at + 2] = (value >>> 8) & 0xff;
    b[at + 3] = value & 0xff;
  }

  /**
   * A field of UTF-8 text, after `version` (jsonb's) when given. Room for the most bytes the text
   * can take (3 a UTF-16 unit) is reserved and the length set after: a short ASCII value (codes,
   * ids) is copied byte by byte, cheaper than a call to Buffer's encoder; anything else is written
   * by that encoder in one call, which says how many bytes it wrote.
   */
  text(value: string, version?: number): void {
    const head = version === undefined ? 0 : 1;
    const lengthAt = this.reserve(4 + head + 3 * value.length);
    const b = this.buffer;
    if (version !== undefined) b[lengthAt + 4] = version;
    const from = lengthAt + 4 + head;
    let bytes = value.length <= SHORT_TEXT ? asciiInto(b, value, from) : -1;
    if (bytes === -1) bytes = b.write(value, from, 3 * value.length, 'utf8');
    this.int32At(lengthAt, head + bytes);
    this.length = from + bytes;
  }
}

/** Up to this many UTF-16 units, text is tried as ASCII byte by byte (measured: faster below ~30). */
const SHORT_TEXT = 24;

/** Copies `value` into `b` from `at` if it is all ASCII: its length, else -1 (nothing promised of `b`). */
function asciiInto(b: Buffer, value: string, at: number): number {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code > 0x7f) return -1;
    b[at + i] = code;
  }
  return value.length;
}

const ZERO = 48;
const NINE = 57;
const DASH = 45;
const isDigit = (code: number) => code >= ZERO && code <= NINE;

/** The base-10,000 digit of `value`'s decimal digits from `start` (or four before `end`, if later) to `end`. */
function groupAt(value: string, start: number, end: number): number {
  let digit = 0;
  for (let k = Math.max(start, end - 4); k < end; k += 1) digit = digit * 10 + value.charCodeAt(k) - ZERO;
  return digit;
}

/** Reused by every numeric: a chunk has ~70,000 of them, each allocating nothing. */
let groups = new Uint16Array(64);

/** Whether `value` is a decimal string Postgres's numeric input takes as it stands: `-?\d+(\.\d+)?`. */
function isDecimal(value: string, from: number, dot: number, wholeEnd: number): boolean {
  if (wholeEnd <= from || dot === value.length - 1) return false;
  for (let k = from; k < value.length; k += 1) if (k !== dot && !isDigit(value.charCodeAt(k))) return false;
  return true;
}

/**
 * A decimal string as Postgres stores a numeric: base-10,000 digits, the weight of the first,
 * the sign and the display scale (the fraction's digits as written, so 1.50 stays 1.50). Read by
 * character code, not by regular expression and slices.
 */
function numeric(out: Writer, value: string): void {
  // 0.00: no digits, weight 0, positive, display scale 2.
  if (value === ZERO_CENTS) return numericHead(out, 0, 0, false, 2);
  const negative = value.charCodeAt(0) === DASH;
  let from = negative ? 1 : 0;
  const dot = value.indexOf('.');
  const wholeEnd = dot === -1 ? value.length : dot;
  if (!isDecimal(value, from, dot, wholeEnd)) fail(`not a decimal string for a numeric column: ${value}`);
  while (from < wholeEnd && value.charCodeAt(from) === ZERO) from += 1; // leading zeros weigh nothing
  const fraction = dot === -1 ? 0 : value.length - dot - 1;
  if (groups.length < value.length) groups = new Uint16Array(2 * value.length);
  // Whole digits in groups of four ending at the point; the fraction's starting at it, zero-padded.
  const wholeGroups = Math.ceil((wholeEnd - from) / 4);
  let count = 0;
  for (let g = wholeGroups - 1; g >= 0; g -= 1) groups[count++] = groupAt(value, from, wholeEnd - 4 * g);
  for (let k = dot + 1; dot !== -1 && k < value.length; k += 4) {
    const end = Math.min(k + 4, value.length);
    groups[count++] = groupAt(value, k, end) * 10 ** (4 - (end - k));
  }
  let first = 0;
  let end = count;
  while (first < end && groups[first] === 0) first += 1;
  while (end > first && groups[end - 1] === 0) end -= 1;
  const digits = end - first;
  numericHead(out, digits, digits === 0 ? 0 : wholeGroups - 1 - first, negative && digits > 0, fraction);
  for (let g = first; g < end; g += 1) out.int16(groups[g]!);
}

/** A numeric's length and header (its base-10,000 digits follow): digit count, weight, sign, display scale. */
function numericHead(out: Writer, digits: number, weight: number, negative: boolean, scale: number): void {
  out.int32(8 + 2 * digits);
  out.int16(digits);
  out.int16(weight);
  out.int16(negative ? NUMERIC_NEGATIVE : 0);
  out.int16(scale);
}

/** Days since 2000-01-01 of each date seen: a chunk's lines carry a few hundred dates, each parsed and checked once. */
const DAYS = new Map<string, number>();
const DAYS_KEPT = 100_000;

function date(out: Writer, value: string): void {
  let days = DAYS.get(value);
  if (days === undefined) {
    const ms = Date.parse(`${value}T00:00:00Z`);
    // Date.parse rolls 2026-02-30 into March; the round trip refuses what Postgres would refuse.
    if (!(DATE.test(value) && !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(value)))
      fail(`not a date: ${value}`);
    days = (ms - POSTGRES_EPOCH_MS) / DAY_MS;
    if (DAYS.size >= DAYS_KEPT) DAYS.clear();
    DAYS.set(value, days);
  }
  out.int32(4);
  out.int32(days);
}

/** Each ASCII code's value as a hex digit, -1 where it is none. */
const HEX = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d += 1) {
  HEX['0123456789abcdef'.charCodeAt(d)] = d;
  HEX['0123456789ABCDEF'.charCodeAt(d)] = d;
}
const hexOf = (code: number) => (code < 128 ? HEX[code]! : -1);
/** Where each of a uuid's 16 bytes starts in its text form `8-4-4-4-12`. */
const UUID_PAIRS = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

function uuid(out: Writer, value: string): void {
  let valid =
    value.length === 36 &&
    value.charCodeAt(8) === DASH &&
    value.charCodeAt(13) === DASH &&
    value.charCodeAt(18) === DASH &&
    value.charCodeAt(23) === DASH;
  out.int32(16);
  const at = out.reserve(16);
  const b = out.buffer;
  for (let j = 0; j < 16 && valid; j += 1) {
    const high = hexOf(value.charCodeAt(UUID_PAIRS[j]!));
    const low = hexOf(value.charCodeAt(UUID_PAIRS[j]! + 1));
    valid = high >= 0 && low >= 0;
    b[at + j] = (high << 4) | low;
  }
  if (!valid) fail(`not a uuid: ${value}`);
}

/**
 * A uuid field encoded once per run of equal values: a transaction's lines each carry its id,
 * so a line's is, most of the time, the 16 bytes just written for the line before.
 */
function uuidRuns(): (out: Writer, value: string) => void {
  let last = '';
  let lastAt = 0;
  return (out, value) => {
    if (value !== last) {
      uuid(out, value);
      last = value;
      lastAt = out.length - 16;
      return;
    }
    out.int32(16);
    const at = out.reserve(16);
    const b = out.buffer;
    for (let j = 0; j < 16; j += 1) b[at + j] = b[lastAt + j]!;
  };
}

/** An encoding refused: the message is built only then (a chunk has ~300,000 fields). */
function fail(message: string): never {
  assert(false, message);
}

type Encoder = (out: Writer, value: never) => void;

/**
 * The encoders of the types a COPYed table writes, each made per field and per COPY (a uuid's
 * keeps its field's last value); the other types are never COPYed (asserted).
 */
const ENCODERS: Partial<Record<SqlType, () => Encoder>> = {
  text: () => (out, value: string) => out.text(value),
  numeric: () => numeric,
  date: () => date,
  uuid: uuidRuns,
  jsonb: () => (out, value: Record<string, unknown>) => out.text(JSON.stringify(value), JSONB_VERSION),
};

/** A field of each record: its SQL type and how the record gives its value. */
export interface CopyField<S> {
  readonly sqlType: SqlType;
  readonly value: (record: S) => unknown;
}

/** One field's encoder: its length (-1: null) and its bytes, a JS number refused for every type. */
function encoderOf(sqlType: SqlType): (out: Writer, value: unknown) => void {
  const encoderFor = ENCODERS[sqlType];
  assert(encoderFor !== undefined, `a ${sqlType} column is not COPYed`);
  const encode = encoderFor();
  const isString = sqlType !== 'jsonb';
  return (out, value) => {
    if (value === null || value === undefined) return out.int32(-1);
    // Money first: the writers give decimal strings.
    if (isString && typeof value !== 'string') fail(`a ${typeof value} for a ${sqlType} column`);
    encode(out, value as never);
  };
}

/** `records` as one COPY binary stream: a row each, its fields in `fields`' order. */
export function binaryCopy<S>(fields: ReadonlyArray<CopyField<S>>, records: Iterable<S>): Buffer {
  const encoders = fields.map((f) => encoderOf(f.sqlType));
  const values = fields.map((f) => f.value);
  const n = fields.length;
  const out = new Writer();
  const at = out.reserve(HEADER.length);
  HEADER.copy(out.buffer, at);
  for (const record of records) {
    out.int16(n);
    for (let i = 0; i < n; i += 1) encoders[i]!(out, values[i]!(record));
  }
  out.int16(-1);
  return out.buffer.subarray(0, out.length);
}
