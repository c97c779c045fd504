import { assert } from '../../domain/errors.js';
import type { SqlType } from './table.js';

/*
 * COPY's binary format (the PostgreSQL manual, "COPY", Binary Format) for the SQL types the
 * journal's COPY writes: Postgres takes each value as its receive function reads it, with no
 * text to parse (ADR 0016). Each encoder refuses, loudly, a value its type's text input would
 * not take as it stands: a value that cannot be encoded exactly never reaches the journal.
 * Written into one growing buffer: a chunk's ~300,000 fields allocate nothing each.
 */

/** "PGCOPY\n\377\r\n\0", no flags, no header extension. */
const HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Postgres dates count days from 2000-01-01. */
const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);
const DAY_MS = 86_400_000;
const JSONB_VERSION = 1;
const NUMERIC_NEGATIVE = 0x4000;

/** A buffer written front to back, doubled when full. */
class Writer {
  buffer = Buffer.allocUnsafe(1 << 16);
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

  // Each write reserves first: `this.buffer.write…(v, this.reserve(n))` would read the buffer
  // before reserve grew it, and write past the old one's end.
  int16(value: number): void {
    const at = this.reserve(2);
    this.buffer.writeInt16BE(value, at);
  }

  uint16(value: number): void {
    const at = this.reserve(2);
    this.buffer.writeUInt16BE(value, at);
  }

  int32(value: number): void {
    const at = this.reserve(4);
    this.buffer.writeInt32BE(value, at);
  }

  bytes(value: string, encoding: 'utf8' | 'hex', length: number): void {
    const at = this.reserve(length);
    this.buffer.write(value, at, encoding);
  }

  /** A field of UTF-8 text, `prefix` bytes before it (jsonb's version). */
  text(value: string, prefix: number[] = []): void {
    const bytes = Buffer.byteLength(value, 'utf8');
    this.int32(prefix.length + bytes);
    for (const byte of prefix) {
      const at = this.reserve(1);
      this.buffer.writeUInt8(byte, at);
    }
    this.bytes(value, 'utf8', bytes);
  }
}

const ZERO = 48;
const NINE = 57;
const isDigit = (code: number) => code >= ZERO && code <= NINE;

/** The base-10,000 digit of `value`'s decimal digits from `start` (or four before `end`, if later) to `end`. */
function groupAt(value: string, start: number, end: number): number {
  let digit = 0;
  for (let k = Math.max(start, end - 4); k < end; k += 1) digit = digit * 10 + value.charCodeAt(k) - ZERO;
  return digit;
}

/**
 * A decimal string as Postgres stores a numeric: base-10,000 digits, the weight of the first,
 * the sign and the display scale (the fraction's digits as written, so 1.50 stays 1.50). Read by
 * character code, not by regular expression and slices: a chunk has ~70,000 of them.
 */
function numeric(out: Writer, value: string): void {
  const negative = value.charCodeAt(0) === 45; // '-'
  let from = negative ? 1 : 0;
  const dot = value.indexOf('.');
  const wholeEnd = dot === -1 ? value.length : dot;
  let valid = wholeEnd > from && (dot === -1 || dot < value.length - 1);
  for (let k = from; k < value.length && valid; k += 1) valid = k === dot || isDigit(value.charCodeAt(k));
  assert(valid, `not a decimal string for a numeric column: ${value}`);
  while (from < wholeEnd && value.charCodeAt(from) === ZERO) from += 1; // leading zeros weigh nothing
  const fraction = dot === -1 ? 0 : value.length - dot - 1;
  // Whole digits in groups of four ending at the point; the fraction's starting at it, zero-padded.
  const wholeGroups = Math.ceil((wholeEnd - from) / 4);
  const groups: number[] = [];
  for (let g = wholeGroups - 1; g >= 0; g -= 1) groups.push(groupAt(value, from, wholeEnd - 4 * g));
  for (let k = dot + 1; dot !== -1 && k < value.length; k += 4) {
    const end = Math.min(k + 4, value.length);
    groups.push(groupAt(value, k, end) * 10 ** (4 - (end - k)));
  }
  let first = 0;
  let end = groups.length;
  while (first < end && groups[first] === 0) first += 1;
  while (end > first && groups[end - 1] === 0) end -= 1;
  const digits = end - first;
  out.int32(8 + 2 * digits);
  out.int16(digits);
  out.int16(digits === 0 ? 0 : wholeGroups - 1 - first);
  out.uint16(negative && digits > 0 ? NUMERIC_NEGATIVE : 0);
  out.int16(fraction);
  for (let g = first; g < end; g += 1) out.int16(groups[g]!);
}

/** Days since 2000-01-01 of each date seen: a chunk's lines carry a few hundred dates, each parsed and checked once. */
const DAYS = new Map<string, number>();
const DAYS_KEPT = 100_000;

function date(out: Writer, value: string): void {
  let days = DAYS.get(value);
  if (days === undefined) {
    const ms = Date.parse(`${value}T00:00:00Z`);
    // Date.parse rolls 2026-02-30 into March; the round trip refuses what Postgres would refuse.
    assert(
      DATE.test(value) && !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(value),
      `not a date: ${value}`,
    );
    days = (ms - POSTGRES_EPOCH_MS) / DAY_MS;
    if (DAYS.size >= DAYS_KEPT) DAYS.clear();
    DAYS.set(value, days);
  }
  out.int32(4);
  out.int32(days);
}

function uuid(out: Writer, value: string): void {
  assert(UUID.test(value), `not a uuid: ${value}`);
  out.int32(16);
  out.bytes(value.replaceAll('-', ''), 'hex', 16);
}

/** The encoders of the types a COPYed table writes; the others are never COPYed (asserted). */
const ENCODERS: Partial<Record<SqlType, (out: Writer, value: never) => void>> = {
  text: (out, value: string) => out.text(value),
  numeric,
  date,
  uuid,
  jsonb: (out, value: Record<string, unknown>) => out.text(JSON.stringify(value), [JSONB_VERSION]),
};

/** One field: its length (-1: null) and its bytes. */
function field(out: Writer, sqlType: SqlType, value: unknown): void {
  if (value === null || value === undefined) return out.int32(-1);
  const encode = ENCODERS[sqlType];
  assert(encode !== undefined, `a ${sqlType} column is not COPYed`);
  // A JS number is refused for every type, money first: the writers give decimal strings.
  assert(sqlType === 'jsonb' || typeof value === 'string', `a ${typeof value} for a ${sqlType} column`);
  encode(out, value as never);
}

/** Rows, each its fields' SQL types and values in the COPY's column order, as one COPY binary stream. */
export function binaryCopy(rows: Iterable<ReadonlyArray<readonly [SqlType, unknown]>>): Buffer {
  const out = new Writer();
  const at = out.reserve(HEADER.length);
  HEADER.copy(out.buffer, at);
  for (const fields of rows) {
    out.int16(fields.length);
    for (const [sqlType, value] of fields) field(out, sqlType, value);
  }
  out.int16(-1);
  return out.buffer.subarray(0, out.length);
}
