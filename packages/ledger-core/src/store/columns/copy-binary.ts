import { assert } from '../../domain/errors.js';
import type { SqlType } from './table.js';

/*
 * COPY's binary format (the PostgreSQL manual, "COPY", Binary Format) for the SQL types the
 * journal's COPY writes: Postgres takes each value as its receive function reads it, with no
 * text to parse (ADR 0016: 1.1-1.5 us a journal line less than the text format, measured). Each
 * encoder refuses, loudly, a value its type's text input would not take as it stands: a value
 * that cannot be encoded exactly never reaches the journal.
 */

/** "PGCOPY\n\377\r\n\0", no flags, no header extension. */
const HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
/** A field count of -1 ends the data. */
const TRAILER = Buffer.from([0xff, 0xff]);

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Postgres dates count days from 2000-01-01. */
const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);
const DAY_MS = 86_400_000;
const JSONB_VERSION = Buffer.from([1]);
const NUMERIC_NEGATIVE = 0x4000;

/**
 * A decimal string as Postgres stores a numeric: base-10,000 digits, the weight of the first,
 * the sign and the display scale (the fraction's digits as written, so 1.50 stays 1.50).
 */
function numeric(value: string): Buffer {
  const match = DECIMAL.exec(value);
  assert(match !== null, `not a decimal string for a numeric column: ${value}`);
  const [, minus, whole, fraction = ''] = match;
  const wholeDigits = whole!.replace(/^0+/, '');
  const padded = `${'0'.repeat((4 - (wholeDigits.length % 4)) % 4)}${wholeDigits}${fraction}${'0'.repeat((4 - (fraction.length % 4)) % 4)}`;
  const groups = Array.from({ length: padded.length / 4 }, (_, i) => Number(padded.slice(i * 4, i * 4 + 4)));
  let weight = Math.ceil(wholeDigits.length / 4) - 1;
  let first = 0;
  while (first < groups.length && groups[first] === 0) {
    first += 1;
    weight -= 1;
  }
  let end = groups.length;
  while (end > first && groups[end - 1] === 0) end -= 1;
  const digits = groups.slice(first, end);
  const buffer = Buffer.alloc(8 + 2 * digits.length);
  buffer.writeInt16BE(digits.length, 0);
  buffer.writeInt16BE(digits.length === 0 ? 0 : weight, 2);
  buffer.writeUInt16BE(minus === '-' && digits.length > 0 ? NUMERIC_NEGATIVE : 0, 4);
  buffer.writeInt16BE(fraction.length, 6);
  digits.forEach((digit, i) => buffer.writeInt16BE(digit, 8 + 2 * i));
  return buffer;
}

function date(value: string): Buffer {
  const ms = Date.parse(`${value}T00:00:00Z`);
  // Date.parse rolls 2026-02-30 into March; the round trip refuses what Postgres would refuse.
  assert(DATE.test(value) && !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(value), `not a date: ${value}`);
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE((ms - POSTGRES_EPOCH_MS) / DAY_MS);
  return buffer;
}

function uuid(value: string): Buffer {
  assert(UUID.test(value), `not a uuid: ${value}`);
  return Buffer.from(value.replaceAll('-', ''), 'hex');
}

/** The encoders of the types a COPYed table writes; the others are never COPYed (asserted). */
const ENCODERS: Partial<Record<SqlType, (value: never) => Buffer>> = {
  text: (value: string) => Buffer.from(value, 'utf8'),
  numeric,
  date,
  uuid,
  jsonb: (value: Record<string, unknown>) => Buffer.concat([JSONB_VERSION, Buffer.from(JSON.stringify(value), 'utf8')]),
};

/** One field: its length (-1: null) and its bytes. */
export function binaryField(sqlType: SqlType, value: unknown): Buffer[] {
  const length = Buffer.alloc(4);
  if (value === null || value === undefined) {
    length.writeInt32BE(-1);
    return [length];
  }
  const encode = ENCODERS[sqlType];
  assert(encode !== undefined, `a ${sqlType} column is not COPYed`);
  // A JS number is refused for every type, money first: the writers give decimal strings.
  assert(sqlType === 'jsonb' || typeof value === 'string', `a ${typeof value} for a ${sqlType} column`);
  const bytes = encode(value as never);
  length.writeInt32BE(bytes.length);
  return [length, bytes];
}

/** Rows of fields (each from binaryField) as one COPY binary stream: header, tuples, trailer. */
export function binaryCopy(rows: Iterable<Buffer[][]>): Buffer {
  const parts: Buffer[] = [HEADER];
  for (const fields of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(fields.length);
    parts.push(count, ...fields.flat());
  }
  parts.push(TRAILER);
  return Buffer.concat(parts);
}
