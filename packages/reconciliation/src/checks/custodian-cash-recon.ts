import { Decimal } from '@ledger/core/posting';
import { customersWalletBalances } from '@ledger/core/reports';
import { BOTH_BOOKS, type Check, type Variance } from '../check.js';
import { cashBalancesDiffer, linkedCustomers, readPerCustomer, unreachableVariance } from '../upstream.js';

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
    const variances: Variance[] = [];
    for (const read of reads) {
      const { customer_id: customerId, account } = read.customer;
      if (read.error !== undefined) {
        variances.push(unreachableVariance('custodian', customerId, { account, as_of: asOf }, read.error));
        continue;
      }
      const aed = ledger.get(customerId)!.filter((w) => w.currency === 'AED');
      const held = new Map([[read.value.currency, new Decimal(read.value.cash.balance)]]);
      variances.push(
        ...cashBalancesDiffer(customerId, aed, held, settings.moneyToleranceUsd, { account, as_of: asOf }),
      );
    }
    const unreachable = reads.filter((r) => r.error !== undefined).length;
    return {
      status: variances.length === 0 ? 'ok' : 'warn',
      metrics: {
        customers: linked.length,
        as_of: asOf,
        unreachable,
        cash_differs: variances.length - unreachable,
        variances: variances.length,
      },
      variances: variances.slice(0, settings.variancesPerCheckMax),
    };
  },
};
