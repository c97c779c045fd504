import { ACCOUNT, assertPage, Decimal, type Page } from '@ledger/core/posting';
import {
  customerLinesSql,
  economicDateSql,
  fxSpreadPostingSql,
  notReversedSql,
  paidRemittanceSql,
  paidRemittedBetweenSql,
  type Db,
} from '@ledger/core/store';
import type { FeeFigures } from './broker-fees.js';
import type { FlaggedSale, OpenLot, StoredMatch } from './capital-gains.js';
import { addDays } from './dates.js';
import { issuersOf } from './issuers.js';
import type { DividendEvent } from './dividends.js';
import { groupBy } from './figures.js';
import type { FinancialYear } from './fy.js';
import type { MarginRemittance } from './fx-margin.js';
import type { LrsRemittance } from './lrs.js';
import { RATE_LOOKBACK_DAYS, RateBook } from './rates.js';
import { A2_NATURES, type A2Nature, type FaInput } from './schedule-fa.js';
import type { SettledRemittance } from './settlement-audit.js';

/**
 * The reads the India reports need, each one set-based statement over the book. A customer
 * filter of null reads every customer.
 */

const dec = (v: string) => new Decimal(v);
const decOrNull = (v: string | null) => (v === null ? null : new Decimal(v));
/** One customer (`:customer`) or, null, every one. */
const oneOrEvery = (column: string) => `(CAST(:customer AS text) IS NULL OR ${column} = :customer)`;
/** The customers listed (`:customers`). */
const listed = (column: string) => `${column} = ANY(CAST(:customers AS text[]))`;

/** The rates from `from` (less the look-back) to `to`, as a RateBook. */
export async function rateBook(db: Db, from: string, to: string): Promise<RateBook> {
  const { rows } = await db.raw<{
    rows: Array<{ rate_date: string; tt_buy: string; mid: string; published_at: string }>;
  }>(
    `SELECT rate_date::text, tt_buy::text, mid::text, to_char(published_at, 'YYYY-MM-DD HH24:MI') AS published_at
       FROM inr_rates WHERE rate_date BETWEEN ?::date AND ?::date ORDER BY rate_date`,
    [addDays(from, -RATE_LOOKBACK_DAYS), to],
  );
  return new RateBook(
    rows.map((r) => ({ date: r.rate_date, ttBuy: dec(r.tt_buy), mid: dec(r.mid), publishedAt: r.published_at })),
  );
}

/** A remittance paid, then refunded: the order failed after its payment took the money (remit's `REFUNDED`). */
const REFUNDED = `status = 'failed' AND payment_error_code = 'REFUNDED'`;

/** The FY's paid LRS remittances (of one PAN, or null: every one), those refunded since among them (their TCS was collected). */
export async function paidRemittances(db: Db, fy: FinancialYear, pan: string | null = null): Promise<LrsRemittance[]> {
  const { rows } = await db.raw<{
    rows: Array<{
      order_id: string;
      customer_id: string;
      pan: string | null;
      remitted_on: string;
      amount_inr: string;
      amount_usd: string | null;
      tcs_inr: string | null;
      refunded: boolean;
    }>;
  }>(
    `SELECT order_id, customer_id, pan, remitted_on::text, amount_inr::text, amount_usd::text, tcs_inr::text, (${REFUNDED}) AS refunded
       FROM remittances WHERE (${paidRemittanceSql()} OR (${REFUNDED})) AND remitted_on BETWEEN ?::date AND ?::date
        AND (CAST(? AS text) IS NULL OR pan = ?)`,
    [fy.start, fy.end, pan, pan],
  );
  return rows.map((r) => ({
    orderId: r.order_id,
    customerId: r.customer_id,
    pan: r.pan,
    remittedOn: r.remitted_on,
    amountInr: dec(r.amount_inr),
    amountUsd: decOrNull(r.amount_usd),
    tcsInr: decOrNull(r.tcs_inr),
    refunded: r.refunded,
  }));
}

/**
 * The customers who carry `pan` (the customers table) or remitted under it (remittances), in id
 * order: one person may hold several accounts, and the return is per PAN.
 */
export async function customersOfPan(db: Db, pan: string): Promise<string[]> {
  const { rows } = await db.raw<{ rows: Array<{ customer_id: string }> }>(
    `SELECT customer_id FROM customers WHERE pan = :pan
      UNION SELECT customer_id FROM remittances WHERE pan = :pan ORDER BY customer_id`,
    { pan },
  );
  return rows.map((r) => r.customer_id);
}

/** USD of the FY's paid remittances per PAN (those with one). */
export async function remittedUsdPerPan(db: Db, fy: FinancialYear): Promise<Map<string, Decimal>> {
  const { rows } = await db.raw<{ rows: Array<{ pan: string; usd: string }> }>(
    `SELECT pan, coalesce(sum(amount_usd), 0)::text AS usd FROM remittances
      WHERE pan IS NOT NULL AND ${paidRemittedBetweenSql(undefined, '?::date', '?::date')} GROUP BY 1`,
    [fy.start, fy.end],
  );
  return new Map(rows.map((r) => [r.pan, dec(r.usd)]));
}

/** The FY's paid remittances with their payment, settlement and UTR. */
export async function settledRemittances(db: Db, fy: FinancialYear): Promise<SettledRemittance[]> {
  const { rows } = await db.raw<{
    rows: Array<{
      order_id: string;
      customer_id: string;
      purpose_code: string | null;
      utr: string | null;
      amount_usd: string | null;
      paid_at: Date | null;
      settled_at: Date | null;
    }>;
  }>(
    `SELECT order_id, customer_id, purpose_code, utr, amount_usd::text, paid_at, settled_at
       FROM remittances WHERE ${paidRemittedBetweenSql(undefined, '?::date', '?::date')} ORDER BY remitted_on, order_id`,
    [fy.start, fy.end],
  );
  return rows.map((r) => ({
    orderId: r.order_id,
    customerId: r.customer_id,
    purposeCode: r.purpose_code,
    utr: r.utr,
    amountUsd: decOrNull(r.amount_usd),
    paidAt: r.paid_at,
    settledAt: r.settled_at,
  }));
}

/**
 * New shares per old share of `symbol` (SQL) from the splits effective after `from` up to and
 * including `to` (stock_splits: one corporate action, the same for every holder, so by symbol):
 * 1 without a split. Converts a quantity of `from`'s shares into `to`'s. The product is taken as
 * exp(sum(ln)) and rounded to 12 places, exact for the ratios brokers state (4, 0.1, 1.5, ...).
 */
const splitFactor = (symbol: string, from: string, to: string) =>
  `(SELECT coalesce(round(exp(sum(ln(r.ratio))), 12), 1)
      FROM (SELECT DISTINCT sp.effective_on, sp.ratio FROM stock_splits sp WHERE sp.symbol = ${symbol}) r
     WHERE r.effective_on > ${from} AND r.effective_on <= ${to})`;

/** The customer's fee credited to 4010 by a transaction (a buy's own line, a sale's derivation's). */
const feeOf = (txnId: string) =>
  `(SELECT coalesce(sum(l.credit), 0) FROM journal_lines l WHERE l.txn_id = ${txnId} AND l.account_code = '${ACCOUNT.brokerageRevenue}' AND l.posting_kind = 'brokerage_fee')`;

/** Matches in effect of `customers`' sales whose transfer date is in [from, to]. */
export async function storedMatches(db: Db, from: string, to: string, customers: string[]): Promise<StoredMatch[]> {
  const { rows } = await db.raw<{ rows: Array<Record<string, string>> }>(
    `SELECT m.customer_id, m.symbol, m.sell_txn_id, m.lot_txn_id, m.acquired_on::text, m.transferred_on::text, m.quantity::text, m.cost_usd::text,
            (b.quantity * ${splitFactor('m.symbol', 'm.acquired_on', 'm.transferred_on')})::text AS buy_quantity, ${feeOf('b.txn_id')}::text AS buy_fee_usd, s.amount_usd::text AS sell_amount_usd, ${feeOf('m.derivation_txn_id')}::text AS sell_fee_usd
       FROM lot_matches m JOIN transactions b ON b.txn_id = m.lot_txn_id JOIN transactions s ON s.txn_id = m.sell_txn_id
      WHERE m.customer_id = ANY(?::text[]) AND m.transferred_on BETWEEN ?::date AND ?::date AND ${notReversedSql('m.derivation_txn_id')}`,
    [customers, from, to],
  );
  return rows.map((r) => ({
    customerId: r.customer_id!,
    symbol: r.symbol!,
    sellTxnId: r.sell_txn_id!,
    lotTxnId: r.lot_txn_id!,
    acquiredOn: r.acquired_on!,
    transferredOn: r.transferred_on!,
    quantity: dec(r.quantity!),
    costUsd: dec(r.cost_usd!),
    buyQuantity: dec(r.buy_quantity!),
    buyFeeUsd: dec(r.buy_fee_usd!),
    sellAmountUsd: dec(r.sell_amount_usd!),
    sellFeeUsd: dec(r.sell_fee_usd!),
  }));
}

/**
 * The lots held at some time of [`:held_from`, `:as_of`] of the customers `customers` selects:
 * buys not reversed of `:as_of` and before, not all their shares taken before `:held_from` by
 * matches in effect (`taken`: shares and cost, fees excluded as the ledger keeps it), read per lot
 * through its index. The lots with shares left at `:as_of` are those held from the day after.
 */
const lotsHeldFrom = (customers: (column: string) => string) => `
  FROM transactions b
  CROSS JOIN LATERAL (
    SELECT coalesce(sum(m.quantity / ${splitFactor('b.symbol', economicDateSql('b'), 'm.transferred_on')}), 0) AS quantity,
           coalesce(sum(m.cost_usd), 0) AS cost FROM lot_matches m
     WHERE m.lot_txn_id = b.txn_id AND m.transferred_on < CAST(:held_from AS date) AND ${notReversedSql('m.derivation_txn_id')}) taken
  WHERE b.txn_type = 'buy_security' AND b.customer_id IS NOT NULL AND b.quantity IS NOT NULL AND ${economicDateSql('b')} <= CAST(:as_of AS date)
    AND ${customers('b.customer_id')} AND ${notReversedSql('b.txn_id')} AND b.quantity > taken.quantity`;

/** What is left of each lot of `customers` at `asOf`. */
export async function openLots(db: Db, asOf: string, customers: string[]): Promise<OpenLot[]> {
  const { rows } = await db.raw<{
    rows: Array<{
      txn_id: string;
      customer_id: string;
      symbol: string;
      acquired_on: string;
      quantity: string;
      cost_usd: string;
    }>;
  }>(
    `SELECT b.txn_id, b.customer_id, b.symbol, ${economicDateSql('b')}::text AS acquired_on,
            round((b.quantity - taken.quantity) * ${splitFactor('b.symbol', economicDateSql('b'), 'CAST(:as_of AS date)')}, 8)::text AS quantity,
            (b.amount_usd - taken.cost)::text AS cost_usd ${lotsHeldFrom(listed)}`,
    { held_from: addDays(asOf, 1), as_of: asOf, customers },
  );
  return rows.map((r) => ({
    customerId: r.customer_id,
    symbol: r.symbol,
    lotTxnId: r.txn_id,
    acquiredOn: r.acquired_on,
    quantity: dec(r.quantity),
    costUsd: dec(r.cost_usd),
  }));
}

/**
 * A page of the customers (one, or null: every one) that `belongs` (SQL over `c.customer_id` and
 * `bindings`) admits, in id order, and how many in all. Each customer with transactions is
 * visited once through the customer index (a skip scan) and asked by `belongs`, whose questions
 * go by index, cheapest first.
 */
async function customersPage(
  db: Db,
  customerId: string | null,
  page: Page,
  belongs: string,
  bindings: Record<string, string>,
): Promise<{ customers: string[]; total: number }> {
  const { limit, offset } = assertPage(page);
  const candidates = `
    WITH RECURSIVE traders (customer_id) AS (
      SELECT min(t.customer_id) FROM transactions t WHERE ${oneOrEvery('t.customer_id')}
      UNION ALL
      SELECT (SELECT min(t.customer_id) FROM transactions t WHERE t.customer_id > p.customer_id AND ${oneOrEvery('t.customer_id')})
        FROM traders p WHERE p.customer_id IS NOT NULL)
    SELECT c.customer_id FROM traders c WHERE c.customer_id IS NOT NULL AND (${belongs})`;
  const all = { ...bindings, customer: customerId };
  const { rows } = await db.raw<{ rows: Array<{ customer_id: string; total: number }> }>(
    `SELECT customer_id, count(*) OVER ()::int AS total FROM (${candidates}) c ORDER BY customer_id LIMIT :limit OFFSET :offset`,
    { ...all, limit, offset },
  );
  // Past the last page: counted on their own.
  const total =
    rows[0]?.total ??
    (await db.raw<{ rows: Array<{ total: number }> }>(`SELECT count(*)::int AS total FROM (${candidates}) c`, all))
      .rows[0]!.total;
  return { customers: rows.map((r) => r.customer_id), total };
}

/**
 * The capital-gains report's customers of `fy`, a page of them (see customersPage): those with a
 * match in effect in the FY, an open lot at its end or a sale of it flagged.
 */
export function capitalGainsCustomers(db: Db, fy: FinancialYear, customerId: string | null, page: Page) {
  return customersPage(
    db,
    customerId,
    page,
    `EXISTS (SELECT 1 FROM lot_matches m
              WHERE m.customer_id = c.customer_id AND m.transferred_on BETWEEN CAST(:from AS date) AND CAST(:as_of AS date)
                AND ${notReversedSql('m.derivation_txn_id')})
     OR EXISTS (SELECT 1 FROM recost_flags f JOIN transactions t USING (txn_id)
                 WHERE f.cleared_at IS NULL AND t.customer_id = c.customer_id AND t.txn_type = 'sell_security'
                   AND t.txn_date BETWEEN CAST(:from AS date) AND CAST(:as_of AS date))
     OR EXISTS (SELECT 1 ${lotsHeldFrom((column) => `${column} = c.customer_id`)})`,
    { from: fy.start, held_from: addDays(fy.end, 1), as_of: fy.end },
  );
}

/**
 * Schedule FA's customers of `fy`'s calendar year, a page of them (see customersPage): those with
 * a broker cash account (a USD wallet line) by the year's end, or a lot held at some time of it.
 */
export function scheduleFaCustomers(db: Db, fy: FinancialYear, customerId: string | null, page: Page) {
  return customersPage(
    db,
    customerId,
    page,
    `EXISTS (SELECT 1 FROM journal_lines l
              WHERE l.customer_id = c.customer_id AND l.account_code = '${ACCOUNT.customerWalletUsd}' AND l.txn_date <= CAST(:as_of AS date))
     OR EXISTS (SELECT 1 ${lotsHeldFrom((column) => `${column} = c.customer_id`)})`,
    { held_from: fy.calendarPeriod.from, as_of: fy.calendarPeriod.to },
  );
}

/** `customers`' sales of [from, to] recost left flagged (oversold, or after one). */
export async function flaggedSales(db: Db, from: string, to: string, customers: string[]): Promise<FlaggedSale[]> {
  const { rows } = await db.raw<{
    rows: Array<{
      txn_id: string;
      customer_id: string;
      symbol: string;
      txn_date: string;
      quantity: string | null;
      reason: string;
    }>;
  }>(
    `SELECT t.txn_id, t.customer_id, t.symbol, ${economicDateSql('t')}::text AS txn_date, t.quantity::text, f.reason
       FROM recost_flags f JOIN transactions t USING (txn_id)
      WHERE f.cleared_at IS NULL AND t.txn_type = 'sell_security' AND ${economicDateSql('t')} BETWEEN ?::date AND ?::date AND t.customer_id = ANY(?::text[])
      ORDER BY 4, t.txn_id`,
    [from, to, customers],
  );
  return rows.map((r) => ({
    customerId: r.customer_id,
    symbol: r.symbol,
    txnId: r.txn_id,
    txnDate: r.txn_date,
    quantity: decOrNull(r.quantity),
    reason: r.reason,
  }));
}

/** `customers`' sales of [from, to], not reversed nor flagged, that have no matches in effect yet (pending recost). */
export async function unmatchedSales(db: Db, from: string, to: string, customers: string[]): Promise<string[]> {
  const { rows } = await db.raw<{ rows: Array<{ txn_id: string }> }>(
    `SELECT t.txn_id FROM transactions t
      WHERE t.txn_type = 'sell_security' AND ${economicDateSql('t')} BETWEEN ?::date AND ?::date AND t.customer_id = ANY(?::text[]) AND ${notReversedSql('t.txn_id')}
        AND NOT EXISTS (SELECT 1 FROM recost_flags f WHERE f.txn_id = t.txn_id AND f.cleared_at IS NULL)
        AND NOT EXISTS (SELECT 1 FROM lot_matches m WHERE m.sell_txn_id = t.txn_id AND ${notReversedSql('m.derivation_txn_id')})
      ORDER BY t.txn_id`,
    [from, to, customers],
  );
  return rows.map((r) => r.txn_id);
}

/** Dividends paid in [from, to] to `customers` (null: every customer). */
export async function dividendEvents(
  db: Db,
  from: string,
  to: string,
  customers: string[] | null,
): Promise<DividendEvent[]> {
  const { rows } = await db.raw<{
    rows: Array<{
      div_txn_no: string;
      customer_id: string;
      symbol: string;
      ex_date: string;
      pay_date: string;
      gross_usd: string;
      wht_usd: string | null;
    }>;
  }>(
    `SELECT div_txn_no, customer_id, symbol, ex_date::text, pay_date::text, gross_usd::text, wht_usd::text
       FROM dividend_events WHERE pay_date BETWEEN CAST(:from AS date) AND CAST(:to AS date) AND (CAST(:customers AS text[]) IS NULL OR ${listed('customer_id')})`,
    { from, to, customers },
  );
  return rows.map((r) => ({
    divTxnNo: r.div_txn_no,
    customerId: r.customer_id,
    symbol: r.symbol,
    exDate: r.ex_date,
    payDate: r.pay_date,
    grossUsd: dec(r.gross_usd),
    whtUsd: decOrNull(r.wht_usd),
  }));
}

/**
 * What Schedule FA reads of `customers` for the calendar year ending in `fy`. Shares and closes
 * are in the shares of the year's end (splits applied: a lot's and a sale's shares multiplied by
 * the splits after them, a day's close divided by them), so a day's value is the shares then
 * held at that day's close, whichever side of a split it falls.
 */
export async function scheduleFaInput(db: Db, fy: FinancialYear, customers: string[]): Promise<FaInput> {
  const { from: first, to: last } = fy.calendarPeriod;
  const bindings = { held_from: first, as_of: last, customers };
  const lots = await faLots(db, bindings);
  const symbols = [...new Set(lots.map((l) => l.symbol))];
  return {
    customers,
    issuers: await issuersOf(db, symbols),
    lots,
    sales: await faSales(db, bindings),
    dividends: (await dividendEvents(db, first, last, customers)).map((d) => ({
      customerId: d.customerId,
      symbol: d.symbol,
      payDate: d.payDate,
      grossUsd: d.grossUsd,
    })),
    prices: await faCloses(db, symbols, first, last),
    cash: await faWallets(db, bindings),
  };
}

/** Schedule FA's reads are of `customers` over the calendar year from `held_from` to `as_of`. */
type FaBindings = { held_from: string; as_of: string; customers: string[] };

/** The lots held in the year (table A3), each with what was sold of it up to the year's end. */
async function faLots(db: Db, bindings: FaBindings): Promise<FaInput['lots']> {
  const { rows } = await db.raw<{
    rows: Array<{
      txn_id: string;
      customer_id: string;
      symbol: string;
      acquired_on: string;
      quantity: string;
      amount_usd: string;
      fee_usd: string;
      sold: Array<{ on: string; quantity: string }>;
    }>;
  }>(
    `SELECT b.txn_id, b.customer_id, b.symbol, ${economicDateSql('b')}::text AS acquired_on,
            round(b.quantity * ${splitFactor('b.symbol', economicDateSql('b'), 'CAST(:as_of AS date)')}, 8)::text AS quantity,
            b.amount_usd::text, ${feeOf('b.txn_id')}::text AS fee_usd,
            (SELECT coalesce(jsonb_agg(jsonb_build_object('on', m.transferred_on,
                      'quantity', round(m.quantity * ${splitFactor('m.symbol', 'm.transferred_on', 'CAST(:as_of AS date)')}, 8)::text)), '[]') FROM lot_matches m
              WHERE m.lot_txn_id = b.txn_id AND m.transferred_on <= CAST(:as_of AS date) AND ${notReversedSql('m.derivation_txn_id')}) AS sold
       ${lotsHeldFrom(listed)}`,
    bindings,
  );
  return rows.map((r) => ({
    customerId: r.customer_id,
    symbol: r.symbol,
    lotTxnId: r.txn_id,
    acquiredOn: r.acquired_on,
    quantity: dec(r.quantity),
    costUsd: dec(r.amount_usd).plus(r.fee_usd),
    sold: r.sold.map((s) => ({ transferredOn: s.on, quantity: dec(s.quantity) })),
  }));
}

/** The year's sales (their proceeds are table A2's). */
async function faSales(db: Db, bindings: FaBindings): Promise<FaInput['sales']> {
  const { rows } = await db.raw<{
    rows: Array<{ customer_id: string; symbol: string; txn_date: string; amount_usd: string }>;
  }>(
    `SELECT customer_id, symbol, ${economicDateSql('t')}::text AS txn_date, amount_usd::text FROM transactions t
      WHERE txn_type = 'sell_security' AND ${listed('customer_id')} AND ${economicDateSql('t')} BETWEEN CAST(:held_from AS date) AND CAST(:as_of AS date) AND ${notReversedSql('t.txn_id')}`,
    bindings,
  );
  return rows.map((s) => ({
    customerId: s.customer_id,
    symbol: s.symbol,
    txnDate: s.txn_date,
    amountUsd: dec(s.amount_usd),
  }));
}

/** Each symbol's closes over the year, in the shares of its end (for the peak and closing values). */
async function faCloses(db: Db, symbols: string[], first: string, last: string): Promise<FaInput['prices']> {
  const { rows } = await db.raw<{ rows: Array<{ symbol: string; price_date: string; close_usd: string }> }>(
    `SELECT p.symbol, p.price_date::text, (p.close_usd / ${splitFactor('p.symbol', 'p.price_date', '?::date')})::text AS close_usd
       FROM close_prices p WHERE p.symbol = ANY(?::text[]) AND p.price_date BETWEEN ?::date AND ?::date ORDER BY p.symbol, p.price_date`,
    [last, symbols, first, last],
  );
  return new Map(
    [...groupBy(rows, (p) => p.symbol)].map(([symbol, list]) => [
      symbol,
      list.map((p) => ({ date: p.price_date, closeUsd: dec(p.close_usd) })),
    ]),
  );
}

/** Each customer's USD wallet (table A2's account): its balance before the year, and each day's net and credits by nature. */
async function faWallets(db: Db, bindings: FaBindings): Promise<FaInput['cash']> {
  const natures = Object.entries(A2_NATURES) as Array<[A2Nature, readonly string[]]>;
  const { rows: cash } = await db.raw<{
    rows: Array<{ customer_id: string; day: string | null; first_day: string; net: string } & Record<A2Nature, string>>;
  }>(
    `SELECT customer_id, CASE WHEN txn_date >= CAST(:held_from AS date) THEN txn_date::text END AS day, min(txn_date)::text AS first_day,
            sum(credit - debit)::text AS net,
            ${natures.map(([nature]) => `coalesce(sum(credit - debit) FILTER (WHERE posting_kind = ANY(CAST(:${nature} AS text[]))), 0)::text AS ${nature}`).join(', ')}
       FROM journal_lines WHERE ${listed('customer_id')} AND account_code = '${ACCOUNT.customerWalletUsd}' AND txn_date <= CAST(:as_of AS date)
      GROUP BY 1, 2 ORDER BY 1, 2 NULLS FIRST`,
    { ...bindings, ...Object.fromEntries(natures.map(([nature, kinds]) => [nature, [...kinds]])) },
  );
  const { rows: accounts } = await db.raw<{ rows: Array<{ customer_id: string; usbroker_account_no: string | null }> }>(
    `SELECT customer_id, usbroker_account_no FROM customers WHERE ${listed('customer_id')}`,
    bindings,
  );
  const accountOf = new Map(accounts.map((a) => [a.customer_id, a.usbroker_account_no]));
  const wallets = new Map<string, FaInput['cash'][number]>();
  for (const c of cash) {
    // Rows come by customer, the days before the year first: the first row has the first day.
    const wallet = wallets.get(c.customer_id) ?? {
      customerId: c.customer_id,
      accountNo: accountOf.get(c.customer_id) ?? null,
      firstLineOn: c.first_day,
      opening: new Decimal(0),
      days: [],
    };
    if (c.day === null) wallet.opening = dec(c.net);
    else
      wallet.days.push({
        date: c.day,
        net: dec(c.net),
        credited: Object.fromEntries(natures.map(([nature]) => [nature, dec(c[nature])])) as Record<A2Nature, Decimal>,
      });
    wallets.set(c.customer_id, wallet);
  }
  return [...wallets.values()];
}

/** Dates from `:from` to `:to`, each bound optional. */
const within = (column: string) =>
  `(CAST(:from AS date) IS NULL OR ${column} >= CAST(:from AS date)) AND (CAST(:to AS date) IS NULL OR ${column} <= CAST(:to AS date))`;

/** feeFigures' one statement: the trades judged, counted and summed, and the page listed. */
const FEE_FIGURES_STATEMENT = (() => {
  const differs = (a: string, b: string) => `coalesce(abs(${a} - ${b}) > CAST(:tolerance AS numeric), false)`;
  const total = (column: string) => `round(coalesce(sum(${column}), 0), 2)::text`;
  return `WITH trades AS MATERIALIZED (
       SELECT t.txn_id, t.customer_id, t.symbol, t.txn_type, t.txn_date, t.amount_usd AS notional,
              f.amount_usd AS actual, f.amount_usd + f.platform_fee_usd AS itemised,
              round(t.amount_usd * CAST(:per_dollar AS numeric), 2) AS configured, m.broker_cost AS modelled,
              CASE WHEN t.txn_type = 'buy_security' OR m.derived THEN own.fee + coalesce(m.fee, 0) END AS customer_fee
         FROM transactions t
         LEFT JOIN broker_fees f ON f.source = t.source AND f.source_txn_id = t.source_txn_id
         LEFT JOIN LATERAL (
           SELECT true AS derived,
                  coalesce(sum(l.debit) FILTER (WHERE l.account_code = '${ACCOUNT.brokerageCost}'), 0) AS broker_cost,
                  coalesce(sum(l.credit) FILTER (WHERE l.account_code = '${ACCOUNT.brokerageRevenue}' AND l.posting_kind = 'brokerage_fee'), 0) AS fee
             FROM transactions d JOIN journal_lines l ON l.txn_id = d.txn_id
            WHERE d.customer_id = t.customer_id AND d.txn_date = t.txn_date AND d.txn_type = 'recost'
              AND d.metadata->>'recost_of' = t.txn_id::text AND ${notReversedSql('d.txn_id')}
           HAVING count(*) > 0) m ON true
         CROSS JOIN LATERAL (
           SELECT coalesce(sum(l.credit), 0) AS fee FROM journal_lines l
            WHERE l.txn_id = t.txn_id AND l.account_code = '${ACCOUNT.brokerageRevenue}' AND l.posting_kind = 'brokerage_fee') own
        WHERE t.txn_type IN ('buy_security', 'sell_security') AND t.customer_id IS NOT NULL AND ${notReversedSql('t.txn_id')}
          AND ${within('t.txn_date')} AND ${oneOrEvery('t.customer_id')}),
     judged AS MATERIALIZED (
       SELECT *, actual - modelled AS drift, actual - configured AS configured_drift, itemised - customer_fee AS fee_drift,
              ${differs('actual', 'modelled')} OR ${differs('itemised', 'customer_fee')} AS flagged
         FROM trades)
     SELECT count(*)::int AS trades, count(actual)::int AS matched, count(*) FILTER (WHERE flagged)::int AS flagged,
            json_build_object(
              'notional_usd', ${total('notional')},
              'modelled_usd', round(coalesce(CASE WHEN CAST(:customer AS text) IS NULL
                THEN (SELECT sum(x.debit_total - x.credit_total) FROM account_daily_totals x
                       WHERE x.account_code = '${ACCOUNT.brokerageCost}' AND x.posting_kind = 'broker_cost' AND ${within('x.day')})
                ELSE (SELECT sum(l.debit - l.credit) FROM journal_lines l
                       WHERE ${customerLinesSql('l', ':customer', ACCOUNT.brokerageCost)} AND l.account_code = '${ACCOUNT.brokerageCost}' AND l.posting_kind = 'broker_cost' AND ${within('l.txn_date')})
                END, 0), 2)::text,
              'configured_usd', ${total('configured')},
              'actual_usd', ${total('actual')},
              'drift_usd', ${total('drift')},
              'configured_drift_usd', ${total('configured_drift')},
              'customer_fee_usd', ${total('customer_fee')},
              'itemised_fee_usd', ${total('itemised')},
              'customer_fee_drift_usd', ${total('fee_drift')}) AS totals,
            (SELECT coalesce(json_agg(json_build_object(
                      'txn_id', p.txn_id, 'customer_id', p.customer_id, 'symbol', p.symbol,
                      'side', CASE p.txn_type WHEN 'buy_security' THEN 'buy' ELSE 'sell' END, 'txn_date', p.txn_date,
                      'notional_usd', round(p.notional, 2)::text, 'modelled_usd', round(p.modelled, 2)::text,
                      'configured_usd', p.configured::text, 'actual_usd', round(p.actual, 2)::text,
                      'drift_usd', round(p.drift, 2)::text, 'configured_drift_usd', round(p.configured_drift, 2)::text,
                      'customer_fee_usd', round(p.customer_fee, 2)::text, 'itemised_fee_usd', round(p.itemised, 2)::text,
                      'customer_fee_drift_usd', round(p.fee_drift, 2)::text,
                      'flagged', p.flagged) ORDER BY p.txn_date, p.txn_id), '[]')
               FROM (SELECT * FROM judged ORDER BY txn_date, txn_id LIMIT :limit OFFSET :offset) p) AS rows
       FROM judged`;
})();

/**
 * Trades (not reversed) of the filter with `configuredBps` of notional in cents (`configured`),
 * the broker's itemised fee (`actual`) and the whole fee itemised (`itemised`: the broker's part
 * plus the platform's), against what the book posted: the broker cost in effect (`modelled`, the
 * 5010 debit of the trade's derivation, found by the customer and date it shares with the trade)
 * and the customer's fee (4010 `brokerage_fee`, the trade's own line and its derivation's). A
 * trade is flagged when the itemised fees and the posted ones differ beyond `tolerance`. Counted
 * and summed over every trade of the filter, listed for one page (trade date, then id), in one
 * statement: the page never changes the totals. The modelled total is the broker cost recost
 * posted (5010 `broker_cost`, net of what it superseded) dated in the window: the firm's from the
 * daily totals, a customer's from their lines. Derivations carry their trade's date and customer,
 * so once recost has run it is the trades' modelled summed.
 */
export async function feeFigures(
  db: Db,
  filter: { from: string | null; to: string | null; customerId: string | null },
  figures: { configuredBps: Decimal; tolerance: Decimal },
  page: Page,
): Promise<FeeFigures> {
  const { limit, offset } = assertPage(page);
  const { rows } = await db.raw<{ rows: FeeFigures[] }>(FEE_FIGURES_STATEMENT, {
    from: filter.from,
    to: filter.to,
    customer: filter.customerId,
    // bps ÷ 10,000, exact (a shift): one multiplication per trade.
    per_dollar: figures.configuredBps.shiftedBy(-4).toFixed(),
    tolerance: figures.tolerance.toFixed(),
    limit,
    offset,
  });
  return rows[0]!;
}

/** The FY's paid, priced remittances with their settlement fees and the `fx_spread` accrual in effect. */
export async function marginRemittances(db: Db, fy: FinancialYear): Promise<MarginRemittance[]> {
  const { rows } = await db.raw<{ rows: Array<Record<string, string | null>> }>(
    `SELECT m.order_id, m.customer_id, m.remitted_on::text, m.amount_inr::text, m.amount_usd::text, m.fx_rate::text, m.mid_rate::text,
            CASE WHEN m.settlement_fx_fee_usd IS NULL AND m.settlement_txn_fee_usd IS NULL THEN NULL
                 ELSE (coalesce(m.settlement_fx_fee_usd, 0) + coalesce(m.settlement_txn_fee_usd, 0))::text END AS provider_fees_usd,
            (SELECT t.amount_usd::text FROM transactions t WHERE ${fxSpreadPostingSql('t', 'm.order_id')} AND ${notReversedSql('t.txn_id')}) AS accrued_usd
       FROM remittances m
      WHERE m.amount_usd IS NOT NULL AND m.fx_rate IS NOT NULL AND ${paidRemittedBetweenSql('m', '?::date', '?::date')}
      ORDER BY m.remitted_on, m.order_id`,
    [fy.start, fy.end],
  );
  return rows.map((r) => ({
    orderId: r.order_id!,
    customerId: r.customer_id!,
    remittedOn: r.remitted_on!,
    amountInr: dec(r.amount_inr!),
    amountUsd: dec(r.amount_usd!),
    customerRate: dec(r.fx_rate!),
    midRate: decOrNull(r.mid_rate ?? null),
    providerFeesUsd: decOrNull(r.provider_fees_usd ?? null),
    accruedUsd: decOrNull(r.accrued_usd ?? null),
  }));
}
