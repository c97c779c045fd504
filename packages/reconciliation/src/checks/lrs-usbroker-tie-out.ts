import { Decimal, formatDecimal } from '@ledger/core';
import { BOTH_BOOKS, variance, type Check } from '../check.js';
import { upstreamFailureReasonOf } from '../upstream.js';

/** Each broker-linked customer with what remit has settled to the broker for them (USD): the LRS remittances. */
const REMITTED_SQL = `
  SELECT c.customer_id, c.usbroker_account_no AS account_no,
         coalesce(sum(coalesce(r.settlement_amount_usd, r.amount_usd)) FILTER (WHERE r.settled_at IS NOT NULL), 0)::text AS remitted,
         count(r.order_id) FILTER (WHERE r.settled_at IS NOT NULL)::int AS orders
    FROM customers c LEFT JOIN remittances r ON r.customer_id = c.customer_id
   WHERE c.usbroker_account_no IS NOT NULL
   GROUP BY c.customer_id, c.usbroker_account_no
   ORDER BY c.customer_id`;

/**
 * India: what remit settled to the broker for each customer (their settled remittances, USD) ties
 * out with the funding wires usbroker received into their account (`IN`, `completed`). A wire
 * names no remittance and may carry several (docs/upstreams/usbroker.md), so the tie-out is of
 * each customer's totals. The firm's wires are read in one paged walk (read-only). No linked
 * customer (the UAE book): `ok`. usbroker not configured or unreachable: `warn` naming why, never
 * `fail`. Totals that differ beyond RECON_MONEY_TOLERANCE_USD: `warn` (a settlement whose wire has
 * not landed yet shows here until it does).
 */
export const lrsUsbrokerTieOut: Check = {
  name: 'lrs_usbroker_tie_out',
  category: 'C',
  books: BOTH_BOOKS,
  run: async ({ db, upstreams, settings }) => {
    const linked = (await db.raw<{ rows: Array<{ customer_id: string; account_no: string; remitted: string; orders: number }> }>(REMITTED_SQL)).rows;
    if (linked.length === 0) return { status: 'ok', metrics: { customers: 0 }, variances: [] };
    const client = upstreams.usbroker;
    if (client === null) return { status: 'warn', metrics: { customers: linked.length, reason: 'usbroker is not configured on this book (USBROKER_BASE_URL unset)' }, variances: [] };
    let wires;
    try {
      wires = await client.listWires({ direction: 'IN' });
    } catch (error) {
      return { status: 'warn', metrics: { customers: linked.length, reason: `usbroker's funding wires could not be read: ${upstreamFailureReasonOf(error)}` }, variances: [] };
    }
    const received = new Map<string, { amount: Decimal; wires: number }>();
    for (const wire of wires) {
      if (wire.direction !== 'IN' || wire.status !== 'completed') continue;
      const sum = received.get(wire.account_no) ?? { amount: new Decimal(0), wires: 0 };
      received.set(wire.account_no, { amount: sum.amount.plus(wire.amount), wires: sum.wires + 1 });
    }
    const variances = linked.flatMap((c) => {
      const wired = received.get(c.account_no) ?? { amount: new Decimal(0), wires: 0 };
      const difference = wired.amount.minus(c.remitted);
      if (!difference.abs().isGreaterThan(settings.moneyToleranceUsd)) return [];
      return [
        variance({
          customer_id: c.customer_id,
          expected: formatDecimal(new Decimal(c.remitted)),
          actual: formatDecimal(wired.amount),
          difference: formatDecimal(difference),
          detail: { problem: 'remitted_differs_from_wired', account_no: c.account_no, settled_remittances: c.orders, completed_wires: wired.wires },
        }),
      ];
    });
    return {
      status: variances.length === 0 ? 'ok' : 'warn',
      metrics: { customers: linked.length, wires_read: wires.length, variances: variances.length },
      variances: variances.slice(0, settings.variancesPerCheckMax),
    };
  },
};
