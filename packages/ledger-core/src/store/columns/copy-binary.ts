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

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
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

/**
 * A decimal string as Postgres stores a numeric: base-10,000 digits, the weight of the first,
 * the sign and the display scale (the fraction's digits as written, so 1.50 stays 1.50).
 */
function numeric(out: Writer, value: string): void {
  const match = DECIMAL.exec(value);
  assert(match !== null, `not a decimal string for a numeric column: ${value}`);
  const [, minus, whole, fraction = ''] = match;
  const wholeDigits = whole!.replace(/^0+/, '');
  const padded = `${'0'.repeat((4 - (wholeDigits.length % 4)) % 4)}${wholeDigits}${fraction}${'0'.repeat((4 - (fraction.length % 4)) % 4)}`;
  let first = 0;
  let end = padded.length / 4;
  const group = (i: number) => Number(padded.slice(i * 4, i * 4 + 4));
  while (first < end && group(first) === 0) first += 1;
  while (end > first && group(end - 1) === 0) end -= 1;
  const digits = end - first;
  out.int32(8 + 2 * digits);
  out.int16(digits);
  out.int16(digits === 0 ? 0 : Math.ceil(wholeDigits.length / 4) - 1 - first);
  out.uint16(minus === '-' && digits > 0 ? NUMERIC_NEGATIVE : 0);
  out.int16(fraction.length);
  for (let i = first; i < end; i += 1) out.int16(group(i));
}

function date(out: Writer, value: string): void {
  const ms = Date.parse(`${value}T00:00:00Z`);
  // Date.parse rolls 2026-02-30 into March; the round trip refuses what Postgres would refuse.
  assert(DATE.test(value) && !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(value), `not a date: ${value}`);
  out.int32(4);
  out.int32((ms - POSTGRES_EPOCH_MS) / DAY_MS);
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
