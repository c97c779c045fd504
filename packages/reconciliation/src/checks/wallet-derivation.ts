import { ACCOUNT, Decimal, formatDecimal } from '@ledger/core';
import { BOTH_BOOKS, outcomeOf, variance, type Check, type Variance } from '../check.js';

const WALLETS = [ACCOUNT.customerWalletUsd, ACCOUNT.customerWalletAed];

/**
 * Customers' wallets add up to the wallet accounts: each wallet account's maintained total
 * (account_totals, what the firm reports and the trial balance read) equals the sum over its
 * customers of their journal lines; every wallet line names a customer, the one its transaction
 * names. One pass over the wallets' lines.
 */
const TOTALS_SQL = `
  WITH lines AS (
    SELECT account_code, sum(debit - credit) AS net, count(*) FILTER (WHERE customer_id IS NULL) AS without_customer, count(DISTINCT customer_id) AS customers
      FROM journal_lines WHERE account_code = ANY(:wallets::text[]) GROUP BY account_code
  ), kept AS (
    SELECT account_code, sum(debit_total - credit_total) AS net FROM account_totals WHERE account_code = ANY(:wallets::text[]) GROUP BY account_code
  )
  SELECT a.account_code, coalesce(l.net, 0)::text AS lines_net, coalesce(k.net, 0)::text AS kept_net, coalesce(l.customers, 0)::int AS customers
    FROM unnest(:wallets::text[]) AS a(account_code)
    LEFT JOIN lines l USING (account_code) LEFT JOIN kept k USING (account_code)
   ORDER BY a.account_code`;

const STRAY_LINES_SQL = `
  SELECT l.txn_id::text AS txn_id, t.source_txn_id, l.account_code, l.customer_id AS line_customer, t.customer_id AS txn_customer, (l.debit - l.credit)::text AS net
    FROM journal_lines l JOIN transactions t ON t.txn_id = l.txn_id
   WHERE l.account_code = ANY(:wallets::text[]) AND (l.customer_id IS NULL OR l.customer_id IS DISTINCT FROM t.customer_id)
   ORDER BY l.line_id
   LIMIT :limit`;

export const walletDerivation: Check = {
  name: 'wallet_derivation',
  category: 'B',
  books: BOTH_BOOKS,
  run: async ({ db, settings }) => {
    const totals = (await db.raw<{ rows: Array<{ account_code: string; lines_net: string; kept_net: string; customers: number }> }>(TOTALS_SQL, { wallets: WALLETS })).rows;
    const drifted: Variance[] = totals
      .filter((t) => new Decimal(t.kept_net).minus(t.lines_net).abs().isGreaterThan(settings.moneyToleranceUsd))
      .map((t) =>
        variance({
          account_code: t.account_code,
          expected: formatDecimal(new Decimal(t.lines_net)),
          actual: formatDecimal(new Decimal(t.kept_net)),
          difference: formatDecimal(new Decimal(t.kept_net).minus(t.lines_net)),
          detail: { problem: 'wallet_total_differs_from_customers_lines', customers: t.customers },
        }),
      );
    const stray = (
      await db.raw<{ rows: Array<{ txn_id: string; source_txn_id: string; account_code: string; line_customer: string | null; txn_customer: string | null; net: string }> }>(STRAY_LINES_SQL, {
        wallets: WALLETS,
        limit: settings.variancesPerCheckMax,
      })
    ).rows.map((r) =>
      variance({
        txn_id: r.txn_id,
        source_txn_id: r.source_txn_id,
        customer_id: r.line_customer ?? r.txn_customer,
        account_code: r.account_code,
        detail: {
          problem: r.line_customer === null ? 'wallet_line_without_customer' : 'wallet_line_of_another_customer',
          line_customer_id: r.line_customer,
          transaction_customer_id: r.txn_customer,
          net: formatDecimal(new Decimal(r.net)),
        },
      }),
    );
    return outcomeOf([...drifted, ...stray], { wallets: totals.map((t) => ({ account_code: t.account_code, net: formatDecimal(new Decimal(t.lines_net)), customers: t.customers })) }, 'fail');
  },
};
