import type { RemitCustomerRow, RemitPanRow } from './ledger.js';
import { sum, cents } from './live.js';

interface RemitActivity {
  statuses: ReadonlyArray<{ status: string; count: number; amount_inr: string; amount_usd: string }>;
  customers: readonly RemitCustomerRow[];
  pans: readonly RemitPanRow[];
  spread: { revenue: string; receivable: string };
  recent: ReadonlyArray<{
    order_id: string;
    customer_id: string;
    status: string;
    amount_inr: string;
    amount_usd: string | null;
    remitted_on: string;
    created_at: string;
  }>;
}

/**
 * GET /v1/india/remit: the remittance leg as sync-remit stored it: orders per status, paid
 * remittances (USD, INR, TCS collected), FX-spread revenue (4030) and what remit still owes of
 * it (1300), all time; per customer, all time; the paid ones of the financial year `fy` in total
 * and per PAN; and the newest remittances.
 */
export function remitOverview(activity: RemitActivity, fy: string) {
  const paid = activity.customers;
  return {
    fy,
    // `totals` are every remittance stored, whatever its year: these are the paid ones of `fy` alone
    // (the PAN rows' sums), so a reader never takes the all-time figures for the year's.
    fy_totals: {
      paid: activity.pans.reduce((n, p) => n + p.remittances, 0),
      paid_usd: cents(sum(activity.pans.map((p) => p.remitted_usd))),
      paid_inr: cents(sum(activity.pans.map((p) => p.remitted_inr))),
      tcs_inr: cents(sum(activity.pans.map((p) => p.tcs_inr))),
    },
    totals: {
      orders: activity.statuses.reduce((n, s) => n + s.count, 0),
      paid: paid.reduce((n, c) => n + c.paid, 0),
      paid_usd: cents(sum(paid.map((c) => c.paid_usd))),
      paid_inr: cents(sum(paid.map((c) => c.paid_inr))),
      tcs_inr: cents(sum(paid.map((c) => c.tcs_inr))),
      fx_spread_revenue_usd: cents(activity.spread.revenue),
      fx_receivable_usd: cents(activity.spread.receivable),
    },
    by_status: activity.statuses.map((s) => ({
      status: s.status,
      count: s.count,
      amount_inr: cents(s.amount_inr),
      amount_usd: cents(s.amount_usd),
    })),
    customers: activity.customers.map((c) => ({
      ...c,
      paid_usd: cents(c.paid_usd),
      paid_inr: cents(c.paid_inr),
      tcs_inr: cents(c.tcs_inr),
    })),
    pans: activity.pans.map((p) => ({
      ...p,
      remitted_usd: cents(p.remitted_usd),
      remitted_inr: cents(p.remitted_inr),
      tcs_inr: cents(p.tcs_inr),
    })),
    recent: activity.recent.map((r) => ({
      ...r,
      amount_inr: cents(r.amount_inr),
      amount_usd: r.amount_usd === null ? null : cents(r.amount_usd),
    })),
  };
}
