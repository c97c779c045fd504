import { ACCOUNT, Decimal, YEAR_CLOSE_POSTING_KIND, ZERO } from '@ledger/core/posting';
import type { Book } from '@ledger/core/runtime';
import { paidRemittanceSql, paidRemittedBetweenSql, type Db } from '@ledger/core/store';
import { ledgerCash, ledgerShares } from '@ledger/reconciliation';
import type { IndiaCustomer, LedgerHoldings } from './live.js';

/*
 * The ledger's side of the live India reports: set-based reads of the book's database (one
 * query per figure over every customer, never a query per customer), handed to the reports.
 */

/** The book's India customers, by id: every customer of the India book, none on the UAE book. */
export async function indiaCustomers(db: Db, book: Book): Promise<IndiaCustomer[]> {
  if (book !== 'ENTITY_IND_IFSC') return [];
  return db('customers')
    .orderBy('customer_id')
    .select('customer_id', 'usbroker_account_no as account_no', 'remit_customer_id', 'pan');
}

/**
 * Each customer's USD wallet and positions, for `customerIds`: cash and shares by the reads the
 * checks compare with (@ledger/reconciliation: `ledgerCash`, `ledgerShares`), cost from 2100.
 */
export async function ledgerHoldings(db: Db, customerIds: readonly string[]): Promise<Map<string, LedgerHoldings>> {
  const ids = [...customerIds];
  const [cash, shares, cost] = await Promise.all([
    ledgerCash(db, ids),
    ledgerShares(db, ids),
    db.raw<{ rows: Array<{ customer_id: string; symbol: string; cost: string }> }>(
      `SELECT t.customer_id, t.symbol, sum(l.credit - l.debit)::text AS cost
         FROM transactions t JOIN journal_lines l ON l.txn_id = t.txn_id AND l.account_code = ?
        WHERE t.symbol IS NOT NULL AND t.customer_id = ANY(?) GROUP BY 1, 2`,
      [ACCOUNT.securitiesLiabilityEquities, ids],
    ),
  ]);
  const holdings = new Map<string, { cash: Decimal; positions: Map<string, { quantity: Decimal; cost: Decimal }> }>(
    ids.map((id) => [id, { cash: cash.get(id)!, positions: new Map() }]),
  );
  const position = (customerId: string, symbol: string) => {
    const positions = holdings.get(customerId)!.positions;
    const held = positions.get(symbol) ?? { quantity: ZERO, cost: ZERO };
    positions.set(symbol, held);
    return held;
  };
  for (const [customerId, held] of shares)
    for (const [symbol, quantity] of held) position(customerId, symbol).quantity = quantity;
  for (const row of cost.rows) position(row.customer_id, row.symbol).cost = new Decimal(row.cost);
  return holdings;
}

/** Per broker-linked customer: counts and USD of the broker's wires, trades, dividends and fees as posted (source usbroker), and brokerage revenue (4010) and cost (5010) after recost. */
export async function usbrokerActivity(db: Db): Promise<UsbrokerActivityRow[]> {
  const flow = (txnType: string, name: string) =>
    `count(t.txn_id) FILTER (WHERE t.txn_type = '${txnType}')::int AS ${name}, coalesce(sum(t.amount_usd) FILTER (WHERE t.txn_type = '${txnType}'), 0)::text AS ${name}_usd`;
  const { rows } = await db.raw<{ rows: UsbrokerActivityRow[] }>(
    `WITH money AS (
       SELECT customer_id,
              coalesce(sum(credit - debit) FILTER (WHERE account_code = ?), 0) AS revenue,
              coalesce(sum(debit - credit) FILTER (WHERE account_code = ?), 0) AS cost
         FROM journal_lines WHERE account_code IN (?, ?) AND customer_id IS NOT NULL GROUP BY 1
     )
     SELECT c.customer_id, c.usbroker_account_no AS account_no,
            ${[
              'wire_in wires_in',
              'wire_out wires_out',
              'buy_security buys',
              'sell_security sells',
              'dividend dividends',
              'wht_tax withholdings',
              'broker_fee broker_fees',
            ]
              .map((pair) => flow(...(pair.split(' ') as [string, string])))
              .join(',\n            ')},
            coalesce(max(m.revenue), 0)::text AS brokerage_revenue_usd, coalesce(max(m.cost), 0)::text AS brokerage_cost_usd
       FROM customers c
       LEFT JOIN transactions t ON t.customer_id = c.customer_id AND t.source = 'usbroker'
       LEFT JOIN money m ON m.customer_id = c.customer_id
      WHERE c.usbroker_account_no IS NOT NULL
      GROUP BY 1, 2 ORDER BY 1`,
    [ACCOUNT.brokerageRevenue, ACCOUNT.brokerageCost, ACCOUNT.brokerageRevenue, ACCOUNT.brokerageCost],
  );
  return rows;
}

export interface UsbrokerActivityRow {
  customer_id: string;
  account_no: string;
  wires_in: number;
  wires_in_usd: string;
  wires_out: number;
  wires_out_usd: string;
  buys: number;
  buys_usd: string;
  sells: number;
  sells_usd: string;
  dividends: number;
  dividends_usd: string;
  withholdings: number;
  withholdings_usd: string;
  broker_fees: number;
  broker_fees_usd: string;
  brokerage_revenue_usd: string;
  brokerage_cost_usd: string;
}

export interface RemitCustomerRow {
  customer_id: string;
  remit_customer_id: string;
  orders: number;
  paid: number;
  paid_usd: string;
  paid_inr: string;
  tcs_inr: string;
}

export interface RemitPanRow {
  pan: string | null;
  customers: number;
  remittances: number;
  remitted_usd: string;
  remitted_inr: string;
  tcs_inr: string;
}

/** The remittances as sync-remit stored them: per status, per customer, per PAN over `fy` (paid ones), the FX-spread accounts, the newest. */
export async function remitActivity(db: Db, fy: { from: string; to: string }, recentMax: number) {
  const [statuses, customers, pans, spread, recent] = await Promise.all([
    db.raw<{ rows: Array<{ status: string; count: number; amount_inr: string; amount_usd: string }> }>(
      `SELECT status, count(*)::int AS count, sum(amount_inr)::text AS amount_inr, coalesce(sum(amount_usd), 0)::text AS amount_usd FROM remittances GROUP BY 1 ORDER BY 1`,
    ),
    db.raw<{ rows: RemitCustomerRow[] }>(
      `SELECT customer_id, min(remit_customer_id) AS remit_customer_id, count(*)::int AS orders, count(*) FILTER (WHERE ${paidRemittanceSql()})::int AS paid,
              coalesce(sum(amount_usd) FILTER (WHERE ${paidRemittanceSql()}), 0)::text AS paid_usd, coalesce(sum(amount_inr) FILTER (WHERE ${paidRemittanceSql()}), 0)::text AS paid_inr,
              coalesce(sum(tcs_inr) FILTER (WHERE ${paidRemittanceSql()}), 0)::text AS tcs_inr
         FROM remittances GROUP BY 1 ORDER BY 1`,
    ),
    db.raw<{ rows: RemitPanRow[] }>(
      `SELECT pan, count(DISTINCT customer_id)::int AS customers, count(*)::int AS remittances, coalesce(sum(amount_usd), 0)::text AS remitted_usd,
              sum(amount_inr)::text AS remitted_inr, coalesce(sum(tcs_inr), 0)::text AS tcs_inr
         FROM remittances WHERE ${paidRemittedBetweenSql(undefined, '?', '?')} GROUP BY 1 ORDER BY 1 NULLS FIRST`,
      [fy.from, fy.to],
    ),
    db.raw<{ rows: Array<{ revenue: string; receivable: string }> }>(
      `SELECT coalesce(sum(credit - debit) FILTER (WHERE account_code = ?), 0)::text AS revenue, coalesce(sum(debit - credit) FILTER (WHERE account_code = ?), 0)::text AS receivable
         FROM journal_lines WHERE account_code IN (?, ?) AND posting_kind IS DISTINCT FROM ?`,
      // The revenue earned, not the balance: a year's closing entry moves it to 3000 without unearning it.
      [
        ACCOUNT.fxSpreadRevenue,
        ACCOUNT.fxReceivable,
        ACCOUNT.fxSpreadRevenue,
        ACCOUNT.fxReceivable,
        YEAR_CLOSE_POSTING_KIND,
      ],
    ),
    db.raw<{
      rows: Array<{
        order_id: string;
        customer_id: string;
        status: string;
        amount_inr: string;
        amount_usd: string | null;
        remitted_on: string;
        created_at: Date;
      }>;
    }>(
      `SELECT order_id, customer_id, status, amount_inr::text, amount_usd::text, remitted_on, order_created_at AS created_at
         FROM remittances ORDER BY order_created_at DESC, order_id DESC LIMIT ?`,
      [recentMax],
    ),
  ]);
  return {
    statuses: statuses.rows,
    customers: customers.rows,
    pans: pans.rows,
    spread: spread.rows[0]!,
    recent: recent.rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
  };
}
