import { Transform, type TransformCallback } from 'node:stream';
import type { ExportLine } from '@ledger/core/reports';

export const EXPORT_FORMATS = ['ledger', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  ledger: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};
export const EXPORT_FILE_NAMES: Record<ExportFormat, string> = { ledger: 'journal.ledger', csv: 'journal.csv' };

/** Text is handed on in chunks of about this size: a write per journal line would cost more than the line. */
const CHUNK_CHARS = 64 * 1024;

/**
 * A transform from export rows (objects) to text, in chunks; `header` starts the text,
 * `format` renders one row given the row before it.
 */
function textTransform(header: string, format: (row: ExportLine, previous: ExportLine | null) => string): Transform {
  let pending = header;
  let previous: ExportLine | null = null;
  return new Transform({
    writableObjectMode: true,
    transform(row: ExportLine, _encoding, done: TransformCallback) {
      pending += format(row, previous);
      previous = row;
      if (pending.length < CHUNK_CHARS) return done();
      const chunk = pending;
      pending = '';
      done(null, chunk);
    },
    flush(done: TransformCallback) {
      done(null, pending === '' ? undefined : pending);
    },
  });
}

/**
 * Free text on one journal line: no line breaks or tabs, no `;` (a comment in ledger's syntax),
 * no run of two spaces (which ends an account name).
 */
function oneLine(value: string): string {
  return value
    .replace(/[\r\n\t]+/g, ' ')
    .replaceAll(';', ',')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** Whether a line is a credit (its debit is zero): negative in ledger's terms. */
function isCredit(row: ExportLine): boolean {
  return /^0+(\.0+)?$/.test(row.debit);
}

/** The signed amount of a line in ledger's terms: debits positive, credits negative. */
function ledgerAmount(row: ExportLine): string {
  return isCredit(row) ? `-${row.credit}` : row.debit;
}

function entryHeader(row: ExportLine): string {
  const payee = oneLine([row.txn_type, row.customer_id, row.symbol].filter((part) => part !== null).join(' '));
  const note = row.memo === null || oneLine(row.memo) === '' ? '' : ` | ${oneLine(row.memo)}`;
  const tags = [`source: ${oneLine(row.source)}`, `source_txn_id: ${oneLine(row.source_txn_id.replaceAll(',', ' '))}`];
  if (row.reverses_txn_id !== null) tags.push(`reverses: ${row.reverses_txn_id}`);
  return `${row.txn_date} (${row.txn_id}) ${payee}${note}\n    ; ${tags.join(', ')}\n`;
}

/**
 * The ledger/hledger journal: one entry per transaction (date, the txn_id as its code, a
 * description, its source as tags), a posting per line with the account's code and name and
 * the amount in USD, debits positive; an AED line's AED amount in a posting comment (a tag, so
 * the amounts, and `hledger balance`, stay in USD). Accounts are "<code> <name>": `hledger balance`
 * over it gives each account's debit − credit.
 */
export function ledgerJournal(): Transform {
  return textTransform(
    '; The book’s journal, exported by the ledger service. Amounts in USD: debits positive, credits negative.\n',
    (row, previous) => {
      const header = previous?.txn_id === row.txn_id ? '' : `\n${entryHeader(row)}`;
      const native =
        row.native_amount === null
          ? ''
          : `  ; native: ${isCredit(row) ? '-' : ''}${row.native_amount} ${row.native_currency}`;
      return `${header}    ${oneLine(`${row.account_code} ${row.account_name}`)}  ${ledgerAmount(row)} USD${native}\n`;
    },
  );
}

const CSV_COLUMNS = [
  'txn_id',
  'txn_date',
  'txn_type',
  'source',
  'source_txn_id',
  'customer_id',
  'symbol',
  'memo',
  'reverses_txn_id',
  'line_id',
  'account_code',
  'account_name',
  'debit',
  'credit',
  'native_currency',
  'native_amount',
] as const satisfies ReadonlyArray<keyof ExportLine>;

/** RFC 4180: a field with a quote, comma or line break is quoted, its quotes doubled; null is empty. */
function csvField(value: string | null): string {
  if (value === null) return '';
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The journal as CSV: a header, then one row per journal line with its transaction's facts (CRLF line ends). */
export function csvJournal(): Transform {
  return textTransform(
    `${CSV_COLUMNS.join(',')}\r\n`,
    (row) => `${CSV_COLUMNS.map((column) => csvField(row[column])).join(',')}\r\n`,
  );
}
