import type { Knex } from 'knex';
import { ACCOUNT, owedInOwnCurrency, type AccountType } from '../domain/accounts.js';
import { assert, LedgerError } from '../domain/errors.js';
import { Decimal, formatDecimal, ZERO } from '../domain/money.js';
import { CUSTOMERS } from './columns/customers.js';
import { ownOwedSql } from './columns/journal-lines.js';
import { firstActivity, type CustomerWithActivity } from './customers.js';
import { columnRefs } from './columns/table.js';
import { customerLinesSql } from './read-model.js';

/*
 * One customer's books, read from the journal. Every line of a customer's transaction carries
 * the customer (posting copies it to each line), so each query here starts from the customer's
 * lines on the customer accounts (journal_lines_customer_idx) or from their transactions
 * (transactions_customer_idx; customerLinesSql for their lines on any account): the cost of a
 * request follows the customer's history, never the size of the journal.
 */

/** The customer's wallets: what the firm owes the customer in cash, per currency (at its USD equivalent). */
export const WALLETS = [
  { currency: 'USD', account_code: ACCOUNT.customerWalletUsd },
  { currency: 'AED', account_code: ACCOUNT.customerWalletAed },
] as const;
const WALLET_CODES = WALLETS.map((w) => w.account_code);

/** A statement lists at most this many movements: a longer window is refused, asking for a shorter one. */
export const STATEMENT_MOVEMENTS_MAX = 5_000;
/** An equity curve spans at most this many days (ten years). */
export const EQUITY_CURVE_DAYS_MAX = 3_660;

/** Bounds on txn_date, inclusive; either may be absent. */
export interface DateWindow {
  from?: string;
  to?: string;
}

/** The customer, or a `not_found` error. */
export async function getCustomer(db: Knex, customerId: string): Promise<CustomerWithActivity> {
  const row = (await db('customers')
    .select([...columnRefs(CUSTOMERS), firstActivity(db)])
    .where({ customer_id: customerId })
    .first()) as CustomerWithActivity | undefined;
  if (row === undefined) throw new LedgerError('not_found', `no customer ${customerId} in this book`);
  return row;
}

export interface CustomerAccountBalance {
  account_code: string;
  name: string;
  account_type: AccountType;
  debit: string;
  credit: string;
  /** debit − credit. */
  net: string;
  /** credit − debit in the account's own currency (AED for 2020, from its lines' AED amounts), lines without one left out. */
  owed_own: string;
  /** credit − debit of the AED lines posted without their AED amount (before 20270116): their USD alone. */
  unconverted_usd: string;
}

/** Every account the customer's lines touch, with their totals up to the end of `asOf` (all when absent). */
export async function customerAccountBalances(
  db: Knex,
  customerId: string,
  asOf?: string,
): Promise<CustomerAccountBalance[]> {
  const query = accountBalancesQuery(db, asOf).whereRaw(customerLinesSql('l', '?'), [customerId]);
  return (await query) as CustomerAccountBalance[];
}

/** Each account's CustomerAccountBalance over the lines `l` the caller narrows, up to the end of `asOf` (all when absent). */
function accountBalancesQuery(db: Knex, asOf: string | undefined): Knex.QueryBuilder {
  const query = db('journal_lines as l')
    .join('accounts as a', 'a.account_code', 'l.account_code')
    .groupBy('l.account_code', 'a.name', 'a.account_type')
    .orderBy('l.account_code')
    .select(
      'l.account_code',
      'a.name',
      'a.account_type',
      db.raw('sum(l.debit)::text AS debit'),
      db.raw('sum(l.credit)::text AS credit'),
      db.raw('sum(l.debit - l.credit)::text AS net'),
      db.raw(`coalesce(sum(${ownOwedSql('l')}), 0)::text AS owed_own`),
      db.raw(`coalesce(sum(l.credit - l.debit) FILTER (WHERE ${ownOwedSql('l')} IS NULL), 0)::text AS unconverted_usd`),
    );
  if (asOf !== undefined) query.where('l.txn_date', '<=', asOf);
  return query;
}

/** One wallet of a customer: what the firm owes them in its currency (exact) and at its USD equivalent. */
export interface WalletBalance {
  currency: (typeof WALLETS)[number]['currency'];
  account_code: string;
  /** In the wallet's own currency (owedOwn). */
  balance: Decimal;
  /** At its USD equivalent (owed). */
  balance_usd: Decimal;
}

/** The customer's wallets, every one (zero when untouched), from their account balances: what their summary shows and reconciliation compares with the upstreams. */
export function walletBalancesOf(balances: CustomerAccountBalance[], aedPerUsd: Decimal): WalletBalance[] {
  return WALLETS.map(({ currency, account_code }) => ({
    currency,
    account_code,
    balance: owedOwn(balances, account_code, aedPerUsd),
    balance_usd: owed(balances, account_code),
  }));
}

/**
 * The wallets of each of `customerIds` (walletBalancesOf), up to the end of `asOf` (all when
 * absent), in one pass over their wallet lines: a customer without any has every wallet zero.
 */
export async function customersWalletBalances(
  db: Knex,
  customerIds: readonly string[],
  aedPerUsd: Decimal,
  asOf?: string,
): Promise<Map<string, WalletBalance[]>> {
  const rows = (await accountBalancesQuery(db, asOf)
    .whereIn('l.account_code', WALLET_CODES)
    .whereRaw('l.customer_id = ANY(?::text[])', [[...customerIds]])
    .groupBy('l.customer_id')
    .select('l.customer_id')) as Array<CustomerAccountBalance & { customer_id: string }>;
  const byCustomer = new Map<string, CustomerAccountBalance[]>(customerIds.map((id) => [id, []]));
  for (const row of rows) byCustomer.get(row.customer_id)!.push(row);
  return new Map([...byCustomer].map(([id, balances]) => [id, walletBalancesOf(balances, aedPerUsd)]));
}

/** What the firm owes the customer on a liability account: credits − debits (zero when untouched). */
export function owed(balances: CustomerAccountBalance[], accountCode: string): Decimal {
  const row = balances.find((b) => b.account_code === accountCode);
  return row === undefined ? ZERO : new Decimal(row.net).negated();
}

/**
 * What the firm owes the customer on a liability account in the account's own currency (the AED
 * wallet in AED, exact: its lines' AED amounts; a line posted without one at `aedPerUsd`).
 */
export function owedOwn(balances: CustomerAccountBalance[], accountCode: string, aedPerUsd: Decimal): Decimal {
  const row = balances.find((b) => b.account_code === accountCode);
  if (row === undefined) return ZERO;
  return owedInOwnCurrency(
    { own: new Decimal(row.owed_own), unconvertedUsd: new Decimal(row.unconverted_usd) },
    aedPerUsd,
  );
}

/**
 * The shares a transaction moves, in SQL over its columns (`reversedType`: the txn_type of the
 * transaction it reverses): a buy adds, a sell takes away, a reversal undoes its original;
 * anything else moves none (null). Customer positions and the snapshot check count alike.
 */
export const sharesMovedSql = (c: { txnType: string; quantity: string; reversedType: string }) => `CASE
                WHEN ${c.txnType} = 'buy_security' THEN ${c.quantity}
                WHEN ${c.txnType} = 'sell_security' THEN -${c.quantity}
                WHEN ${c.reversedType} = 'buy_security' THEN -${c.quantity}
                WHEN ${c.reversedType} = 'sell_security' THEN ${c.quantity}
              END`;

/**
 * Every movement of shares of the customers `customers` admits (SQL over the column it is given,
 * applied to the trades and to the splits alike: bind its parameters twice), as rows of
 * (customer_id, symbol, currency, txn_date, quantity): each transaction's shares (sharesMovedSql;
 * null for one that moves none) and each split's shares added or removed on its effective date
 * (stock_splits, in USD: the India book's broker). Positions and the holdings checks sum these.
 */
export const shareMovesSql = (customers: (column: string) => string) => `
  SELECT t.customer_id, t.symbol, coalesce(t.original_currency, 'USD') AS currency, t.txn_date,
         ${sharesMovedSql({ txnType: 't.txn_type', quantity: 't.quantity', reversedType: 'o.txn_type' })} AS quantity
    FROM transactions t LEFT JOIN transactions o ON o.txn_id = t.reverses_txn_id
   WHERE t.symbol IS NOT NULL AND ${customers('t.customer_id')}
  UNION ALL
  SELECT s.customer_id, s.symbol, 'USD', s.effective_on, s.shares FROM stock_splits s WHERE ${customers('s.customer_id')}`;

export interface CustomerPosition {
  symbol: string;
  /** Shares held: buys − sells ± splits, a reversed trade counting for nothing. */
  quantity: string;
  /** The lots' cost still held, from securities liability 2100 (credits − debits) of the symbol. */
  cost_usd: string;
  /** Trades of the symbol not yet recosted: a pending sell's cost relief is not in cost_usd yet. */
  pending_recost: number;
}

/**
 * The customer's positions up to the end of `asOf`: quantities from the trades (a reversal
 * undoes its trade's quantity) and the splits of its holdings (stock_splits), cost from the 2100 lines of the symbol's transactions (the
 * buy's cost, recost's FIFO relief on a sell, and their reversals). Symbols whose quantity and
 * cost are both zero are left out.
 */
export async function customerPositions(db: Knex, customerId: string, asOf?: string): Promise<CustomerPosition[]> {
  const dated = asOf === undefined ? '' : 'AND t.txn_date <= ?';
  const { rows } = await db.raw<{ rows: Array<CustomerPosition & { pending_recost: string }> }>(
    `WITH t AS (
       SELECT t.txn_id, t.symbol, t.txn_type, t.quantity, s.txn_id IS NOT NULL AND s.recosted_at IS NULL AS pending, o.txn_type AS reversed_type
       FROM transactions t LEFT JOIN transactions o ON o.txn_id = t.reverses_txn_id
       LEFT JOIN recost_states s ON s.txn_id = t.txn_id
       WHERE t.customer_id = ? AND t.symbol IS NOT NULL ${dated}
     ), held AS (
       SELECT symbol, coalesce(sum(quantity), 0) AS quantity,
              -- As of a closed day nothing is pending: a close waits for recost, and what re-pends later is corrected in the open period.
              count(*) FILTER (WHERE pending AND txn_type IN ('buy_security', 'sell_security') AND NOT ${asOf === undefined ? 'false' : 'coalesce(?::date <= ledger_closed_through(), false)'}) AS pending_recost
       FROM (SELECT symbol, txn_type, pending, ${sharesMovedSql({ txnType: 'txn_type', quantity: 'quantity', reversedType: 'reversed_type' })} AS quantity FROM t
             UNION ALL
             SELECT s.symbol, 'stock_split', false, s.shares FROM stock_splits s WHERE s.customer_id = ? ${asOf === undefined ? '' : 'AND s.effective_on <= ?'}) moves
       GROUP BY symbol
     ), cost AS (
       SELECT t.symbol, sum(l.credit - l.debit) AS cost
       FROM t JOIN journal_lines l ON l.txn_id = t.txn_id AND l.account_code = ?
       GROUP BY t.symbol
     )
     SELECT held.symbol, held.quantity::text AS quantity, coalesce(cost.cost, 0)::text AS cost_usd, held.pending_recost
     FROM held LEFT JOIN cost USING (symbol)
     WHERE held.quantity <> 0 OR coalesce(cost.cost, 0) <> 0
     ORDER BY held.symbol`,
    [
      customerId,
      ...(asOf === undefined ? [customerId] : [asOf, asOf, customerId, asOf]),
      ACCOUNT.securitiesLiabilityEquities,
    ],
  );
  return rows.map((row) => ({
    symbol: row.symbol,
    quantity: new Decimal(row.quantity).toFixed(),
    cost_usd: formatDecimal(new Decimal(row.cost_usd)),
    pending_recost: Number(row.pending_recost),
  }));
}

export interface CustomerActivity {
  transaction_count: number;
  first_txn_date: string | null;
  last_txn_date: string | null;
}

export async function customerActivity(db: Knex, customerId: string): Promise<CustomerActivity> {
  const row = (await db('transactions')
    .where({ customer_id: customerId })
    .first(
      db.raw('count(*)::int AS transaction_count'),
      db.raw('min(txn_date) AS first_txn_date'),
      db.raw('max(txn_date) AS last_txn_date'),
    )) as CustomerActivity;
  return row;
}

export interface StatementMovement {
  line_id: string;
  txn_id: string;
  txn_date: string;
  txn_type: string;
  account_code: string;
  posting_kind: string | null;
  symbol: string | null;
  memo: string | null;
  /** Credit − debit of the wallet line: positive when the customer's cash grows. */
  amount_usd: string;
  /** The wallet's currency, and the same amount in it (an AED line's AED amount). */
  currency: (typeof WALLETS)[number]['currency'];
  amount: Decimal;
}

/** One wallet over the statement's window, in its own currency. */
export interface StatementWallet {
  currency: (typeof WALLETS)[number]['currency'];
  account_code: string;
  opening_balance: Decimal;
  movements_total: Decimal;
}

export interface CustomerStatement {
  opening_balance_usd: Decimal;
  movements: StatementMovement[];
  /** Every wallet (as the summary lists them), in its own currency. */
  wallets: StatementWallet[];
}

/**
 * The customer's wallet cash over a window: the balance before it and every wallet line within
 * it, in txn_date then journal order, at its USD equivalent (every wallet together) and in its
 * wallet's own currency (each wallet apart: an AED wallet's AED is exact, its USD a sum of conversions).
 */
export async function customerStatement(
  db: Knex,
  customerId: string,
  window: DateWindow,
  aedPerUsd: Decimal,
): Promise<CustomerStatement> {
  const openings = window.from === undefined ? [] : await walletOpenings(db, customerId, window.from);
  const rows = await walletMovements(db, customerId, window);
  // Each wallet in its own currency; an AED line posted without its AED amount counts at the peg, as the summary's does.
  const wallets = WALLETS.map(({ currency, account_code }) => {
    const opening = openings.find((o) => o.account_code === account_code);
    return {
      currency,
      account_code,
      opening_balance:
        opening === undefined
          ? ZERO
          : owedInOwnCurrency(
              { own: new Decimal(opening.own), unconvertedUsd: new Decimal(opening.unconverted_usd) },
              aedPerUsd,
            ),
      movements_total: ZERO,
    };
  });
  const movements = rows.map(({ amount_own, ...row }) => {
    const wallet = wallets.find((w) => w.account_code === row.account_code);
    assert(wallet !== undefined, `a statement movement is on a wallet, not on ${row.account_code}`);
    const amount =
      amount_own !== null
        ? new Decimal(amount_own)
        : owedInOwnCurrency({ own: ZERO, unconvertedUsd: new Decimal(row.amount_usd) }, aedPerUsd);
    wallet.movements_total = wallet.movements_total.plus(amount);
    return { ...row, currency: wallet.currency, amount };
  });
  return { opening_balance_usd: openings.reduce((sum, o) => sum.plus(o.usd), ZERO), movements, wallets };
}

/** A customer's wallet lines (every wallet account): what a statement reads. */
function walletLines(db: Knex, customerId: string): Knex.QueryBuilder {
  return db('journal_lines as l').where('l.customer_id', customerId).whereIn('l.account_code', WALLET_CODES);
}

/** Each wallet's balance before a statement's window: its USD, its own currency, and its USD posted without it. */
async function walletOpenings(
  db: Knex,
  customerId: string,
  before: string,
): Promise<Array<{ account_code: string; usd: string; own: string; unconverted_usd: string }>> {
  return walletLines(db, customerId)
    .where('l.txn_date', '<', before)
    .groupBy('l.account_code')
    .select(
      'l.account_code',
      db.raw('sum(l.credit - l.debit)::text AS usd'),
      db.raw(`coalesce(sum(${ownOwedSql('l')}), 0)::text AS own`),
      db.raw(`coalesce(sum(l.credit - l.debit) FILTER (WHERE ${ownOwedSql('l')} IS NULL), 0)::text AS unconverted_usd`),
    );
}

/** A wallet line as read: its amount in the wallet's own currency still to be settled (null: not stated). */
type WalletMovementRow = Omit<StatementMovement, 'currency' | 'amount'> & { amount_own: string | null };

/** The wallet lines within a statement's window, in txn_date then journal order; refused beyond STATEMENT_MOVEMENTS_MAX. */
async function walletMovements(db: Knex, customerId: string, window: DateWindow): Promise<WalletMovementRow[]> {
  const query = walletLines(db, customerId)
    .join('transactions as t', 't.txn_id', 'l.txn_id')
    .select(
      db.raw('l.line_id::text AS line_id'),
      'l.txn_id',
      'l.txn_date',
      't.txn_type',
      'l.account_code',
      'l.posting_kind',
      't.symbol',
      't.memo',
      db.raw('(l.credit - l.debit)::text AS amount_usd'),
      db.raw(`(${ownOwedSql('l')})::text AS amount_own`),
    )
    .orderBy([{ column: 'l.txn_date' }, { column: 'l.line_id' }])
    .limit(STATEMENT_MOVEMENTS_MAX + 1);
  if (window.from !== undefined) query.where('l.txn_date', '>=', window.from);
  if (window.to !== undefined) query.where('l.txn_date', '<=', window.to);
  const rows = (await query) as WalletMovementRow[];
  if (rows.length > STATEMENT_MOVEMENTS_MAX) {
    throw new LedgerError(
      'validation_error',
      `the window holds more than ${STATEMENT_MOVEMENTS_MAX} movements: ask for a shorter one with from and to`,
      [{ path: '/query/from', message: `more than ${STATEMENT_MOVEMENTS_MAX} movements in the window` }],
    );
  }
  return rows;
}

export interface EquityPoint {
  day: string;
  /** Wallet cash at the end of the day (every wallet, USD equivalent). */
  cash_usd: string;
  /** Securities at cost (2100) at the end of the day. */
  cost_basis_usd: string;
  total_usd: string;
}

/**
 * One point per calendar day of the window (default: the customer's first to last day of
 * activity): cash and cost basis as they stood at the end of each day.
 */
export async function customerEquityCurve(db: Knex, customerId: string, window: DateWindow): Promise<EquityPoint[]> {
  const query = db('journal_lines')
    .where('customer_id', customerId)
    .whereIn('account_code', [...WALLET_CODES, ACCOUNT.securitiesLiabilityEquities])
    .groupBy('txn_date')
    .orderBy('txn_date')
    .select(
      'txn_date as day',
      db.raw(`coalesce(sum(credit - debit) FILTER (WHERE account_code <> ?), 0)::text AS cash`, [
        ACCOUNT.securitiesLiabilityEquities,
      ]),
      db.raw(`coalesce(sum(credit - debit) FILTER (WHERE account_code = ?), 0)::text AS cost`, [
        ACCOUNT.securitiesLiabilityEquities,
      ]),
    );
  if (window.to !== undefined) query.where('txn_date', '<=', window.to);
  const days = (await query) as Array<{ day: string; cash: string; cost: string }>;
  const from = window.from ?? days[0]?.day;
  const to = window.to ?? days.at(-1)?.day;
  if (from === undefined || to === undefined || from > to) return [];
  const span = daysBetween(from, to) + 1;
  if (span > EQUITY_CURVE_DAYS_MAX) {
    throw new LedgerError(
      'validation_error',
      `an equity curve spans at most ${EQUITY_CURVE_DAYS_MAX} days: narrow from and to`,
      [{ path: '/query/from', message: `${span} days asked for` }],
    );
  }
  let cash = ZERO;
  let cost = ZERO;
  let next = 0;
  const advanceThrough = (day: string) => {
    for (; next < days.length && days[next]!.day <= day; next += 1) {
      cash = cash.plus(days[next]!.cash);
      cost = cost.plus(days[next]!.cost);
    }
  };
  const points: EquityPoint[] = [];
  for (let i = 0; i < span; i += 1) {
    const day = addDays(from, i);
    advanceThrough(day);
    points.push({
      day,
      cash_usd: formatDecimal(cash),
      cost_basis_usd: formatDecimal(cost),
      total_usd: formatDecimal(cash.plus(cost)),
    });
  }
  assert(next === days.length, 'every day of activity up to the end of the window is in the curve');
  return points;
}

export interface DividendTotals {
  gross_usd: string;
  withheld_usd: string;
  net_usd: string;
}

/** Dividends credited to the wallet and tax withheld from it in the window, net of reversals (their lines keep the posting kind). */
export async function customerDividendTotals(
  db: Knex,
  customerId: string,
  window: DateWindow,
): Promise<DividendTotals> {
  const query = db('journal_lines')
    .where({ customer_id: customerId, account_code: ACCOUNT.customerWalletUsd })
    .first(
      db.raw(`coalesce(sum(credit - debit) FILTER (WHERE posting_kind = 'dividend'), 0)::text AS gross`),
      db.raw(`coalesce(sum(debit - credit) FILTER (WHERE posting_kind = 'wht_tax'), 0)::text AS withheld`),
    );
  if (window.from !== undefined) query.where('txn_date', '>=', window.from);
  if (window.to !== undefined) query.where('txn_date', '<=', window.to);
  const { gross, withheld } = (await query) as { gross: string; withheld: string };
  return {
    gross_usd: formatDecimal(new Decimal(gross)),
    withheld_usd: formatDecimal(new Decimal(withheld)),
    net_usd: formatDecimal(new Decimal(gross).minus(withheld)),
  };
}

/** Whole days from `from` to `to` (ISO dates). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
