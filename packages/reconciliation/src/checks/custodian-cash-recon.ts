import { Decimal } from '@ledger/core/posting';
import { customersWalletBalances } from '@ledger/core/reports';
import { BOTH_BOOKS, type Check } from '../check.js';
import {
  cashBalancesDiffer,
  compareEachRead,
  linkedCustomers,
  readPerCustomer,
  unreachableVariance,
} from '../upstream.js';

/**
 * UAE: each custodian-linked customer's AED wallet in AED (every line the ledger holds up to the
 * run's day, whatever its month) against the cash the custodian holds for them at the end of that
 * day (`GET /holdings?as_of`, `cash.balance`; read live, read-only, UPSTREAM_CONCURRENCY customers
 * at a time). The custodian keeps AED only: the USD wallet is uaefeed_cash_recon's. So an AED
 * movement posted twice, or never, is found whenever it happened (custodian_ledger_recon looks at
 * the last closed month alone). No linked customer (the India book): `ok`. The custodian not
 * configured or unreachable for a customer: `warn` naming why, never `fail`. Off by more than
 * RECON_MONEY_TOLERANCE_USD (in AED): `warn`, a `cash_balance_differs` variance naming the
 * customer, the wallet account, the currency and both figures.
 */
export const custodianCashRecon: Check = {
  name: 'custodian_cash_recon',
  category: 'C',
  books: BOTH_BOOKS,
  run: async ({ db, upstreams, settings, now }) => {
    const start = await linkedCustomers(db, upstreams, 'custodian');
    if (start.outcome) return start.outcome;
    const { linked, client } = start;
    const asOf = now.toISOString().slice(0, 10);
    const ledger = await customersWalletBalances(
      db,
      linked.map((c) => c.customer_id),
      settings.aedPerUsd,
      asOf,
    );
    const reads = await readPerCustomer(linked, (c) => client.getHoldings({ account: c.account, asOf }));
    return compareEachRead(reads, {
      unreachable: (c, error) =>
        unreachableVariance('custodian', c.customer_id, { account: c.account, as_of: asOf }, error),
      compare: (c, holdings) =>
        cashBalancesDiffer(
          c.customer_id,
          ledger.get(c.customer_id)!.filter((w) => w.currency === 'AED'),
          new Map([[holdings.currency, new Decimal(holdings.cash.balance)]]),
          settings.moneyToleranceUsd,
          { account: c.account, as_of: asOf },
        ),
      differ: 'cash_differs',
      metrics: { as_of: asOf },
      max: settings.variancesPerCheckMax,
    });
  },
};
