import { assert } from '../../domain/errors.js';
import { binaryCopy } from './copy-binary.js';

/**
 * One column table per stored resource: each column once, with its SQL type, how a draft fills
 * it and whether it is a fact of the record. The INSERT's column list, the document the INSERT
 * reads and the SQL reading it (`documentRecords`), the RETURNING and SELECT lists, the JSON
 * objects of nested reads and the TypeScript row types are all derived from it, so a new column
 * is one edit, and no value can land in another column by position: the document's writer and
 * its reader take their positions from the same list (ADR 0006).
 */

/**
 * What node-postgres gives for each SQL type the ledger uses: numeric and bigint as strings
 * (never floats), dates as 'YYYY-MM-DD' strings (store/db.ts), timestamps as Dates.
 */
export interface RowValue {
  uuid: string;
  text: string;
  numeric: string;
  bigint: string;
  date: string;
  boolean: boolean;
  timestamptz: Date;
  jsonb: Record<string, unknown>;
}
export type SqlType = keyof RowValue;

export interface Column<T extends SqlType = SqlType, V = unknown, S = never> {
  readonly sqlType: T;
  readonly nullable: boolean;
  /**
   * The column's value in the document an INSERT reads, from the record being stored (wire
   * form: decimals as strings). Absent: the database fills the column (a default, a sequence, a
   * stamp of its own).
   */
  readonly write?: (source: S) => unknown;
  /**
   * When the document's field is not the column's value itself: the field's name and type in the
   * document, and the SQL making the column's value of it (`field` is the qualified reference).
   */
  readonly writeVia?: { readonly field: string; readonly sqlType: SqlType; readonly sql: (field: string) => string };
  /**
   * When the value is not stored in the table's row but read beside it: the SQL giving it for
   * the row aliased `alias`. Such a column is never written by the table's INSERT.
   */
  readonly readVia?: (alias: string) => string;
  /**
   * A fact of the record: a re-sent record that differs here is another record (a conflict).
   * Not ids, business keys, fingerprints or the database's stamps.
   */
  readonly fact: boolean;
  /** Type only: the value a row read with node-postgres carries. */
  readonly __row?: V;
}

export interface ColumnOptions<S> {
  write?: (source: S) => unknown;
  writeVia?: Column['writeVia'];
  readVia?: Column['readVia'];
  fact?: boolean;
}

// `any` here lets a table of any record type be passed where only its columns are looked at.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Columns = Readonly<Record<string, Column<SqlType, unknown, any>>>;

/**
 * Column constructors for a resource whose records come from `S` (a draft, a line of a draft).
 * `V` narrows what a row carries when the column holds less than its SQL type allows (a
 * `txn_type` is a TxnType, not any text).
 */
export function columnsFrom<S>() {
  const make = <T extends SqlType, V>(sqlType: T, nullable: boolean, options: ColumnOptions<S>): Column<T, V, S> => ({
    sqlType,
    nullable,
    fact: options.fact ?? false,
    ...(options.write && { write: options.write }),
    ...(options.writeVia && { writeVia: options.writeVia }),
    ...(options.readVia && { readVia: options.readVia }),
  });
  return {
    required: <T extends SqlType, V extends RowValue[T] = RowValue[T]>(sqlType: T, options: ColumnOptions<S> = {}) =>
      make<T, V>(sqlType, false, options),
    nullable: <T extends SqlType, V extends RowValue[T] = RowValue[T]>(sqlType: T, options: ColumnOptions<S> = {}) =>
      make<T, V | null>(sqlType, true, options),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ValueOf<C> = C extends Column<SqlType, infer V, any> ? V : never;

/** A row as a SELECT of the columns gives it. */
export type RowOf<C extends Columns> = { [K in keyof C]: ValueOf<C[K]> };

/** A row as a JSON object of the columns gives it (jsonObject): timestamps are ISO-8601 strings. */
export type JsonRowOf<C extends Columns> = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [K in keyof C]: C[K] extends Column<'timestamptz', infer V, any>
    ? null extends V
      ? string | null
      : string
    : ValueOf<C[K]>;
};

/** ISO-8601 UTC with milliseconds, as JSON.stringify writes a Date. */
export const isoTimestamp = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const entries = (columns: Columns) => Object.entries(columns) as Array<[string, Column]>;
const written = (columns: Columns) => entries(columns).filter(([, c]) => c.write !== undefined);

/** The columns an INSERT writes, in the table's order: `txn_id, customer_id, ...`. */
export function insertList(columns: Columns): string {
  return written(columns)
    .map(([name]) => name)
    .join(', ');
}

/** What the INSERT's SELECT gives for each written column, from the document's record `alias`. */
export function insertValues(columns: Columns, alias: string): string {
  return written(columns)
    .map(([name, c]) => (c.writeVia ? c.writeVia.sql(`${alias}.${c.writeVia.field}`) : `${alias}.${name}`))
    .join(', ');
}

/**
 * Qualified references of the columns, for a SELECT or RETURNING list (knex's select takes them
 * as raw SQL): a column read beside the row (readVia) as its SQL, named; a RETURNING list
 * (no alias) must leave those out.
 */
export function columnRefs<C extends Columns>(
  columns: C,
  alias?: string,
  except: ReadonlyArray<keyof C & string> = [],
): string[] {
  return entries(columns)
    .filter(([name]) => !except.includes(name))
    .map(([name, c]) => {
      if (c.readVia === undefined) return alias === undefined ? name : `${alias}.${name}`;
      assert(alias !== undefined, `column ${name} is read beside its row: a RETURNING list cannot give it`);
      return `${c.readVia(alias)} AS ${name}`;
    });
}

export const selectList = <C extends Columns>(
  columns: C,
  alias?: string,
  except: ReadonlyArray<keyof C & string> = [],
) => columnRefs(columns, alias, except).join(', ');

/** How a column is written inside a JSON object so that it reads back as JsonRowOf says. */
function jsonValue(column: Column, ref: string): string {
  if (column.sqlType === 'timestamptz') return isoTimestamp(ref);
  // Decimals and bigints as strings: a JSON number would become a JS float.
  if (column.sqlType === 'numeric' || column.sqlType === 'bigint') return `${ref}::text`;
  return ref;
}

/** `json_build_object('line_id', l.line_id::text, ...)` of the columns of `alias`, plus `extra` (name → SQL). */
export function jsonObject(columns: Columns, alias: string, extra: Readonly<Record<string, string>> = {}): string {
  const pairs = [
    ...entries(columns).map(([name, c]) => `'${name}', ${jsonValue(c, c.readVia?.(alias) ?? `${alias}.${name}`)}`),
    ...Object.entries(extra).map(([name, sql]) => `'${name}', ${sql}`),
  ];
  return `json_build_object(${pairs.join(', ')})`;
}

/**
 * The document an INSERT reads: one JSON array per record holding its written columns' values
 * in the table's order (null where there is none), read back by `documentRecords`, which takes
 * the positions from the same list. Positional `jsonb`, not keyed objects: Postgres reads it for
 * a third of what `json_to_recordset` over keyed objects costs, and bulk posting spends ~15% of
 * its Postgres time there (ADR 0006).
 */
export function documentOf<S>(columns: Columns, records: Iterable<S>): string {
  const writers = written(columns).map(([, c]) => c.write as (source: S) => unknown);
  const rows: unknown[][] = [];
  for (const record of records) rows.push(writers.map((write) => write(record) ?? null));
  return JSON.stringify(rows);
}

/**
 * The records of a document of `documentOf` (`placeholder`: knex's `?`, pg's `$1`) as a derived
 * table to alias: each written column typed under its document field's name (the column's, or
 * its writeVia field), and `position`, the record's place in the document from 1.
 */
export function documentRecords(columns: Columns, placeholder: string): string {
  const fields = written(columns).map(([name, c], i) => {
    const field = c.writeVia?.field ?? name;
    const sqlType = c.writeVia?.sqlType ?? c.sqlType;
    // A JSON null inside the array is SQL NULL, as an absent value is.
    if (sqlType === 'jsonb') return `nullif(d.record -> ${i}, 'null') AS ${field}`;
    if (sqlType === 'text') return `d.record ->> ${i} AS ${field}`;
    return `(d.record ->> ${i})::${sqlType} AS ${field}`;
  });
  return `(SELECT ${fields.join(', ')}, d.position FROM jsonb_array_elements(${placeholder}::jsonb) WITH ORDINALITY AS d(record, position))`;
}

/**
 * `COPY <table> (<written columns>) FROM STDIN`, binary format, for rows of `copyRows`: the same
 * column list as the INSERT's, so a COPYed value lands where the INSERT would put it. A column
 * written through SQL (writeVia) cannot be COPYed: its field is not the column's value.
 */
export function copyFromStdin(table: string, columns: Columns): string {
  for (const [name, c] of written(columns))
    assert(c.writeVia === undefined, `column ${name} of ${table} is written through SQL: COPY cannot give it`);
  return `COPY ${table} (${insertList(columns)}) FROM STDIN (FORMAT binary)`;
}

/**
 * The rows of `records` in COPY's binary format for `copyFromStdin`: the written columns in the
 * table's order, each value as its column's writer gives it, encoded by its SQL type
 * (copy-binary.ts: decimals from their decimal strings, never from a JS number).
 */
export function copyRows<S>(columns: Columns, records: Iterable<S>): Buffer {
  const fields = written(columns).map(([, c]) => ({ sqlType: c.sqlType, value: c.write as (source: S) => unknown }));
  return binaryCopy(fields, records);
}
