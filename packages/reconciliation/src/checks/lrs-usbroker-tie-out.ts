import { Decimal, formatDecimal } from '@ledger/core';
import { BOTH_BOOKS, variance, type Check } from '../check.js';
import { USBROKER_LINKED_SQL, linkedCustomers, upstreamFailureReasonOf } from '../upstream.js';

/** What remit settled to the broker for each broker-linked customer, per day of settlement (UTC): the LRS remittances. */
const REMITTED_SQL = `
  SELECT c.customer_id, (r.settled_at AT TIME ZONE 'UTC')::date::text AS day,
         sum(coalesce(r.settlement_amount_usd, r.amount_usd))::text AS remitted, count(*)::int AS orders
    FROM customers c JOIN remittances r ON r.customer_id = c.customer_id
   WHERE c.usbroker_account_no IS NOT NULL AND r.settled_at IS NOT NULL
   GROUP BY 1, 2
   ORDER BY 1, 2`;

/** `YYYY-MM-DD` plus `days`. */
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * India: every remittance remit settled to the broker arrived there. A wire names no remittance
 * and may carry several, and a customer may also fund by a wire of their own
 * (docs/upstreams/usbroker.md), so the tie-out is per customer and day window: the remittances
 * settled on a day (UTC) are covered by the funding wires usbroker completed into their account
 * (`IN`, `completed`) valued that day or up to RECON_TIE_OUT_DAY_WINDOW days later (a wire lags
 * its settlement: a Friday's arrives on Monday), each wire's amount used once, days and wires
 * earliest first. More wired than remitted is the customer's own funding, not a variance. The
 * firm's wires are read in one paged walk (read-only). No linked customer (the UAE book): `ok`.
 * usbroker not configured or unreachable: `warn` naming why, never `fail`. A day remitted beyond
 * what its window wired (RECON_MONEY_TOLERANCE_USD): `warn`.
 */
export const lrsUsbrokerTieOut: Check = {
  name: 'lrs_usbroker_tie_out',
  category: 'C',
  books: BOTH_BOOKS,
  run: async ({ db, upstreams, settings }) => {
    const start = await linkedCustomers<
      { customer_id: string; account_no: string },
      NonNullable<typeof upstreams.usbroker>
    >(db, { sql: USBROKER_LINKED_SQL }, upstreams.usbroker, { name: 'usbroker', setting: 'USBROKER_BASE_URL' });
    if (start.outcome) return start.outcome;
    const { linked, client } = start;
    const remitted = (
      await db.raw<{ rows: Array<{ customer_id: string; day: string; remitted: string; orders: number }> }>(
        REMITTED_SQL,
      )
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
    const accountOf = new Map(linked.map((c) => [c.customer_id, c.account_no]));
    // Each account's completed wires in, earliest first, with what is left of each to cover remittances.
    const unused = new Map<string, Array<{ day: string; left: Decimal }>>();
    for (const wire of [...wires].sort(
      (a, b) => a.value_date.localeCompare(b.value_date) || a.transfer_id.localeCompare(b.transfer_id),
    )) {
      if (wire.direction !== 'IN' || wire.status !== 'completed') continue;
      unused.set(wire.account_no, [
        ...(unused.get(wire.account_no) ?? []),
        { day: wire.value_date, left: new Decimal(wire.amount) },
      ]);
    }
    // REMITTED_SQL is ordered by customer and day: each day takes the earliest wires of its window.
    const variances = remitted.flatMap((r) => {
      const accountNo = accountOf.get(r.customer_id)!;
      const last = addDays(r.day, settings.tieOutDayWindow);
      const received = { amount: new Decimal(0), wires: 0 };
      for (const wire of unused.get(accountNo) ?? []) {
        const need = new Decimal(r.remitted).minus(received.amount);
        if (wire.day < r.day || wire.day > last || wire.left.isZero() || !need.isGreaterThan(0)) continue;
        const used = Decimal.min(need, wire.left);
        wire.left = wire.left.minus(used);
        received.amount = received.amount.plus(used);
        received.wires += 1;
      }
      const short = new Decimal(r.remitted).minus(received.amount);
      if (!short.isGreaterThan(settings.moneyToleranceUsd)) return [];
      return [
        variance({
          customer_id: r.customer_id,
          expected: formatDecimal(new Decimal(r.remitted)),
          actual: formatDecimal(received.amount),
          difference: formatDecimal(short.negated()),
          detail: {
            problem: 'remitted_not_wired',
            account_no: accountNo,
            day: r.day,
            day_window: settings.tieOutDayWindow,
            settled_remittances: r.orders,
            completed_wires: received.wires,
          },
        }),
      ];
    });
    return {
      status: variances.length === 0 ? 'ok' : 'warn',
      metrics: {
        customers: linked.length,
        remittance_days: remitted.length,
        wires_read: wires.length,
        variances: variances.length,
      },
      variances: variances.slice(0, settings.variancesPerCheckMax),
    };
  },
};
