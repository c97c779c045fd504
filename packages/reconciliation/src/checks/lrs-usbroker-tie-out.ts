import { formatDecimal, ZERO } from '@ledger/core';
import { BOTH_BOOKS, variance, type Check, type Variance } from '../check.js';
import {
  matchRemittancesToWires,
  TIE_OUT_STATUSES,
  type FundingWire,
  type RemittanceToWire,
} from '../matchers/lrs-wires.js';
import { USBROKER_LINKED_SQL, linkedCustomers, upstreamFailureReasonOf } from '../upstream.js';

/**
 * The paid remittances of the broker-linked customers, as the tie-out takes them (one read, the
 * same as `/v1/india/reconciliation`'s): the order's USD and its LRS date.
 */
export const PAID_REMITTANCES_SQL = `
  SELECT order_id, customer_id, amount_usd::text AS amount_usd, remitted_on::text AS remitted_on
    FROM remittances
   WHERE status = 'paid' AND amount_usd IS NOT NULL AND customer_id = ANY(?)
   ORDER BY customer_id, remitted_on, order_id`;

/**
 * India: every paid remittance reached the customer's broker account, and every funding wire
 * into it carried remittances: the LRS-to-broker matcher (`matchRemittancesToWires`, the one
 * `/v1/india/reconciliation` shows) over each linked customer's paid remittances and the firm's
 * wires in, read in one paged walk (read-only). A remittance `aged_in_transit` and a wire
 * `unmatched_funding` are each a variance naming it (order id, transfer id). No linked customer
 * (the UAE book): `ok`. usbroker not configured or unreachable: `warn` naming why, never `fail`.
 */
export const lrsUsbrokerTieOut: Check = {
  name: 'lrs_usbroker_tie_out',
  category: 'C',
  books: BOTH_BOOKS,
  run: async ({ db, upstreams, settings, now }) => {
    const start = await linkedCustomers<
      { customer_id: string; account_no: string },
      NonNullable<typeof upstreams.usbroker>
    >(db, { sql: USBROKER_LINKED_SQL }, upstreams.usbroker, { name: 'usbroker', setting: 'USBROKER_BASE_URL' });
    if (start.outcome) return start.outcome;
    const { linked, client } = start;
    const remittances = (
      await db.raw<{ rows: RemittanceToWire[] }>(PAID_REMITTANCES_SQL, [linked.map((c) => c.customer_id)])
    ).rows;
    let wires;
    try {
      wires = await client.listWires({ direction: 'IN' });
    } catch (error) {
      return {
        status: 'warn',
        metrics: {
          customers: linked.length,
          reason: `usbroker's funding wires could not be read: ${upstreamFailureReasonOf(error)}`,
        },
        variances: [],
      };
    }
    const wiresOf = new Map<string, FundingWire[]>();
    for (const wire of wires) wiresOf.set(wire.account_no, [...(wiresOf.get(wire.account_no) ?? []), wire]);
    const remittancesOf = new Map<string, RemittanceToWire[]>();
    for (const r of remittances) remittancesOf.set(r.customer_id, [...(remittancesOf.get(r.customer_id) ?? []), r]);
    const today = now.toISOString().slice(0, 10);
    const counts = Object.fromEntries(TIE_OUT_STATUSES.map((s) => [s, 0])) as Record<string, number>;
    const variances: Variance[] = [];
    for (const { customer_id: customerId, account_no: accountNo } of linked) {
      const tied = matchRemittancesToWires(remittancesOf.get(customerId) ?? [], wiresOf.get(accountNo) ?? [], {
        windowDays: settings.tieOutDayWindow,
        today,
      });
      // As the report counts: remittances per status, and the wires that carry none.
      for (const item of [...tied.remittances, ...tied.wires.filter((w) => w.status !== 'matched')])
        counts[item.status]! += 1;
      for (const r of tied.remittances.filter((r) => r.status === 'aged_in_transit'))
        variances.push(
          variance({
            source_txn_id: r.order_id,
            customer_id: customerId,
            expected: r.amount_usd,
            actual: formatDecimal(ZERO),
            difference: formatDecimal(ZERO.minus(r.amount_usd)),
            detail: {
              problem: r.status,
              account_no: accountNo,
              remitted_on: r.remitted_on,
              days: r.days,
              day_window: settings.tieOutDayWindow,
            },
          }),
        );
      for (const w of tied.wires.filter((w) => w.status === 'unmatched_funding'))
        variances.push(
          variance({
            source_txn_id: w.transfer_id,
            customer_id: customerId,
            expected: formatDecimal(ZERO),
            actual: w.amount_usd,
            difference: w.amount_usd,
            detail: {
              problem: w.status,
              account_no: accountNo,
              transfer_id: w.transfer_id,
              value_date: w.value_date,
              day_window: settings.tieOutDayWindow,
            },
          }),
        );
    }
    return {
      status: variances.length === 0 ? 'ok' : 'warn',
      metrics: {
        customers: linked.length,
        remittances: remittances.length,
        wires_read: wires.length,
        ...counts,
        variances: variances.length,
      },
      variances: variances.slice(0, settings.variancesPerCheckMax),
    };
  },
};
