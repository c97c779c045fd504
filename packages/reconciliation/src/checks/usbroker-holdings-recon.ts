import { BOTH_BOOKS, variance, type Check, type Variance } from '../check.js';
import { ledgerShares } from '../matchers/reads.js';
import { brokerShares, matchShares } from '../matchers/shares.js';
import { linkedCustomers, readPerCustomer, unreachableVariance } from '../upstream.js';

/**
 * India: each broker-linked customer's share count per symbol in the ledger equals usbroker's
 * position, read live (read-only), UPSTREAM_CONCURRENCY customers at a time, by the holdings
 * matcher (`matchShares`, the one `GET /v1/india/holdings-recon` shows): a symbol not `match`
 * (off by more than RECON_QUANTITY_TOLERANCE) is a variance `shares_differ` carrying the
 * matcher's status. No linked customer (the UAE book): `ok`. usbroker not configured or
 * unreachable for a customer: `warn` naming why, never `fail`.
 */
export const usbrokerHoldingsRecon: Check = {
  name: 'usbroker_holdings_recon',
  category: 'C',
  books: BOTH_BOOKS,
  run: async ({ db, upstreams, settings }) => {
    const start = await linkedCustomers(db, upstreams, 'usbroker');
    if (start.outcome) return start.outcome;
    const { linked, client } = start;
    const ledger = await ledgerShares(
      db,
      linked.map((c) => c.customer_id),
    );
    const reads = await readPerCustomer(linked, (c) => client.listPositions(c.account_no));
    const variances: Variance[] = [];
    for (const read of reads) {
      const { customer_id: customerId, account_no: accountNo } = read.customer;
      if (read.error !== undefined) {
        variances.push(unreachableVariance('usbroker', customerId, { account_no: accountNo }, read.error));
        continue;
      }
      for (const row of matchShares(ledger.get(customerId)!, brokerShares(read.value), settings.quantityTolerance)) {
        if (row.status === 'match') continue;
        variances.push(
          variance({
            customer_id: customerId,
            symbol: row.symbol,
            expected: row.ledger_quantity,
            actual: row.usbroker_quantity,
            difference: row.difference,
            detail: { problem: 'shares_differ', status: row.status, account_no: accountNo },
          }),
        );
      }
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
