import { formatDecimal, ZERO } from '@ledger/core/posting';
import { BOTH_BOOKS, variance, type Check, type Variance } from '../check.js';
import {
  asOfDate,
  matchRemittancesToWires,
  TIE_OUT_STATUSES,
  type FundingWire,
  type RemittanceToWire,
  type TieOutStatus,
} from '../matchers/lrs-wires.js';
import { paidRemittancesToWire } from '../matchers/reads.js';
import { linkedCustomers, upstreamFailureReasonOf } from '../upstream.js';

/**
 * India: every paid remittance reached the customer's broker account. The LRS-to-broker matcher
 * (`matchRemittancesToWires`, the one `GET /v1/india/reconciliation` shows) over each linked
 * customer's paid remittances and the firm's funding wires in, read in one paged walk
 * (read-only). A remittance `aged_in_transit` (no wire carried it and its window,
 * RECON_TIE_OUT_DAY_WINDOW days after the later of its date and its settlement's, has passed) is
 * a variance `remitted_not_wired` naming it (its order id) and the wires in its window that
 * carried nothing (their transfer ids). A wire that carries nothing is not a variance by itself:
 * a customer may fund their account with wires of their own, which look the same. No linked
 * customer (the UAE book): `ok`. usbroker not configured or unreachable: `warn` naming why,
 * never `fail`.
 */
export const lrsUsbrokerTieOut: Check = {
  name: 'lrs_usbroker_tie_out',
  category: 'C',
  books: BOTH_BOOKS,
  run: async ({ db, upstreams, settings, now }) => {
    const start = await linkedCustomers(db, upstreams, 'usbroker');
    if (start.outcome) return start.outcome;
    const { linked, client } = start;
    const remittances = await paidRemittancesToWire(
      db,
      linked.map((c) => c.customer_id),
    );
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
    const wiresOf = groupBy<FundingWire & { account_no: string }>(wires, (w) => w.account_no);
    const remittancesOf = groupBy<RemittanceToWire>(remittances, (r) => r.customer_id);
    const counts = Object.fromEntries(TIE_OUT_STATUSES.map((s) => [s, 0])) as Record<TieOutStatus, number>;
    const variances: Variance[] = [];
    for (const { customer_id: customerId, account_no: accountNo } of linked) {
      const tied = matchRemittancesToWires(remittancesOf.get(customerId) ?? [], wiresOf.get(accountNo) ?? [], {
        windowDays: settings.tieOutDayWindow,
        asOf: asOfDate(now),
      });
      // As the report counts: the remittances per status, and the wires that carry none.
      for (const item of [...tied.remittances, ...tied.wires.filter((w) => w.status === 'unmatched_funding')])
        counts[item.status] += 1;
      for (const r of tied.remittances.filter((r) => r.status === 'aged_in_transit')) {
        variances.push(
          variance({
            source_txn_id: r.order_id,
            customer_id: customerId,
            expected: r.amount_usd,
            actual: formatDecimal(ZERO),
            difference: formatDecimal(ZERO.minus(r.amount_usd)),
            detail: {
              problem: 'remitted_not_wired',
              status: r.status,
              account_no: accountNo,
              remitted_on: r.remitted_on,
              settled_on: r.settled_on,
              window_ends_on: r.window_ends_on,
              day_window: settings.tieOutDayWindow,
              unmatched_wires: r.unmatched_wires,
            },
          }),
        );
      }
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

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group === undefined) groups.set(key(item), [item]);
    else group.push(item);
  }
  return groups;
}
