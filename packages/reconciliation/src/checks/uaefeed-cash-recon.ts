import { Decimal } from '@ledger/core/posting';
import { customersWalletBalances } from '@ledger/core/reports';
import type { UaefeedCashSummary } from '@ledger/upstream-clients';
import { BOTH_BOOKS, type Check } from '../check.js';
import {
  cashBalancesDiffer,
  compareEachRead,
  linkedCustomers,
  readPerCustomer,
  unreachableVariance,
} from '../upstream.js';

/** The summary's balance per currency, summed over the customer's cash accounts in it. */
function balanceByCurrency(summary: readonly UaefeedCashSummary[]): Map<string, Decimal> {
  const balances = new Map<string, Decimal>();
  for (const account of summary)
    balances.set(account.currency, (balances.get(account.currency) ?? new Decimal(0)).plus(account.balance));
  return balances;
}

/**
 * UAE: each uaefeed-linked customer's wallets, USD and AED, in their own currency (every line the
 * ledger holds as of the run, whatever its month), against the cash account summary uaefeed
 * answers now (read live, read-only, UPSTREAM_CONCURRENCY customers at a time; its `balance` per
 * currency). So a movement posted twice, or never, is found whenever it happened. No linked
 * customer (the India book): `ok`. uaefeed not configured or unreachable for a customer: `warn`
 * naming why, never `fail`. A currency off by more than RECON_MONEY_TOLERANCE_USD (in that
 * currency's units): `warn`, a `cash_balance_differs` variance naming the customer, the wallet
 * account, the currency and both figures.
 */
export const uaefeedCashRecon: Check = {
  name: 'uaefeed_cash_recon',
  category: 'C',
  books: BOTH_BOOKS,
  run: async ({ db, upstreams, settings }) => {
    const start = await linkedCustomers(db, upstreams, 'uaefeed');
    if (start.outcome) return start.outcome;
    const { linked, client } = start;
    const ledger = await customersWalletBalances(
      db,
      linked.map((c) => c.customer_id),
      settings.aedPerUsd,
    );
    const reads = await readPerCustomer(linked, (c) => client.getCashSummary(c.customer_number));
    return compareEachRead(reads, {
      unreachable: (c, error) =>
        unreachableVariance('uaefeed', c.customer_id, { customer_number: c.customer_number }, error),
      compare: (c, accounts) =>
        cashBalancesDiffer(
          c.customer_id,
          ledger.get(c.customer_id)!,
          balanceByCurrency(accounts),
          settings.moneyToleranceUsd,
          {
            customer_number: c.customer_number,
            cash_accounts: accounts.map((a) => a.accountNumber),
          },
        ),
      differ: 'cash_differs',
      max: settings.variancesPerCheckMax,
    });
  },
};
