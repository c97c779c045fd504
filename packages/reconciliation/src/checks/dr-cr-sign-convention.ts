import { ACCOUNT, Decimal, formatDecimal, normalSide, type AccountType } from '@ledger/core';
import { BOTH_BOOKS, variance, worst, type Check, type Variance } from '../check.js';

/**
 * The accounts whose balance may stand on either side, and why: the only exceptions to the sign
 * convention. Every other account's net (debit − credit) is ≥ 0 for assets and expenses, ≤ 0 for
 * liabilities, equity and revenue.
 */
export const SIGN_EXCEPTIONS: Readonly<Record<string, string>> = {
  '3000': 'retained earnings: a book that has lost money has a debit balance',
};

/** Customer wallets hold what the firm owes its customers: a credit balance, or zero. */
const WALLETS = [ACCOUNT.customerWalletUsd, ACCOUNT.customerWalletAed];

const ACCOUNTS_SQL = `
  SELECT a.account_code, a.account_type, coalesce(sum(x.debit_total - x.credit_total), 0)::text AS net
    FROM accounts a LEFT JOIN account_totals x ON x.account_code = a.account_code
   GROUP BY a.account_code, a.account_type
   ORDER BY a.account_code`;

/**
 * A wallet in debit: the customer owes the firm (an overdraft). Incremental (`:since` set): the
 * wallets of the customers of the transactions posted since (each summed whole, by the customer
 * index): no other wallet moved.
 */
const WALLETS_SQL = `
  SELECT customer_id, account_code, sum(debit - credit)::text AS net
    FROM journal_lines
   WHERE account_code = ANY(:wallets::text[]) AND customer_id IS NOT NULL
     AND (:since::timestamptz IS NULL OR customer_id IN (SELECT DISTINCT customer_id FROM transactions WHERE posted_at >= :since::timestamptz AND customer_id IS NOT NULL))
   GROUP BY customer_id, account_code
  HAVING sum(debit - credit) > 0
   ORDER BY customer_id, account_code
   LIMIT :limit`;

/**
 * Each account's net, and each customer's wallet, on the side its type implies. An account on the
 * wrong side is `fail` (the book is misposted); a customer's wallet in debit is `warn` (an
 * overdraft to look into: the books still balance).
 */
export const drCrSignConvention: Check = {
  name: 'dr_cr_sign_convention',
  category: 'A',
  books: BOTH_BOOKS,
  incremental: true,
  run: async ({ db, settings, since }) => {
    const accounts = (
      await db.raw<{ rows: Array<{ account_code: string; account_type: AccountType; net: string }> }>(ACCOUNTS_SQL)
    ).rows;
    const wrongAccounts: Variance[] = accounts
      .filter((a) => !(a.account_code in SIGN_EXCEPTIONS))
      .filter((a) =>
        normalSide(a.account_type) === 'debit' ? new Decimal(a.net).isNegative() : new Decimal(a.net).isGreaterThan(0),
      )
      .map((a) =>
        variance({
          account_code: a.account_code,
          expected: '0.00',
          actual: formatDecimal(new Decimal(a.net)),
          difference: formatDecimal(new Decimal(a.net)),
          detail: {
            problem: 'account_on_wrong_side',
            account_type: a.account_type,
            normal_side: normalSide(a.account_type),
            net: formatDecimal(new Decimal(a.net)),
          },
        }),
      );
    const wallets = (
      await db.raw<{ rows: Array<{ customer_id: string; account_code: string; net: string }> }>(WALLETS_SQL, {
        wallets: WALLETS,
        since,
        limit: settings.variancesPerCheckMax,
      })
    ).rows;
    const overdrawn = wallets.map((w) =>
      variance({
        customer_id: w.customer_id,
        account_code: w.account_code,
        expected: '0.00',
        actual: formatDecimal(new Decimal(w.net)),
        difference: formatDecimal(new Decimal(w.net)),
        detail: { problem: 'wallet_in_debit', net: formatDecimal(new Decimal(w.net)) },
      }),
    );
    return {
      status: worst([wrongAccounts.length > 0 ? 'fail' : 'ok', overdrawn.length > 0 ? 'warn' : 'ok']),
      metrics: {
        accounts: accounts.length,
        accounts_on_wrong_side: wrongAccounts.length,
        wallets_in_debit: overdrawn.length,
        variances: wrongAccounts.length + overdrawn.length,
      },
      variances: [...wrongAccounts, ...overdrawn],
    };
  },
};
