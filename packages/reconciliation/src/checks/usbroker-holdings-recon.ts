import { BOTH_BOOKS, variance, type Check } from '../check.js';
import { ledgerShares } from '../matchers/reads.js';
import { brokerShares, matchShares } from '../matchers/shares.js';
import { compareEachRead, linkedCustomers, readPerCustomer, unreachableVariance } from '../upstream.js';

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
    return compareEachRead(reads, {
      unreachable: (c, error) => unreachableVariance('usbroker', c.customer_id, { account_no: c.account_no }, error),
      compare: (c, positions) =>
        matchShares(ledger.get(c.customer_id)!, brokerShares(positions), settings.quantityTolerance)
          .filter((row) => row.status !== 'match')
          .map((row) =>
            variance({
              customer_id: c.customer_id,
              symbol: row.symbol,
              expected: row.ledger_quantity,
              actual: row.usbroker_quantity,
              difference: row.difference,
              detail: { problem: 'shares_differ', status: row.status, account_no: c.account_no },
            }),
          ),
      differ: 'shares_differ',
      max: settings.variancesPerCheckMax,
    });
  },
};
