import { Decimal } from '@ledger/core/posting';
import { shareMovesSql } from '@ledger/core/reports';
import { BOTH_BOOKS, outcomeOf, variance, type Check } from '../check.js';

/**
 * Each stored holdings snapshot (an upstream's positions of a customer at the end of a day,
 * holdings_snapshots) equals what the ledger's lots give for that customer, symbol and day: the
 * shares its trades and splits moved up to and including that day (as the customer views count them). A
 * snapshot states one account of one currency (the custodian's is AED): only the customer's trades
 * in that currency count against it. A symbol on one side only counts as zero on the other. Ledger movements are grouped by customer,
 * symbol and day once, then summed up to each snapshot's day.
 */
const DIFFERENCES_SQL = `
  WITH heads AS (SELECT customer_id, upstream, as_of, currency, positions FROM holdings_snapshots),
  snap AS (
    SELECT h.customer_id, h.upstream, h.as_of, p->>'symbol' AS symbol, sum((p->>'quantity')::numeric) AS quantity
      FROM heads h CROSS JOIN jsonb_array_elements(h.positions) AS p
     GROUP BY 1, 2, 3, 4
  ),
  moves AS (
    SELECT customer_id, currency, symbol, txn_date, sum(quantity) AS quantity
      FROM (${shareMovesSql((c) => `${c} IN (SELECT customer_id FROM heads)`)}) m
     GROUP BY 1, 2, 3, 4
  ),
  ledger AS (
    SELECT h.customer_id, h.upstream, h.as_of, m.symbol, sum(m.quantity) AS quantity
      FROM heads h JOIN moves m ON m.customer_id = h.customer_id AND m.currency = h.currency AND m.txn_date <= h.as_of
     GROUP BY 1, 2, 3, 4
  )
  SELECT customer_id, upstream, as_of::text AS as_of, symbol,
         coalesce(l.quantity, 0)::text AS ledger_quantity, coalesce(s.quantity, 0)::text AS snapshot_quantity
    FROM snap s FULL JOIN ledger l USING (customer_id, upstream, as_of, symbol)
   WHERE abs(coalesce(s.quantity, 0) - coalesce(l.quantity, 0)) > :tolerance
   ORDER BY as_of DESC, customer_id, upstream, symbol
   LIMIT :limit`;

const COUNT_SQL = 'SELECT count(*)::int AS n FROM holdings_snapshots';

/**
 * A snapshot that disagrees with the ledger is `warn`: the upstream or the ledger is wrong (a
 * missed or doubled trade, a stale snapshot) and someone must look; the books still balance.
 */
export const snapshotReconcile: Check = {
  name: 'snapshot_reconcile',
  category: 'B',
  books: BOTH_BOOKS,
  run: async ({ db, settings }) => {
    const { rows } = await db.raw<{
      rows: Array<{
        customer_id: string;
        upstream: string;
        as_of: string;
        symbol: string;
        ledger_quantity: string;
        snapshot_quantity: string;
      }>;
    }>(DIFFERENCES_SQL, { tolerance: settings.quantityTolerance.toFixed(), limit: settings.variancesPerCheckMax });
    const snapshots = (await db.raw<{ rows: Array<{ n: number }> }>(COUNT_SQL)).rows[0]?.n ?? 0;
    const variances = rows.map((r) =>
      variance({
        customer_id: r.customer_id,
        symbol: r.symbol,
        expected: new Decimal(r.ledger_quantity).toFixed(),
        actual: new Decimal(r.snapshot_quantity).toFixed(),
        difference: new Decimal(r.snapshot_quantity).minus(r.ledger_quantity).toFixed(),
        detail: { problem: 'snapshot_differs_from_ledger', upstream: r.upstream, as_of: r.as_of },
      }),
    );
    return outcomeOf(variances, { snapshots }, 'warn');
  },
};
