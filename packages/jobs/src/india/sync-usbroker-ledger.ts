import {
  addDividendWithholdings,
  customersByBrokerAccount,
  recordExceptions,
  recordStockSplits,
  upsertDividendEvents,
  recordBrokerFees,
  type BrokerFee,
  type DividendEvent,
  type DividendWithholding,
  type StockSplit,
} from '@ledger/core/store';
import type {
  UsbrokerCashInLieuRow,
  UsbrokerClient,
  UsbrokerDailyLedgerRow,
  UsbrokerDividendRow,
  UsbrokerFeeRow,
  UsbrokerRowCode,
  UsbrokerSplitRow,
  UsbrokerTradeRow,
  UsbrokerUnknownRow,
  UsbrokerWithholdingRow,
} from '@ledger/upstream-clients';
import { z } from 'zod';
import { defineJob, type JobDeps } from '../job-settings.js';
import {
  cashInLieuEntry,
  dividendEntry,
  dividendEvent,
  dividendWithholding,
  feeEntry,
  orderOfTrade,
  stockSplitOf,
  tradeFees,
  unknownRowRejected,
  withholdingEntry,
} from './usbroker-entries.js';
import { calendarDate, forEach, forEachCustomer, upstreamFailureReason } from '../kit/per-customer.js';
import { PostingRun } from '../kit/posting-kit.js';
import { noOutcomes, outcomeCounts, recordReason, RESULT_SCHEMAS, syncResult, type Reason } from '../kit/results.js';

/** Days one run reads at most: a quarter of daily files. */
export const LEDGER_DAYS_MAX = 92;
/** Daily files read at once, and customers processed at once. */
const CONCURRENCY = 4;

export const syncUsbrokerLedgerInput = z
  .object({
    start: calendarDate.describe('The first report date (YYYY-MM-DD).'),
    end: calendarDate
      .optional()
      .describe(`The last report date, inclusive; absent: \`start\`. At most ${LEDGER_DAYS_MAX} days.`),
    code: z
      .string()
      .min(1)
      .max(64)
      .nullable()
      .optional()
      .describe('The firm code of the daily ledger; null or absent: the book’s USBROKER_FIRM_ID.'),
    dry_run: z.boolean().default(false).describe('Read the files and report what would be written; write nothing.'),
  })
  .strict()
  .refine((b) => b.end === undefined || b.end >= b.start, { message: 'end must not be before start', path: ['end'] })
  .refine((b) => datesFrom(b.start, b.end ?? b.start).length <= LEDGER_DAYS_MAX, {
    message: `at most ${LEDGER_DAYS_MAX} days`,
    path: ['end'],
  })
  .meta({ examples: [{ start: '2026-01-02', end: '2026-01-31', dry_run: false }] });
export type SyncUsbrokerLedgerInput = z.input<typeof syncUsbrokerLedgerInput>;

/** Every date from `start` to `end`, inclusive (ISO dates; at most one past the limit, so a refusal is cheap). */
export function datesFrom(start: string, end: string): string[] {
  const dates: string[] = [];
  for (let day = Date.parse(`${start}T00:00:00Z`); dates.length <= LEDGER_DAYS_MAX; day += 86_400_000) {
    const date = new Date(day).toISOString().slice(0, 10);
    if (date > end) break;
    dates.push(date);
  }
  return dates;
}

type Kind = 'dividends' | 'withholdings' | 'fees' | 'cash_in_lieu' | 'unknown_rows';

const count = z.number().int().min(0);

/** A TRD row whose itemised fees could not be recorded. */
const tradeUnmatched = z.strictObject({
  customer_id: z.string(),
  source_txn_id: z.string().describe('The TRD row’s txn_no.'),
  reason: recordReason,
});
type TradeUnmatched = z.infer<typeof tradeUnmatched>;

const ROW_CODES = [
  'TRD',
  'WIREI',
  'WIREO',
  'DIV',
  'DIVNRA',
  'FEE',
  'SPLIT',
  'CIL',
] as const satisfies readonly UsbrokerRowCode[];

/**
 * The kit's result (records: DIV rows as `dividends`, DIVNRA as `withholdings`, FEE as `fees`,
 * CIL as `cash_in_lieu`, rows of codes the book does not know as `unknown_rows`, each rejected
 * into an exception), and what the daily ledger adds.
 */
export const syncUsbrokerLedgerResult = syncResult(
  ['dividends', 'withholdings', 'fees', 'cash_in_lieu', 'unknown_rows'],
  {
    firm: z.string().nullable(),
    dates: count,
    dates_failed: z.array(z.strictObject({ date: z.string(), reason: z.string() })),
    rows: z
      .strictObject(
        Object.fromEntries(ROW_CODES.map((c) => [c, count])) as Record<(typeof ROW_CODES)[number], typeof count>,
      )
      .describe(
        'Rows read, by row code (TRD, WIREI and WIREO are counted, never posted: TRD’s fees go to broker_fees, the wires come from the funding wires).',
      ),
    rows_of_unknown_codes: z
      .record(z.string(), count)
      .describe(
        'Rows of codes the book does not know, by code: each is an exception naming it; the rest of the day is read.',
      ),
    stock_splits: outcomeCounts
      .extend({ offered: count, repending: count.describe('Trades put back to pending recost.') })
      .describe(
        'SPLIT rows: `inserted` new splits, `duplicate` recorded before, `conflict` recorded with other facts (exceptions). Not written in a dry run.',
      ),
    rows_of_unknown_accounts: count.describe(
      'Rows of broker accounts no ledger customer holds (FEE rows included): nothing of them is written.',
    ),
    dividend_events: outcomeCounts
      .extend({ offered: count })
      .describe(
        'Dividend events the files gave (`offered`): `inserted` new, `updated` (gained their withholding), `duplicate` (already so). Not written in a dry run.',
      ),
    broker_fees: outcomeCounts
      .extend({ offered: count, repending: count.describe('Recosted trades put back to pending.') })
      .describe(
        'TRD rows matched to their order (`offered`): `inserted` new fees, `duplicate` recorded before. Not written in a dry run.',
      ),
    trades_unmatched: z
      .array(tradeUnmatched)
      .describe('TRD rows whose fee could not be recorded (no single matching order, fees adding up to a credit).'),
  },
).register(RESULT_SCHEMAS, { id: 'SyncUsbrokerLedgerResult' });
export type SyncUsbrokerLedgerResult = z.infer<typeof syncUsbrokerLedgerResult>;

/** The rows of one customer, by what the job does with them. */
interface CustomerRows {
  dividends: UsbrokerDividendRow[];
  withholdings: UsbrokerWithholdingRow[];
  trades: UsbrokerTradeRow[];
  fees: UsbrokerFeeRow[];
  splits: UsbrokerSplitRow[];
  cashInLieu: UsbrokerCashInLieuRow[];
  unknown: UsbrokerUnknownRow[];
}

/**
 * sync-usbroker-ledger (docs/jobs.md#sync-usbroker-ledger): reads the broker's daily ledger for
 * each date of the range; per customer, posts each DIV row as a `dividend` (gross) and each
 * DIVNRA row as a `wht_tax` and each FEE row as a `broker_fee`, upserts the dividend events, and records each TRD row's itemised
 * fees in `broker_fees` under its order's key (the actual broker cost recost uses). A customer's
 * TRD rows need its orders (one call naming its account): a failing call fails that customer
 * alone, before anything of it is written.
 */
export async function runSyncUsbrokerLedger(
  rawInput: SyncUsbrokerLedgerInput,
  deps: JobDeps,
): Promise<SyncUsbrokerLedgerResult> {
  const input = syncUsbrokerLedgerInput.parse(rawInput);
  const { db, logger, progress, settings } = deps;
  const dates = datesFrom(input.start, input.end ?? input.start);
  const firm = input.code ?? deps.upstreams.usbrokerFirmId;
  const run = new PostingRun<Kind>(db, {
    job: 'sync-usbroker-ledger',
    upstream: 'usbroker',
    kinds: ['dividends', 'withholdings', 'fees', 'cash_in_lieu', 'unknown_rows'],
    dryRun: input.dry_run,
    settings,
  });
  const counts: LedgerCounts = {
    firm,
    dates: dates.length,
    dates_failed: [],
    rows: Object.fromEntries(ROW_CODES.map((c) => [c, 0])) as SyncUsbrokerLedgerResult['rows'],
    rows_of_unknown_accounts: 0,
    rows_of_unknown_codes: {},
    stock_splits: { ...noOutcomes(), offered: 0, repending: 0 },
    dividend_events: { ...noOutcomes(), offered: 0 },
    broker_fees: { ...noOutcomes(), offered: 0, repending: 0 },
    trades_unmatched: [],
  };
  const usbroker = deps.upstreams.usbroker;
  if (usbroker === null || firm === null) {
    const why =
      usbroker === null
        ? 'upstream_unavailable: usbroker is not configured on this book'
        : 'no_firm: give `code` or set USBROKER_FIRM_ID';
    return { ...run.result(0, [], null), ...counts, dates_failed: dates.map((date) => ({ date, reason: why })) };
  }

  const rows = await readDailyLedgers(usbroker, firm, dates, counts);
  const byCustomer = await rowsByCustomer(db, rows, counts);
  const customers = [...byCustomer.keys()].sort();
  const sync: CustomerSync = { db, run, usbroker, dryRun: input.dry_run, counts };
  const { failed } = await forEachCustomer(
    customers,
    (id) => id,
    (customerId) => syncCustomer(sync, customerId, byCustomer.get(customerId)!),
    (done) => progress({ done, total: customers.length, unit: 'customers' }),
  );
  const result = { ...run.result(customers.length, failed, null), ...counts };
  logger.info('sync-usbroker-ledger done', {
    dates: dates.length,
    dates_failed: counts.dates_failed.length,
    customers_failed: result.customers_failed.length,
    records: result.records,
    broker_fees_inserted: counts.broker_fees.inserted,
    dry_run: input.dry_run,
  });
  return result;
}

/** What the daily ledger adds to the kit's result, filled in as the run goes. */
type LedgerCounts = Pick<
  SyncUsbrokerLedgerResult,
  | 'firm'
  | 'dates'
  | 'dates_failed'
  | 'rows'
  | 'rows_of_unknown_codes'
  | 'stock_splits'
  | 'rows_of_unknown_accounts'
  | 'dividend_events'
  | 'broker_fees'
  | 'trades_unmatched'
>;

/** The rows of every date's file, counted by row code; a date whose file cannot be read is noted and skipped. */
async function readDailyLedgers(
  usbroker: UsbrokerClient,
  firm: string,
  dates: string[],
  counts: LedgerCounts,
): Promise<UsbrokerDailyLedgerRow[]> {
  const rows: UsbrokerDailyLedgerRow[] = [];
  await forEach(
    dates,
    CONCURRENCY,
    async (date) => {
      try {
        rows.push(...(await usbroker.getDailyLedger(date, firm)));
      } catch (error) {
        const why = upstreamFailureReason(error);
        if (why === null) throw error;
        counts.dates_failed.push({ date, reason: why });
      }
    },
    () => undefined,
  );
  counts.dates_failed.sort((a, b) => a.date.localeCompare(b.date));
  for (const row of rows) {
    if (row.row_code === 'UNKNOWN')
      counts.rows_of_unknown_codes[row.code] = (counts.rows_of_unknown_codes[row.code] ?? 0) + 1;
    else counts.rows[row.row_code] += 1;
  }
  return rows;
}

/** The rows of each ledger customer by the broker account it holds; rows of other accounts are only counted. */
async function rowsByCustomer(
  db: JobDeps['db'],
  rows: UsbrokerDailyLedgerRow[],
  counts: LedgerCounts,
): Promise<Map<string, CustomerLedger>> {
  const customersOf = await customersByBrokerAccount(db, [...new Set(rows.map((r) => r.account_no))]);
  const byCustomer = new Map<string, CustomerLedger>();
  for (const row of rows) {
    const customerId = customersOf.get(row.account_no);
    if (customerId === undefined) {
      counts.rows_of_unknown_accounts += 1;
      continue;
    }
    const entry = byCustomer.get(customerId) ?? {
      accountNo: row.account_no,
      rows: { dividends: [], withholdings: [], trades: [], fees: [], splits: [], cashInLieu: [], unknown: [] },
    };
    byCustomer.set(customerId, entry);
    if (row.row_code === 'DIV') entry.rows.dividends.push(row);
    else if (row.row_code === 'DIVNRA') entry.rows.withholdings.push(row);
    else if (row.row_code === 'TRD') entry.rows.trades.push(row);
    else if (row.row_code === 'FEE') entry.rows.fees.push(row);
    else if (row.row_code === 'SPLIT') entry.rows.splits.push(row);
    else if (row.row_code === 'CIL') entry.rows.cashInLieu.push(row);
    else if (row.row_code === 'UNKNOWN') entry.rows.unknown.push(row);
  }
  return byCustomer;
}

/** One customer's part of the daily ledger: its broker account and its rows. */
interface CustomerLedger {
  accountNo: string;
  rows: CustomerRows;
}

/** What syncing each customer shares. */
interface CustomerSync {
  db: JobDeps['db'];
  run: PostingRun<Kind>;
  usbroker: UsbrokerClient;
  dryRun: boolean;
  counts: LedgerCounts;
}

/**
 * Posts a customer's entries, then records its splits, dividend events and broker fees. Its
 * orders are read first: a failing orders call leaves nothing of the customer half-done.
 */
async function syncCustomer(
  { db, run, usbroker, dryRun, counts }: CustomerSync,
  customerId: string,
  { accountNo, rows: own }: CustomerLedger,
): Promise<void> {
  const records = run.customer(customerId);
  for (const row of own.dividends) records.add('dividends', row.txn_no, dividendEntry(row, customerId), row);
  for (const row of own.withholdings) records.add('withholdings', row.txn_no, withholdingEntry(row, customerId), row);
  for (const row of own.fees) records.add('fees', row.txn_no, feeEntry(row, customerId), row);
  for (const row of own.cashInLieu) records.add('cash_in_lieu', row.txn_no, cashInLieuEntry(row, customerId), row);
  for (const row of own.unknown) records.add('unknown_rows', row.txn_no, unknownRowRejected(row), row);
  const splits = own.splits.map((row) => stockSplitOf(row, customerId));
  const withholdingOf = new Map(own.withholdings.map((w) => [w.ref_txn_no, w]));
  const events: DividendEvent[] = own.dividends.map((d) =>
    dividendEvent(d, withholdingOf.get(d.txn_no) ?? null, customerId),
  );
  const dividendsSeen = new Set(own.dividends.map((d) => d.txn_no));
  // A DIVNRA row whose DIV row came in an earlier run: its event gains the withholding.
  const lateWithholdings: DividendWithholding[] = own.withholdings
    .filter((w) => !dividendsSeen.has(w.ref_txn_no))
    .map(dividendWithholding);
  // Read before anything of the customer is written: a failing orders call leaves nothing half-done.
  const fees = await brokerFees(usbroker, customerId, accountNo, own.trades, counts.trades_unmatched);
  await run.post(records);
  counts.dividend_events.offered += events.length;
  counts.broker_fees.offered += fees.length;
  counts.stock_splits.offered += splits.length;
  if (dryRun) return;
  await recordSplits(db, splits, counts.stock_splits);
  const upserted = await upsertDividendEvents(db, events);
  counts.dividend_events.inserted += upserted.inserted;
  counts.dividend_events.duplicate += events.length - upserted.inserted - upserted.updated;
  counts.dividend_events.updated += upserted.updated + (await addDividendWithholdings(db, lateWithholdings));
  const recorded = await recordBrokerFees(db, fees);
  counts.broker_fees.inserted += recorded.recorded;
  counts.broker_fees.duplicate += recorded.existing;
  counts.broker_fees.repending += recorded.repending;
}

/**
 * Records a customer's splits (once per SPLIT row; a new one re-pends its pair for recost) and
 * keeps their exceptions: a row recorded before with other facts opens one
 * (`idempotency_conflict`, the recorded split stands), a recorded one resolves its own.
 */
async function recordSplits(
  db: JobDeps['db'],
  splits: StockSplit[],
  counts: SyncUsbrokerLedgerResult['stock_splits'],
): Promise<void> {
  if (splits.length === 0) return;
  const recorded = await recordStockSplits(db, splits);
  counts.inserted += recorded.recorded;
  counts.duplicate += recorded.existing;
  counts.conflict += recorded.conflicts.length;
  counts.repending += recorded.repending;
  const conflictOf = new Map(recorded.conflicts.map((c) => [c.sourceTxnId, c]));
  await recordExceptions(
    db,
    { upstream: 'usbroker' },
    splits.map((s) => {
      const key = { recordKey: s.sourceTxnId, customerId: s.customerId };
      const conflict = conflictOf.get(s.sourceTxnId);
      if (conflict === undefined)
        return {
          ...key,
          outcome: recorded.recordedKeys.has(s.sourceTxnId) ? ('inserted' as const) : ('duplicate' as const),
        };
      return {
        ...key,
        outcome: 'conflict' as const,
        reasonCode: 'idempotency_conflict',
        reason: `split ${s.sourceTxnId} was recorded before with other ${conflict.fields.join(', ')}: the recorded split stands`,
        record: s.sourceRow,
      };
    }),
  );
}

/** Each TRD row's itemised fees under its order's key; the account's orders are read only when it has TRD rows. */
async function brokerFees(
  usbroker: UsbrokerClient,
  customerId: string,
  accountNo: string,
  trades: UsbrokerTradeRow[],
  unmatched: TradeUnmatched[],
): Promise<BrokerFee[]> {
  if (trades.length === 0) return [];
  const orders = await usbroker.listOrders(accountNo);
  const fees: BrokerFee[] = [];
  for (const row of trades) {
    const match = orderOfTrade(row, orders);
    const fee = tradeFees(row);
    if ('problem' in match || 'problem' in fee) {
      const { problem } = 'problem' in match ? match : (fee as { problem: Reason });
      unmatched.push({ customer_id: customerId, source_txn_id: row.txn_no, reason: problem });
      continue;
    }
    fees.push({
      source: 'usbroker',
      sourceTxnId: match.order.order_id,
      amountUsd: fee.brokerUsd.toFixed(2),
      platformFeeUsd: fee.platformUsd.toFixed(2),
      sourceRow: {
        report_date: row.report_date,
        txn_no: row.txn_no,
        commission: row.commission,
        sec_fee: row.sec_fee,
        taf_fee: row.taf_fee,
        ifsca_fee: row.ifsca_fee,
        other_fee: row.other_fee,
      },
    });
  }
  return fees;
}

export const syncUsbrokerLedgerJob = defineJob('sync-usbroker-ledger', {
  mode: 'background',
  family: 'syncs',
  books: ['ENTITY_IND_IFSC'],
  why: 'decided: a date range of daily CSVs',
  input: syncUsbrokerLedgerInput,
  result: syncUsbrokerLedgerResult,
  // Every call is a run of its own: a re-run of the same dates writes nothing new.
  businessKey: () => null,
  run: runSyncUsbrokerLedger,
});
