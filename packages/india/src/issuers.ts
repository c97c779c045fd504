import { LedgerError } from '@ledger/core/posting';
import type { Db } from '@ledger/core/store';
import { CsvError, parse } from 'csv-parse/sync';
import { SYMBOL } from './load.js';

/** What a symbol is, for the holding period: a share, or units of an ETF or other fund. */
export const INSTRUMENT_TYPES = ['share', 'fund_unit'] as const;
export type InstrumentType = (typeof INSTRUMENT_TYPES)[number];

/** The entity behind a symbol, as Schedule FA's table A3 names a holding, and what the symbol is. */
export interface Issuer {
  symbol: string;
  entityName: string;
  address: string;
  zipCode: string;
  country: string;
  natureOfEntity: string;
  /** Null only for a row stored before the column existed (load the file again). */
  instrumentType: InstrumentType | null;
}

/** The issuers file's columns (a header line names them, in any order) and each one's longest value. */
export const ISSUER_COLUMNS = {
  symbol: 32,
  entity_name: 200,
  address: 500,
  zip_code: 20,
  country: 100,
  nature_of_entity: 200,
  instrument_type: 20,
} as const;
type Column = keyof typeof ISSUER_COLUMNS;
const COLUMNS = Object.keys(ISSUER_COLUMNS) as Column[];
/** The Issuer field each column fills: the file, the table and the type say one thing. */
const FIELD_OF = {
  symbol: 'symbol',
  entity_name: 'entityName',
  address: 'address',
  zip_code: 'zipCode',
  country: 'country',
  nature_of_entity: 'natureOfEntity',
  instrument_type: 'instrumentType',
} as const satisfies Record<Column, keyof Issuer>;
const issuerOf = (row: Record<Column, string>) =>
  Object.fromEntries(COLUMNS.map((column) => [FIELD_OF[column], row[column]])) as unknown as Issuer;

export interface SkippedIssuer {
  line: number;
  symbol: string | null;
  /** `bad_symbol`, `missing_<column>`, `too_long_<column>`, `bad_instrument_type` (not share or fund_unit), or `superseded_in_file` (a later line names the symbol again: it stands). */
  reason: string;
}

/** What a load did: symbols new to the table, symbols whose row it replaced, rows already there, lines skipped and why. */
export interface IssuersLoad extends Record<string, unknown> {
  source: string;
  loaded: number;
  replaced: number;
  unchanged: number;
  skipped: number;
  skipped_rows: SkippedIssuer[];
}

/**
 * Issuers from CSV with a header line naming ISSUER_COLUMNS (quoted fields may hold commas).
 * A line that cannot be taken is skipped and named; a file that is not CSV, or lacks a column,
 * is refused whole (a validation error).
 */
export function parseIssuers(csv: string): { issuers: Issuer[]; skipped: SkippedIssuer[] } {
  // The header is checked as it is read: a file of a header alone is refused as surely as one with rows.
  const header = (names: string[]) => {
    const missing = Object.keys(ISSUER_COLUMNS).filter((c) => !names.includes(c));
    if (missing.length > 0)
      throw new LedgerError('validation_error', `the issuers file lacks the column(s) ${missing.join(', ')}`, [
        { path: '/body/csv', message: `the header must name ${Object.keys(ISSUER_COLUMNS).join(', ')}` },
      ]);
    return names;
  };
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(csv, { bom: true, columns: header, skip_empty_lines: true, trim: true, info: true });
  } catch (error) {
    // csv-parse's own message quotes the record: only its code and line are kept.
    if (!(error instanceof CsvError)) throw error;
    const line = (error as CsvError & { lines?: number }).lines;
    throw new LedgerError('validation_error', `the issuers file is not valid CSV: ${error.code}`, [
      { path: '/body/csv', message: `not valid CSV: ${error.code}${line === undefined ? '' : ` at line ${line}`}` },
    ]);
  }
  const bySymbol = new Map<string, { issuer: Issuer; line: number }>();
  const skipped: SkippedIssuer[] = [];
  for (const { record, info } of records) {
    const symbol = record.symbol ?? '';
    const problem = SYMBOL.test(symbol)
      ? COLUMNS.flatMap((column) => {
          const value = record[column] ?? '';
          if (value === '') return [`missing_${column}`];
          if (value.length > ISSUER_COLUMNS[column]) return [`too_long_${column}`];
          return column === 'instrument_type' && !(INSTRUMENT_TYPES as readonly string[]).includes(value)
            ? ['bad_instrument_type']
            : [];
        })[0]
      : 'bad_symbol';
    if (problem !== undefined) {
      skipped.push({ line: info.lines, symbol: symbol || null, reason: problem });
      continue;
    }
    const earlier = bySymbol.get(symbol);
    if (earlier) skipped.push({ line: earlier.line, symbol, reason: 'superseded_in_file' });
    bySymbol.set(symbol, { line: info.lines, issuer: issuerOf(record as Record<Column, string>) });
  }
  skipped.sort((a, b) => a.line - b.line);
  return { issuers: [...bySymbol.values()].map((v) => v.issuer), skipped };
}

/** The columns a later load replaces. */
const DETAILS = COLUMNS.filter((column) => column !== 'symbol');

/**
 * Loads issuers (parseIssuers) into `issuers`. Idempotent: a row equal to the stored one is
 * `unchanged`; one that differs replaces it (`replaced`), in one statement.
 */
export async function loadIssuers(db: Db, csv: string, source: string): Promise<IssuersLoad> {
  const { issuers, skipped } = parseIssuers(csv);
  const stored = new Map(
    (
      await issuersOf(
        db,
        issuers.map((i) => i.symbol),
      )
    ).map((i) => [i.symbol, i]),
  );
  const changed = issuers.filter((i) => {
    const s = stored.get(i.symbol);
    return s === undefined || DETAILS.some((column) => s[FIELD_OF[column]] !== i[FIELD_OF[column]]);
  });
  if (changed.length > 0)
    await db.raw(
      `INSERT INTO issuers (${COLUMNS.join(', ')}, source)
       SELECT * FROM unnest(${[...COLUMNS, 'source'].map(() => '?::text[]').join(', ')})
       ON CONFLICT (symbol) DO UPDATE SET ${DETAILS.map((c) => `${c} = excluded.${c}`).join(', ')}, source = excluded.source, recorded_at = now()`,
      // A parsed issuer has every field (only a stored row from before instrument_type lacks it).
      [...COLUMNS.map((column) => changed.map((i) => i[FIELD_OF[column]] as string)), changed.map(() => source)],
    );
  return loadOutcome(source, issuers, changed, (i) => !stored.has(i.symbol), skipped);
}

/**
 * What a load of reference rows did: `changed` of `rows` were written, those `isNew` to the table
 * `loaded`, the rest `replaced`; the others were already there (`unchanged`); lines `skipped`.
 */
export function loadOutcome<Row, Skipped>(
  source: string,
  rows: Row[],
  changed: Row[],
  isNew: (row: Row) => boolean,
  skipped: Skipped[],
) {
  const loaded = changed.filter(isNew).length;
  return {
    source,
    loaded,
    replaced: changed.length - loaded,
    unchanged: rows.length - changed.length,
    skipped: skipped.length,
    skipped_rows: skipped,
  };
}

/** The stored issuers of `symbols`. */
export async function issuersOf(db: Db, symbols: string[]): Promise<Issuer[]> {
  const { rows } = await db.raw<{ rows: Array<Record<Column, string>> }>(
    `SELECT ${COLUMNS.join(', ')} FROM issuers WHERE symbol = ANY(?::text[])`,
    [symbols],
  );
  return rows.map(issuerOf);
}
