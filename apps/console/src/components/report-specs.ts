import type { DataColumn, Json, Row, TableSpec } from './table-data.js';

/**
 * What each report's tables are: a report with a spec (`india-specs.ts`) gets its columns as declared; any
 * other report (a new one as it lands) gets them derived from its answer by `deriveTables`, with
 * the same flag rule. Both give `TableSpec`s to the one `DataTable`.
 */
export type Spec = (report: Json) => TableSpec[];

export const isRecord = (value: Json | undefined): value is { [key: string]: Json } =>
  value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);
const isRecordList = (value: Json | undefined): value is Json[] => Array.isArray(value) && value.some(isRecord);
const isPlain = (value: Json | undefined) =>
  !isRecord(value) && !(Array.isArray(value) && value.some((v) => v !== null && typeof v === 'object'));
/** A list of more than a few plain values (warnings): a table, not a fact. */
export const isTextList = (value: Json | undefined): value is Json[] =>
  Array.isArray(value) && value.length > 3 && isPlain(value);
const words = (key: string) => key.replace(/[._]/g, ' ');
export const records = (value: Json | undefined) => (Array.isArray(value) ? value.filter(isRecord) : []);

/** Statuses that need no one's action; any other status flags its row. */
const SETTLED = new Set([
  'ok',
  'pass',
  'match',
  'matched',
  'compared',
  'valued',
  'active',
  'paid',
  'in_transit',
  'not_applicable',
]);
const nonEmpty = (value: Json | undefined) => Array.isArray(value) && value.length > 0;

/**
 * The flag rule of every table: a status that is not settled (a mismatch, a breach, a warning, an
 * error), a row the API flagged, an error, warnings or flags of its own.
 */
export const needsAction = (row: Row): boolean =>
  (typeof row.status === 'string' && !SETTLED.has(row.status)) ||
  row.flagged === true ||
  (typeof row.error === 'string' && row.error !== '') ||
  nonEmpty(row.flags) ||
  nonEmpty(row.warnings);

const DECIMAL = /^-?\d+(\.\d+)?$/;
/** Amounts in one currency per column, so a total means something; prices, rates and shares never sum. */
const SUMMABLE = /(_usd|_inr|^amount|_amount)$/;
const NOT_SUMMABLE = /(price|rate|share|bps)/;

/** Columns of records derived from their fields: decimals right-aligned, amounts totalled. */
function columnsOf(rows: readonly Row[]): DataColumn[] {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((k) => rows.every((r) => isPlain(r[k])));
  return keys.map((key) => {
    const values = rows.map((r) => r[key]).filter((v) => v !== null && v !== undefined);
    const decimal =
      values.length > 0 && values.every((v) => typeof v === 'number' || (typeof v === 'string' && DECIMAL.test(v)));
    const amount = decimal && SUMMABLE.test(key) && !NOT_SUMMABLE.test(key);
    return { key, label: words(key), align: amount ? 'money' : decimal ? 'num' : 'text', total: amount };
  });
}

/** A nested object's plain fields as columns of their own (`lrs.status`), one level down. */
export function flattenRow(record: { [key: string]: Json }): Row {
  const row: Row = {};
  for (const [k, v] of Object.entries(record)) {
    if (isRecord(v)) {
      for (const [k2, v2] of Object.entries(v)) if (isPlain(v2)) row[`${k}.${k2}`] = v2;
    } else if (!isRecordList(v)) row[k] = v;
  }
  return row;
}

/**
 * Every list of records in the answer as a table; a list inside a record (a customer's symbols,
 * a symbol's disposals) as a table of its own, each row led by its parent's name (`customer_id`).
 */
export function deriveTables(report: Json): TableSpec[] {
  const tables: TableSpec[] = [];
  const visit = (id: string, value: Json | undefined, context: Row[] | null, depth: number) => {
    if (depth > 4) return;
    if (isRecordList(value) || (context !== null && Array.isArray(value))) {
      const list = value as Json[];
      const rows: Row[] = [];
      const children = new Map<string, { rows: Json[]; context: Row[] }>();
      const parents = context ?? list.map(() => ({}));
      list.forEach((item, i) => {
        if (!isRecord(item)) return;
        const row = { ...parents[i], ...flattenRow(item) };
        rows.push(row);
        const [nameKey] = Object.keys(item).filter((k) => typeof item[k] === 'string');
        const lead: Row = { ...parents[i], ...(nameKey ? { [nameKey]: item[nameKey] ?? null } : {}) };
        for (const [k, v] of Object.entries(item))
          if (isRecordList(v)) {
            const child = children.get(k) ?? { rows: [], context: [] };
            for (const c of v) {
              child.rows.push(c);
              child.context.push(lead);
            }
            children.set(k, child);
          }
      });
      if (rows.length > 0) tables.push({ id, title: words(id), columns: columnsOf(rows), rows, flag: needsAction });
      for (const [k, child] of children) visit(`${id}.${k}`, child.rows, child.context, depth + 1);
    } else if (context === null && isTextList(value)) {
      // A long list of words (schedule-fa's warnings) as a fact would be a screen tall: a table of one column.
      const key = id.split('.').pop() ?? id;
      const rows = value.map((v) => ({ [key]: v }));
      tables.push({ id, title: words(id), columns: columnsOf(rows), rows, flag: () => key === 'warnings' });
    } else if (isRecord(value)) {
      for (const [k, v] of Object.entries(value)) visit(id === '' ? k : `${id}.${k}`, v, null, depth + 1);
    }
  };
  visit('', report, null, 0);
  return tables;
}

/** The plain fields of the answer outside its tables (`fy`, the totals), as label and value. */
export function factsOf(report: Json, prefix = ''): [string, Json][] {
  if (!isRecord(report)) return [];
  return Object.entries(report).flatMap(([k, v]): [string, Json][] =>
    isTextList(v) ? [] : isPlain(v) ? [[words(`${prefix}${k}`), v]] : isRecord(v) ? factsOf(v, `${prefix}${k} `) : [],
  );
}

export const column = (key: string, label: string, align: DataColumn['align'] = 'text', total = false): DataColumn => ({
  key,
  label,
  align,
  total,
});
