/**
 * One column table per stored resource: each column once, with its SQL type, how a draft fills
 * it and whether it is a fact of the record. The INSERT's column list, the keyed document the
 * INSERT reads (objects keyed by column name), the record definition that reads that document
 * (`json_to_recordset(...) AS t(txn_id uuid, ...)`), the RETURNING and SELECT lists, the JSON
 * objects of nested reads and the TypeScript row types are all derived from it, so a new column
 * is one edit, and no value can land in another column by position.
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
   * The column's value in the keyed document an INSERT reads, from the record being stored (wire
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
  [K in keyof C]: C[K] extends Column<'timestamptz', infer V, any> ? (null extends V ? string | null : string) : ValueOf<C[K]>;
};

/** ISO-8601 UTC with milliseconds, as JSON.stringify writes a Date. */
export const isoTimestamp = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const entries = (columns: Columns) => Object.entries(columns) as Array<[string, Column]>;
const written = (columns: Columns) => entries(columns).filter(([, c]) => c.write !== undefined);

/** The columns an INSERT writes, in the table's order: `txn_id, customer_id, ...`. */
export function insertList(columns: Columns): string {
  return written(columns)
    .map(([name]) => name)
    .join(', ');
}

/** The document's fields, in the table's order (each a column's name, or its writeVia field). */
export function documentFields(columns: Columns): string[] {
  return written(columns).map(([name, c]) => c.writeVia?.field ?? name);
}

/** The record definition that reads the document: `txn_id uuid, customer_id text, ...`. */
export function recordDefinition(columns: Columns): string {
  return written(columns)
    .map(([name, c]) => `${c.writeVia?.field ?? name} ${c.writeVia?.sqlType ?? c.sqlType}`)
    .join(', ');
}

/** What the INSERT's SELECT gives for each written column, from the document's record `alias`. */
export function insertValues(columns: Columns, alias: string): string {
  return written(columns)
    .map(([name, c]) => (c.writeVia ? c.writeVia.sql(`${alias}.${c.writeVia.field}`) : `${alias}.${name}`))
    .join(', ');
}

/** Qualified references of the columns, for a SELECT or RETURNING list (or knex's select). */
export function columnRefs<C extends Columns>(columns: C, alias?: string, except: ReadonlyArray<keyof C & string> = []): string[] {
  return Object.keys(columns)
    .filter((name) => !except.includes(name))
    .map((name) => (alias === undefined ? name : `${alias}.${name}`));
}

export const selectList = <C extends Columns>(columns: C, alias?: string, except: ReadonlyArray<keyof C & string> = []) =>
  columnRefs(columns, alias, except).join(', ');

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
    ...entries(columns).map(([name, c]) => `'${name}', ${jsonValue(c, `${alias}.${name}`)}`),
    ...Object.entries(extra).map(([name, sql]) => `'${name}', ${sql}`),
  ];
  return `json_build_object(${pairs.join(', ')})`;
}

/**
 * The keyed document an INSERT reads with `recordDefinition`: one JSON object per record, keyed
 * by column name. Sent as `json`, not `jsonb`: Postgres parses jsonb objects by sorting their
 * keys, which cost bulk posting ~15% of its throughput (ADR 0006); `json` is only validated, and
 * `json_to_recordset` reads each object once. A null value is left out (an absent key reads as
 * NULL): the document of a bulk batch is a tenth smaller.
 */
export function documentOf<S>(columns: Columns, records: Iterable<S>): string {
  const writers = written(columns).map(([name, c]) => [c.writeVia?.field ?? name, c.write as (source: S) => unknown] as const);
  const objects: Array<Record<string, unknown>> = [];
  for (const record of records) {
    const object: Record<string, unknown> = {};
    for (const [field, write] of writers) {
      const value = write(record);
      if (value !== null && value !== undefined) object[field] = value;
    }
    objects.push(object);
  }
  return JSON.stringify(objects);
}
