import { Decimal, shareMovesSql } from '@ledger/core';
import { BOTH_BOOKS, variance, type Check, type Variance } from '../check.js';
import { USBROKER_LINKED_SQL, linkedCustomers, readPerCustomer, sharesDiffer } from '../upstream.js';

/** The shares the ledger's trades and splits leave each linked customer holding, per symbol (as the customer views count them). */
const LEDGER_SHARES_SQL = `
  SELECT customer_id, symbol, sum(quantity)::text AS quantity
    FROM (${shareMovesSql((c) => `${c} IN (SELECT customer_id FROM customers WHERE usbroker_account_no IS NOT NULL)`)}) m
   GROUP BY 1, 2`;

/**
 * India: each broker-linked customer's share count per symbol in the ledger equals usbroker's
 * position, read live (read-only), UPSTREAM_CONCURRENCY customers at a time; a symbol on one side
 * only counts as zero on the other. No linked customer (the UAE book): `ok`. usbroker not
 * configured or unreachable for a customer: `warn` naming why, never `fail`. A count off by more
 * than RECON_QUANTITY_TOLERANCE: `warn`.
 */
export const usbrokerHoldingsRecon: Check = {
  name: 'usbroker_holdings_recon',
  category: 'C',
  books: BOTH_BOOKS,
  run: async ({ db, upstreams, settings }) => {
    const start = await linkedCustomers<
      { customer_id: string; account_no: string },
      NonNullable<typeof upstreams.usbroker>
    >(db, { sql: USBROKER_LINKED_SQL }, upstreams.usbroker, { name: 'usbroker', setting: 'USBROKER_BASE_URL' });
    if (start.outcome) return start.outcome;
    const { linked, client } = start;
    const ledger = new Map<string, Map<string, Decimal>>();
    for (const row of (
      await db.raw<{ rows: Array<{ customer_id: string; symbol: string; quantity: string | null }> }>(LEDGER_SHARES_SQL)
    ).rows) {
      const held = ledger.get(row.customer_id) ?? new Map<string, Decimal>();
      held.set(row.symbol, new Decimal(row.quantity ?? 0));
      ledger.set(row.customer_id, held);
    }
    const reads = await readPerCustomer(linked, (c) => client.listPositions(c.account_no));
    const variances: Variance[] = [];
    for (const read of reads) {
      const { customer_id: customerId, account_no: accountNo } = read.customer;
      if (read.error !== undefined) {
        variances.push(
          variance({
            customer_id: customerId,
            detail: { problem: 'usbroker_unreachable', account_no: accountNo, error: read.error },
          }),
        );
        continue;
      }
      const held = ledger.get(customerId) ?? new Map<string, Decimal>();
      const broker = new Map<string, Decimal>();
      for (const position of read.value)
        broker.set(position.symbol, (broker.get(position.symbol) ?? new Decimal(0)).plus(position.qty));
      variances.push(...sharesDiffer(customerId, held, broker, settings.quantityTolerance, { account_no: accountNo }));
    }
    const unreachable = reads.filter((r) => r.error !== undefined).length;
    return {
      status: variances.length === 0 ? 'ok' : 'warn',
      metrics: {
        customers: linked.length,
        unreachable,
        shares_differ: variances.length - unreachable,
        variances: variances.length,
      },
      variances: variances.slice(0, settings.variancesPerCheckMax),
    };
  },
};
