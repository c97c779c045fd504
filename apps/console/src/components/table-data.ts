import BigNumber from 'bignumber.js';

/**
 * The report tables' data, apart from React and the page (so it is tested without a browser):
 * rows, the columns a report declares, decimals compared and summed as decimals, CSV.
 */
/** A value of the API's JSON. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** One row of a table: a record of the report, nested values flattened by the spec. */
export type Row = Record<string, Json>;

export const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * One column, as a report's spec declares it: the row's `key`, its header, how it aligns (`money`
 * and `num` right-aligned, sorted as decimals) and whether the totals row sums it.
 */
export interface DataColumn {
  key: string;
  label: string;
  align?: 'text' | 'num' | 'money';
  total?: boolean;
}

/** One table of a report: its rows, columns and which rows need action (shown first, highlighted). */
export interface TableSpec {
  /** Names the table in the address (`<id>.sort`, `<id>.page`) and in the CSV's file name. */
  id: string;
  title: string;
  columns: readonly DataColumn[];
  rows: readonly Row[];
  flag?: (row: Row) => boolean;
}

export const isDecimal = (value: Json | undefined): value is string => typeof value === 'string' && DECIMAL.test(value);

/** Decimals compared as decimals (bignumber.js, never a float); nulls last; the rest as text. */
export function compare(a: Json | undefined, b: Json | undefined, numeric: boolean): number {
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
  if (b === null || b === undefined) return -1;
  if (numeric && (isDecimal(a) || typeof a === 'number') && (isDecimal(b) || typeof b === 'number'))
    return new BigNumber(a).comparedTo(new BigNumber(b)) ?? 0;
  return text(a).localeCompare(text(b));
}

/** A value as one line of text (the CSV's and the text sort's). */
export function text(value: Json | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return value.join(', ');
  return JSON.stringify(value);
}

/** The sum of a money or number column as a decimal string (bignumber.js: money never goes through a float). */
export function total(rows: readonly Row[], key: string): string {
  return rows
    .reduce((sum, row) => {
      const value = row[key];
      return isDecimal(value) || typeof value === 'number' ? sum.plus(value) : sum;
    }, new BigNumber(0))
    .toFixed();
}

const csvField = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The rows as CSV: a header of the columns' labels, decimals as the API gave them. */
export function toCsv(columns: readonly DataColumn[], rows: readonly Row[]): string {
  const lines = [
    columns.map((c) => csvField(c.label)),
    ...rows.map((r) => columns.map((c) => csvField(text(r[c.key])))),
  ];
  return lines.map((l) => l.join(',')).join('\r\n') + '\r\n';
}
