import type { UsbrokerActivityRow } from './ledger.js';
import { sum, cents } from './live.js';

const FLOWS = ['wires_in', 'wires_out', 'buys', 'sells', 'dividends', 'withholdings', 'broker_fees'] as const;
type Flow = (typeof FLOWS)[number];

const flowsOf = (rows: readonly UsbrokerActivityRow[]) =>
  Object.fromEntries(
    FLOWS.map((flow) => [
      flow,
      {
        count: rows.reduce((n, r) => n + r[flow], 0),
        usd: cents(sum(rows.map((r) => r[`${flow}_usd` as `${Flow}_usd`]))),
      },
    ]),
  ) as Record<Flow, { count: number; usd: string }>;

const earnings = (rows: readonly UsbrokerActivityRow[]) => {
  const revenue = sum(rows.map((r) => r.brokerage_revenue_usd));
  const cost = sum(rows.map((r) => r.brokerage_cost_usd));
  return {
    brokerage_revenue_usd: cents(revenue),
    brokerage_cost_usd: cents(cost),
    brokerage_margin_usd: cents(revenue.minus(cost)),
  };
};

/**
 * GET /v1/india/usbroker: the broker leg as the ledger posted it: funding wires, trades,
 * dividends, withholding and account fees (count and USD of the transactions of source
 * usbroker), brokerage revenue (4010) and cost (5010), per broker-linked customer and for the
 * firm, and the newest usbroker transactions.
 */
export function usbrokerOverview<R>(rows: readonly UsbrokerActivityRow[], recent: readonly R[]) {
  return {
    totals: { customers: rows.length, ...flowsOf(rows), ...earnings(rows) },
    customers: rows.map((r) => ({
      customer_id: r.customer_id,
      account_no: r.account_no,
      ...flowsOf([r]),
      ...earnings([r]),
    })),
    recent,
  };
}
