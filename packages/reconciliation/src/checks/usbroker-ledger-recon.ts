import { ACCOUNT, Decimal, formatDecimal } from '@ledger/core';
import { BOTH_BOOKS, variance, type Check, type Variance } from '../check.js';
import { linkedCustomers, readPerCustomer } from '../upstream.js';

/** The book's customers linked to a broker account, each with their ledger cash (what 2010 owes them). */
const LEDGER_CASH_SQL = `
  SELECT c.customer_id, c.usbroker_account_no AS account_no, coalesce(sum(l.credit - l.debit), 0)::text AS cash
    FROM customers c LEFT JOIN journal_lines l ON l.customer_id = c.customer_id AND l.account_code = ?
   WHERE c.usbroker_account_no IS NOT NULL
   GROUP BY c.customer_id, c.usbroker_account_no
   ORDER BY c.customer_id`;

/**
 * India: each broker-linked customer's ledger cash (wallet 2010) equals the cash usbroker holds
 * for their account, read live (read-only), UPSTREAM_CONCURRENCY customers at a time. No linked
 * customer (the UAE book): `ok`. usbroker not configured, or unreachable for a customer: `warn`
 * naming why (spec, Errors), never `fail`. Cash that differs beyond RECON_MONEY_TOLERANCE_USD:
 * `warn`, the ledger's figure expected and the broker's actual.
 */
export const usbrokerLedgerRecon: Check = {
  name: 'usbroker_ledger_recon',
  category: 'C',
  books: BOTH_BOOKS,
  run: async ({ db, upstreams, settings }) => {
    const start = await linkedCustomers<
      { customer_id: string; account_no: string; cash: string },
      NonNullable<typeof upstreams.usbroker>
    >(db, { sql: LEDGER_CASH_SQL, bindings: [ACCOUNT.customerWalletUsd] }, upstreams.usbroker, {
      name: 'usbroker',
      setting: 'USBROKER_BASE_URL',
    });
    if (start.outcome) return start.outcome;
    const { linked, client } = start;
    const reads = await readPerCustomer(linked, (c) => client.getBalance(c.account_no));
    const variances: Variance[] = [];
    for (const read of reads) {
      const { customer_id: customerId, account_no: accountNo, cash } = read.customer;
      if (read.error !== undefined) {
        variances.push(
          variance({
            customer_id: customerId,
            account_code: ACCOUNT.customerWalletUsd,
            detail: { problem: 'usbroker_unreachable', account_no: accountNo, error: read.error },
          }),
        );
        continue;
      }
      const difference = new Decimal(read.value.cash).minus(cash);
      if (difference.abs().isGreaterThan(settings.moneyToleranceUsd)) {
        variances.push(
          variance({
            customer_id: customerId,
            account_code: ACCOUNT.customerWalletUsd,
            expected: formatDecimal(new Decimal(cash)),
            actual: formatDecimal(new Decimal(read.value.cash)),
            difference: formatDecimal(difference),
            detail: { problem: 'cash_differs', account_no: accountNo, broker_as_of: read.value.as_of },
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
        cash_differs: variances.length - unreachable,
        variances: variances.length,
      },
      variances: variances.slice(0, settings.variancesPerCheckMax),
    };
  },
};
