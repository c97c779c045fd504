import { ACCOUNT, Decimal, formatDecimal } from '@ledger/core/posting';
import { BOTH_BOOKS, variance, type Check } from '../check.js';
import { matchCash } from '../matchers/cash.js';
import { ledgerCash } from '../matchers/reads.js';
import { compareEachRead, linkedCustomers, readPerCustomer } from '../upstream.js';

/**
 * India: each broker-linked customer's ledger cash (wallet 2010) equals the cash usbroker holds
 * for their account, read live (read-only), UPSTREAM_CONCURRENCY customers at a time, by the cash
 * matcher (`matchCash`, the one `GET /v1/india/ledger-recon` shows). No linked customer (the UAE
 * book): `ok`. usbroker not configured, or unreachable for a customer: `warn` naming why (spec,
 * Errors), never `fail`. Cash `mismatch` (beyond RECON_MONEY_TOLERANCE_USD): `warn`, a variance
 * `cash_differs` with the ledger's figure expected and the broker's actual.
 */
export const usbrokerLedgerRecon: Check = {
  name: 'usbroker_ledger_recon',
  category: 'C',
  books: BOTH_BOOKS,
  run: async ({ db, upstreams, settings }) => {
    const start = await linkedCustomers(db, upstreams, 'usbroker');
    if (start.outcome) return start.outcome;
    const { linked, client } = start;
    const cashOf = await ledgerCash(
      db,
      linked.map((c) => c.customer_id),
    );
    const reads = await readPerCustomer(linked, (c) => client.getBalance(c.account_no));
    return compareEachRead(reads, {
      unreachable: (c, error) =>
        variance({
          customer_id: c.customer_id,
          account_code: ACCOUNT.customerWalletUsd,
          detail: { problem: 'usbroker_unreachable', account_no: c.account_no, error },
        }),
      compare: (c, balance) => {
        const cash = cashOf.get(c.customer_id)!;
        const matched = matchCash(cash, balance.cash, settings.moneyToleranceUsd);
        if (matched.status === 'match') return [];
        return [
          variance({
            customer_id: c.customer_id,
            account_code: ACCOUNT.customerWalletUsd,
            expected: formatDecimal(cash),
            actual: formatDecimal(new Decimal(balance.cash)),
            difference: matched.difference,
            detail: {
              problem: 'cash_differs',
              status: matched.status,
              account_no: c.account_no,
              broker_as_of: balance.as_of,
            },
          }),
        ];
      },
      differ: 'cash_differs',
      max: settings.variancesPerCheckMax,
    });
  },
};
