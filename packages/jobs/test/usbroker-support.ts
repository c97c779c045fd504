import { createLogger } from '@ledger/core/runtime';
import { upsertCustomer, type Db } from '@ledger/core/store';
import {
  createUsbrokerClient,
  NO_UPSTREAMS,
  USBROKER_DAILY_LEDGER_COLUMNS,
  type UsbrokerClient,
  type UsbrokerDailyLedgerRow,
  type UsbrokerDividendRow,
  type UsbrokerOrder,
  type UsbrokerTradeRow,
  type UsbrokerWire,
  type UsbrokerWithholdingRow,
} from '@ledger/upstream-clients';
import nock from 'nock';
import { DEFAULT_JOB_SETTINGS, type JobDeps } from '../src/index.js';
import { nockedBookPerTest } from './book-per-test.js';

/** What the usbroker job tests share: a nock'ed broker, the job's deps, and reads of the books. */

export const BROKER_URL = 'http://usbroker.test';
export const FIRM = 'FIRM1';
const logger = createLogger({ level: 'error', service: 'jobs-test', book: 'ENTITY_IND_IFSC', silent: true });

/** A usbroker client that retries quickly (the tests' faults are answered at once). */
export function brokerClient(baseUrl = BROKER_URL): UsbrokerClient {
  return createUsbrokerClient({
    baseUrl,
    apiKey: 'sandbox-usbroker-client',
    apiSecret: 'sandbox-usbroker-secret',
    timeoutMs: 5_000,
    retryLimit: 1,
    backoffMs: 5,
  });
}

export function depsOf(db: Db, usbroker: UsbrokerClient | null, firm: string | null = FIRM): JobDeps {
  return {
    book: 'ENTITY_IND_IFSC',
    db,
    logger,
    progress: () => undefined,
    settings: DEFAULT_JOB_SETTINGS,
    upstreams: { ...NO_UPSTREAMS, usbroker, usbrokerFirmId: firm },
  };
}

/** India customers holding these broker accounts: `{customer_id: account_no}`. */
export async function brokerCustomers(db: Db, accounts: Record<string, string>): Promise<void> {
  for (const [customerId, account] of Object.entries(accounts))
    await upsertCustomer(db, customerId, { references: { usbroker_account_no: account } });
}

/** Mocha hooks of a usbroker job suite: nockedBookPerTest, with IND-1 holding USB-1 and IND-2 holding USB-2. */
export function brokerBookPerTest(use: (db: Db) => void): void {
  nockedBookPerTest(use, (db) => brokerCustomers(db, { 'IND-1': 'USB-1', 'IND-2': 'USB-2' }));
}

/** A cursor page as usbroker answers it: ascending ids strictly after `after_id`, at most `limit`. */
function page<T>(items: readonly T[], uri: string, idOf: (item: T) => string): [number, T[]] {
  const url = new URL(uri, BROKER_URL);
  const after = url.searchParams.get('after_id');
  const limit = Number(url.searchParams.get('limit') ?? 100);
  return [200, items.filter((i) => after === null || idOf(i) > after).slice(0, limit)];
}

export interface FakeBroker {
  wires: UsbrokerWire[];
  /** Orders by account. */
  orders: Record<string, UsbrokerOrder[]>;
  /** Daily-ledger rows by date (the firm's); a date not listed is the header alone. */
  ledger?: Record<string, Array<Partial<UsbrokerDailyLedgerRow>>>;
  /** Paths answered with this status instead (e.g. `/v1/accounts/USB-2/orders`: 500). */
  failing?: Record<string, number>;
}

/** The daily ledger CSV of these rows (CRLF, empty cells for null). */
export function ledgerCsv(rows: Array<Partial<UsbrokerDailyLedgerRow>>): string {
  const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  return (
    [
      USBROKER_DAILY_LEDGER_COLUMNS.join(','),
      ...rows.map((r) => USBROKER_DAILY_LEDGER_COLUMNS.map((c) => cell((r as Record<string, unknown>)[c])).join(',')),
    ].join('\r\n') + '\r\n'
  );
}

/** Serves `broker` at BROKER_URL until nock.cleanAll(). */
export function fakeBroker(broker: FakeBroker): void {
  const failing = broker.failing ?? {};
  const scope = nock(BROKER_URL).persist();
  scope.post('/oauth2/token').reply(200, { access_token: 'token', expires_in: 3600, token_type: 'Bearer' });
  const serve = (
    path: string,
    answer: (uri: string) => [number, unknown] | [number, string, Record<string, string>],
  ) => {
    scope
      .get(path)
      .query(true)
      .reply((uri) => {
        const status = failing[path];
        return status === undefined ? answer(uri) : [status, { error: 'internal_error', message: 'the broker failed' }];
      });
  };
  serve('/v1/funding/wires', (uri) => page(broker.wires, uri, (w) => w.transfer_id));
  for (const [account, orders] of Object.entries(broker.orders))
    serve(`/v1/accounts/${account}/orders`, (uri) => page(orders, uri, (o) => o.order_id));
  serve('/v1/reports/daily-ledger', (uri) => {
    const url = new URL(uri, BROKER_URL);
    if (url.searchParams.get('firm') !== FIRM) return [404, { error: 'firm_not_found', message: 'no such firm' }];
    const date = url.searchParams.get('date')!;
    const rows = (broker.ledger?.[date] ?? []).map((r) => ({
      currency: 'USD',
      ...r,
      report_date: date,
      firm_id: FIRM,
    }));
    return [200, ledgerCsv(rows), { 'content-type': 'text/csv' }];
  });
}

/** A customer's wallet (2010): credits less debits. */
export async function wallet(db: Db, customerId: string): Promise<string> {
  const { rows } = await db.raw<{ rows: Array<{ balance: string }> }>(
    `SELECT coalesce(sum(credit - debit), 0)::numeric(20,2)::text AS balance FROM journal_lines WHERE account_code = '2010' AND customer_id = ?`,
    [customerId],
  );
  return rows[0]!.balance;
}

/** The lines of the usbroker transaction keyed `sourceTxnId`: [account, debit, credit, posting_kind]. */
export async function linesOf(db: Db, sourceTxnId: string): Promise<Array<[string, string, string, string]>> {
  const { rows } = await db.raw<{
    rows: Array<{ account_code: string; debit: string; credit: string; posting_kind: string }>;
  }>(
    `SELECT l.account_code, l.debit::numeric(20,2)::text AS debit, l.credit::numeric(20,2)::text AS credit, l.posting_kind
       FROM journal_lines l JOIN transactions t ON t.txn_id = l.txn_id
      WHERE t.source = 'usbroker' AND t.source_txn_id = ? ORDER BY l.line_id`,
    [sourceTxnId],
  );
  return rows.map((r) => [r.account_code, r.debit, r.credit, r.posting_kind]);
}

/** The lines of the recost derivation in effect for the usbroker trade keyed `sourceTxnId`. */
export async function derivationOf(db: Db, sourceTxnId: string): Promise<Array<[string, string, string, string]>> {
  const { rows } = await db.raw<{
    rows: Array<{ account_code: string; debit: string; credit: string; posting_kind: string }>;
  }>(
    `SELECT l.account_code, l.debit::numeric(20,2)::text AS debit, l.credit::numeric(20,2)::text AS credit, l.posting_kind
       FROM transactions trade
       JOIN transactions d ON d.txn_type = 'recost' AND d.metadata->>'recost_of' = trade.txn_id::text
       JOIN journal_lines l ON l.txn_id = d.txn_id
      WHERE trade.source = 'usbroker' AND trade.source_txn_id = ?
        AND NOT EXISTS (SELECT 1 FROM transactions r WHERE r.reverses_txn_id = d.txn_id)
      ORDER BY l.line_id`,
    [sourceTxnId],
  );
  return rows.map((r) => [r.account_code, r.debit, r.credit, r.posting_kind]);
}

/** Rows of the tables a broker sync writes. */
export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of [
    'transactions',
    'journal_lines',
    'broker_fees',
    'dividend_events',
    'stock_splits',
    'exceptions',
  ]) {
    const { rows } = await db.raw<{ rows: Array<{ n: string }> }>(`SELECT count(*) AS n FROM ${table}`);
    counts[table] = Number(rows[0]!.n);
  }
  return counts;
}

// ---- records, as the broker sends them ----

export function wire(overrides: Partial<UsbrokerWire> = {}): UsbrokerWire {
  return {
    transfer_id: 'WIR-1',
    account_no: 'USB-1',
    direction: 'IN',
    amount: '2500.00',
    currency: 'USD',
    status: 'completed',
    value_date: '2026-01-06',
    ...overrides,
  };
}

export function order(overrides: Partial<UsbrokerOrder> = {}): UsbrokerOrder {
  return {
    order_id: 'ORD-1',
    client_order_id: null,
    symbol: 'AAPL',
    side: 'BUY',
    qty: '10',
    notional: null,
    filled_qty: '10',
    avg_fill_price: '187.45',
    status: 'filled',
    submitted_at: '2026-01-07T14:30:00Z',
    filled_at: '2026-01-07T14:30:02Z',
    cost_type: 'quantity',
    ...overrides,
  } as UsbrokerOrder;
}

const ROW = {
  report_date: '2026-02-13',
  firm_id: 'FIRM',
  account_no: 'USB-1',
  cusip: '037833100',
  side: null,
  price: null,
  principal: null,
  commission: null,
  sec_fee: null,
  taf_fee: null,
  ifsca_fee: null,
  other_fee: null,
  currency: 'USD',
  settle_date: null,
  per_share: null,
  wht_rate: null,
  tax_code: null,
  ref_txn_no: null,
  description: null,
};

export const DIV: UsbrokerDividendRow = {
  ...ROW,
  txn_no: 'TXN-DIV',
  row_code: 'DIV',
  symbol: 'AAPL',
  quantity: '40',
  per_share: '0.25',
  amount: '10.00',
  trade_date: '2026-02-09',
  pay_date: '2026-02-13',
};

export const DIVNRA: UsbrokerWithholdingRow = {
  ...ROW,
  txn_no: 'TXN-NRA',
  row_code: 'DIVNRA',
  symbol: 'AAPL',
  quantity: '40',
  amount: '-2.50',
  trade_date: '2026-02-09',
  pay_date: '2026-02-13',
  wht_rate: '0.25',
  tax_code: 'NRA',
  ref_txn_no: 'TXN-DIV',
};

export const TRD: UsbrokerTradeRow = {
  ...ROW,
  report_date: '2026-01-07',
  txn_no: 'TXN-TRD',
  row_code: 'TRD',
  symbol: 'AAPL',
  side: 'BUY',
  quantity: '10',
  price: '187.00',
  principal: '-1870.00',
  commission: '-2.63',
  sec_fee: '0.00',
  taf_fee: '0.00',
  ifsca_fee: '-1.87',
  amount: '-1874.50',
  trade_date: '2026-01-07',
  settle_date: '2026-01-08',
  pay_date: null,
};
