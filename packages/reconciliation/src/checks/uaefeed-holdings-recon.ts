import { Decimal, previousMonth } from '@ledger/core/posting';
import { sharesMovedSql } from '@ledger/core/reports';
import type { UaefeedHoldingsStatement } from '@ledger/upstream-clients';
import { BOTH_BOOKS, type Check } from '../check.js';
import { compareEachRead, linkedCustomers, readPerCustomer, sharesDiffer, unreachableVariance } from '../upstream.js';

/** The shares the ledger's trades leave each uaefeed-linked customer holding per symbol at the end of `month`. */
const LEDGER_SHARES_SQL = `
  SELECT t.customer_id, t.symbol, sum(${sharesMovedSql({ txnType: 't.txn_type', quantity: 't.quantity', reversedType: 'o.txn_type' })})::text AS quantity
    FROM transactions t LEFT JOIN transactions o ON o.txn_id = t.reverses_txn_id
   WHERE t.symbol IS NOT NULL AND t.txn_date < to_date(:month, 'YYYY-MM') + interval '1 month'
     AND t.customer_id IN (SELECT customer_id FROM customers WHERE uaefeed_customer_number IS NOT NULL)
   GROUP BY 1, 2`;

/** The statement's holdings at the end of its month, per symbol, over every account and exchange. */
function heldBySymbol(statement: UaefeedHoldingsStatement): Map<string, Decimal> {
  const held = new Map<string, Decimal>();
  for (const account of statement.list) {
    for (const exchange of account.list) {
      for (const symbol of exchange.list)
        held.set(symbol.symbol, (held.get(symbol.symbol) ?? new Decimal(0)).plus(symbol.totalHolding));
    }
  }
  return held;
}

/**
 * UAE: for the last closed month (UTC), each uaefeed-linked customer's holdings statement (the
 * positions at the month's end, read live, read-only, UPSTREAM_CONCURRENCY customers at a time)
 * equals the shares the ledger's trades leave them per symbol at that day (as the customer views
 * count them); a symbol on one side only counts as zero on the other. No linked customer (the
 * India book): `ok`. uaefeed not configured or unreachable for a customer: `warn` naming why,
 * never `fail`. A count off by more than RECON_QUANTITY_TOLERANCE: `warn`.
 */
export const uaefeedHoldingsRecon: Check = {
  name: 'uaefeed_holdings_recon',
  category: 'C',
  books: BOTH_BOOKS,
  run: async ({ db, upstreams, settings, now }) => {
    const start = await linkedCustomers(db, upstreams, 'uaefeed');
    if (start.outcome) return start.outcome;
    const { linked, client } = start;
    const month = previousMonth(now);
    const ledger = new Map<string, Map<string, Decimal>>();
    for (const row of (
      await db.raw<{ rows: Array<{ customer_id: string; symbol: string; quantity: string | null }> }>(
        LEDGER_SHARES_SQL,
        { month },
      )
    ).rows) {
      const held = ledger.get(row.customer_id) ?? new Map<string, Decimal>();
      held.set(row.symbol, new Decimal(row.quantity ?? 0));
      ledger.set(row.customer_id, held);
    }
    const [year, monthNumber] = month.split('-').map(Number) as [number, number];
    const reads = await readPerCustomer(linked, (c) =>
      client.getHoldingsStatement({ customerNumber: c.customer_number, year, month: monthNumber }),
    );
    return compareEachRead(reads, {
      unreachable: (c, error) =>
        unreachableVariance('uaefeed', c.customer_id, { customer_number: c.customer_number, month }, error),
      compare: (c, holdings) =>
        sharesDiffer(
          c.customer_id,
          ledger.get(c.customer_id) ?? new Map<string, Decimal>(),
          heldBySymbol(holdings.statement),
          settings.quantityTolerance,
          { customer_number: c.customer_number, month },
        ),
      differ: 'shares_differ',
      metrics: { month },
      max: settings.variancesPerCheckMax,
    });
  },
};
