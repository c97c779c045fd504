import { CsvError, parse } from 'csv-parse/sync';
import { z } from 'zod';
import { UpstreamPayloadError, type PayloadSource } from '../payload-error.js';
import { currency, decimal, isoDate, positiveDecimal, ROW_CODES, rowCode, side, unsignedDecimal } from './schemas.js';
import type {
  UsbrokerDailyLedgerRow,
  UsbrokerDailyLedgerRowCommon,
  UsbrokerRowCode,
  UsbrokerUnknownRow,
} from './types.js';

/** The daily ledger's columns, in the documented order (the file is read by header name). */
export const USBROKER_DAILY_LEDGER_COLUMNS = [
  'report_date',
  'firm_id',
  'account_no',
  'txn_no',
  'row_code',
  'symbol',
  'cusip',
  'side',
  'quantity',
  'price',
  'principal',
  'commission',
  'sec_fee',
  'taf_fee',
  'ifsca_fee',
  'other_fee',
  'amount',
  'currency',
  'trade_date',
  'settle_date',
  'pay_date',
  'per_share',
  'wht_rate',
  'tax_code',
  'ref_txn_no',
  'description',
] as const satisfies readonly (keyof UsbrokerDailyLedgerRowCommon)[];

type Column = (typeof USBROKER_DAILY_LEDGER_COLUMNS)[number];

const text = z.string().min(1);
/** 0 to 1 inclusive, decided on the digits (no float): `"0.25"` is 25 %, `"25"` is refused. */
const fraction = unsignedDecimal.regex(
  /^(0+(\.\d+)?|0*1(\.0+)?)$/,
  'expected a fraction between 0 and 1, such as "0.25"',
);

/** One row, every cell typed; an empty cell arrives here as null. */
const cellsSchema = z.object({
  report_date: isoDate,
  firm_id: text,
  account_no: text,
  txn_no: text,
  row_code: rowCode,
  symbol: text.nullable(),
  cusip: z
    .string()
    .regex(/^[0-9A-Z]{9}$/, 'expected a 9-character CUSIP')
    .nullable(),
  side: side.nullable(),
  quantity: decimal.nullable(),
  price: unsignedDecimal.nullable(),
  principal: decimal.nullable(),
  commission: decimal.nullable(),
  sec_fee: decimal.nullable(),
  taf_fee: decimal.nullable(),
  ifsca_fee: decimal.nullable(),
  other_fee: decimal.nullable(),
  amount: decimal,
  currency,
  trade_date: isoDate.nullable(),
  settle_date: isoDate.nullable(),
  pay_date: isoDate.nullable(),
  per_share: positiveDecimal.nullable(),
  wht_rate: fraction.nullable(),
  tax_code: text.nullable(),
  ref_txn_no: text.nullable(),
  description: z.string().nullable(),
}) satisfies z.ZodType<UsbrokerDailyLedgerRowCommon>;

type Sign = 'negative' | 'zero' | 'positive';

function signOf(value: string): Sign {
  if (!/[1-9]/.test(value)) return 'zero';
  return value.startsWith('-') ? 'negative' : 'positive';
}

/**
 * What each row code needs beyond the common columns, the sign of its amount and the signs its
 * quantity may have (a trade's or dividend's shares are positive; a split adds or removes shares;
 * cash in lieu removes a fraction).
 */
const ROW_RULES: Record<
  UsbrokerRowCode,
  { required: readonly Column[]; amount: (row: UsbrokerDailyLedgerRowCommon) => Sign; quantity?: readonly Sign[] }
> = {
  TRD: {
    required: ['symbol', 'side', 'quantity', 'price', 'principal', 'trade_date', 'settle_date'],
    amount: (row) => (row.side === 'SELL' ? 'positive' : 'negative'),
  },
  WIREI: { required: [], amount: () => 'positive' },
  WIREO: { required: [], amount: () => 'negative' },
  DIV: { required: ['symbol', 'quantity', 'per_share', 'trade_date', 'pay_date'], amount: () => 'positive' },
  DIVNRA: { required: ['symbol', 'ref_txn_no', 'wht_rate'], amount: () => 'negative' },
  FEE: { required: [], amount: () => 'negative' },
  SPLIT: {
    required: ['symbol', 'quantity', 'per_share', 'trade_date'],
    amount: () => 'zero',
    quantity: ['positive', 'negative'],
  },
  CIL: {
    required: ['symbol', 'quantity', 'price', 'trade_date', 'ref_txn_no'],
    amount: () => 'positive',
    quantity: ['negative'],
  },
};

const rowSchema = cellsSchema.superRefine((row, ctx) => {
  const rules = ROW_RULES[row.row_code];
  for (const column of rules.required) {
    if (row[column] === null)
      ctx.addIssue({ code: 'custom', path: [column], message: `a ${row.row_code} row needs ${column}` });
  }
  const quantitySigns = rules.quantity ?? ['positive'];
  if (row.quantity !== null && !quantitySigns.includes(signOf(row.quantity))) {
    ctx.addIssue({
      code: 'custom',
      path: ['quantity'],
      message: `a ${row.row_code} row's quantity must be ${quantitySigns.join(' or ')}`,
    });
  }
  const expected = rules.amount(row);
  if (signOf(row.amount) !== expected) {
    ctx.addIssue({
      code: 'custom',
      path: ['amount'],
      message: `a ${row.row_code}${row.side === null ? '' : ` ${row.side}`} row's amount must be ${expected}`,
    });
  }
}) as unknown as z.ZodType<UsbrokerDailyLedgerRow>;

export interface DailyLedgerRequest {
  date: string;
  firm: string;
}

/** What a row of a code the book does not know must still have: whose row it is, of which day. */
const unknownRowSchema = z.object({
  row_code: text,
  report_date: isoDate,
  firm_id: text,
  account_no: text,
  txn_no: text,
});

const KNOWN_CODES: ReadonlySet<string> = new Set(ROW_CODES);

/**
 * Parses the daily ledger CSV (CRLF or LF, optional BOM; blank lines skipped): the header
 * names the columns (all documented ones required, extra ones ignored), a header alone is a
 * day without activity. Each row is typed and checked against its row code; its report date
 * and firm must be the ones asked for, and `txn_no` is unique in the file. Any breach is an
 * UpstreamPayloadError naming `rows[i].<column>` (i counts data rows from 0) and the line. A row
 * of a code the book does not know (the broker may add some) is answered as an
 * UsbrokerUnknownRow, its cells as written: the sync makes it an exception, the rest of the day
 * is read as usual.
 */
export function parseDailyLedger(
  csv: string,
  request: DailyLedgerRequest,
  source: PayloadSource,
): UsbrokerDailyLedgerRow[] {
  const fail = (field: string, problem: string): never => {
    throw new UpstreamPayloadError(source.upstream, source.method, source.path, field, problem);
  };
  const records = readRecords(csv, fail);
  const [header, ...body] = records;
  if (header === undefined)
    return fail('(header)', 'the file is empty: even a day without activity has the header line');
  const indexOf = columnIndex(header.record, fail);

  const seen = new Set<string>();
  return body.map(({ record, line }, i) => {
    const cells = Object.fromEntries(
      USBROKER_DAILY_LEDGER_COLUMNS.map((column) => [column, cellAt(record, indexOf[column])]),
    );
    const code = cells.row_code ?? null;
    const known = code === null || KNOWN_CODES.has(code);
    const result = known ? rowSchema.safeParse(cells) : unknownRowSchema.safeParse(cells);
    if (!result.success) {
      const issue = result.error.issues[0];
      return fail(`rows[${i}].${String(issue?.path[0] ?? '(row)')}`, `${issue?.message ?? 'invalid'} (line ${line})`);
    }
    const row = known
      ? (result.data as UsbrokerDailyLedgerRow)
      : unknownRow(code!, result.data as z.infer<typeof unknownRowSchema>, cells);
    if (row.report_date !== request.date)
      fail(`rows[${i}].report_date`, `expected the date asked for, ${request.date} (line ${line})`);
    if (row.firm_id !== request.firm) fail(`rows[${i}].firm_id`, `expected the firm asked for (line ${line})`);
    if (seen.has(row.txn_no)) fail(`rows[${i}].txn_no`, `repeats an earlier row's txn_no (line ${line})`);
    seen.add(row.txn_no);
    return row;
  });
}

function unknownRow(
  code: string,
  keys: z.infer<typeof unknownRowSchema>,
  cells: Record<string, string | null>,
): UsbrokerUnknownRow {
  return {
    row_code: 'UNKNOWN',
    code,
    report_date: keys.report_date,
    firm_id: keys.firm_id,
    account_no: keys.account_no,
    txn_no: keys.txn_no,
    cells,
  };
}

interface CsvRecord {
  record: string[];
  line: number;
}

function readRecords(csv: string, fail: (field: string, problem: string) => never): CsvRecord[] {
  try {
    const parsed = parse(csv, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      info: true,
    }) as unknown as {
      record: string[];
      info: { lines: number };
    }[];
    return parsed.map(({ record, info }) => ({ record, line: info.lines }));
  } catch (error) {
    // csv-parse's own message quotes the record: only its code and line are kept.
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      return fail('(body)', `not valid CSV: ${error.code}${line === undefined ? '' : ` at line ${line}`}`);
    }
    throw error;
  }
}

function columnIndex(header: string[], fail: (field: string, problem: string) => never): Record<Column, number> {
  const names = header.map((name) => name.trim());
  const index = {} as Record<Column, number>;
  for (const column of USBROKER_DAILY_LEDGER_COLUMNS) {
    const at = names.indexOf(column);
    if (at === -1) fail(`(header).${column}`, 'missing column');
    if (names.lastIndexOf(column) !== at) fail(`(header).${column}`, 'column named twice');
    index[column] = at;
  }
  return index;
}

/** An empty cell is "not applicable": null. */
function cellAt(record: string[], index: number): string | null {
  const value = record[index] ?? '';
  return value === '' ? null : value;
}
