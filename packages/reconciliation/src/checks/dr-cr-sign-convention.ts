import { ACCOUNT, Decimal, formatDecimal, normalSide, type AccountType } from '@ledger/core/posting';
import { BOTH_BOOKS, postedSince, sinceBindings, variance, worst, type Check, type Variance } from '../check.js';

/**
 * The accounts whose balance may stand on either side, and why: the only exceptions to the sign
 * convention. Every other account's net (debit − credit) is ≥ 0 for assets and expenses, ≤ 0 for
 * liabilities, equity and revenue.
 */
export const SIGN_EXCEPTIONS: Readonly<Record<string, string>> = {
  '3000': 'retained earnings: a book that has lost money has a debit balance',
  '5090': 'FX rounding: the AED rounding residue cleared from emptied wallets is a loss or a gain',
};

/** Customer wallets hold what the firm owes its customers: a credit balance, or zero. */
const WALLETS = [ACCOUNT.customerWalletUsd, ACCOUNT.customerWalletAed];

/**
 * Each account's net. Incremental: from the maintained totals (`account_totals`, which the
 * account_totals check proves against the lines). The full sweep reads the lines themselves, so a
 * line the totals do not carry (written with the triggers bypassed) is still judged by its side.
 */
const ACCOUNTS_SQL = (from: 'totals' | 'lines') => `
  SELECT a.account_code, a.account_type, coalesce(x.net, 0)::text AS net
    FROM accounts a
    LEFT JOIN (${
      from === 'totals'
        ? 'SELECT account_code, sum(debit_total - credit_total) AS net FROM account_totals GROUP BY account_code'
        : 'SELECT account_code, sum(debit - credit) AS net FROM journal_lines GROUP BY account_code'
    }) x ON x.account_code = a.account_code
   ORDER BY a.account_code`;

/**
 * A wallet in debit: the customer owes the firm (an overdraft). A full sweep sums every wallet.
 */
const ALL_WALLETS_SQL = `
  SELECT customer_id, account_code, sum(debit - credit)::text AS net
    FROM journal_lines
   WHERE account_code = ANY(:wallets::text[]) AND customer_id IS NOT NULL
   GROUP BY customer_id, account_code
  HAVING sum(debit - credit) > 0
   ORDER BY customer_id, account_code
   LIMIT :limit`;

/**
 * Incremental (`:since` set): at the check's last clean run no wallet was in debit (by induction
 * from a full sweep: a run that finds one is not clean and leaves the mark). A wallet the
 * transactions posted since moved toward credit, or left alone, is still not in debit; only those
 * they moved toward debit (their lines since, read transaction by transaction by the txn_id index)
 * are summed whole, each by the customer index (an index-only read of that wallet's lines). No
 * per-customer balance is maintained: that sum grows with the customer's history, not the book's.
 */
const MOVED_WALLETS_SQL = `
  WITH moved AS (
    SELECT l.customer_id, l.account_code
      FROM (SELECT txn_id FROM transactions nt WHERE ${postedSince('nt')} OFFSET 0) r
      CROSS JOIN LATERAL (SELECT customer_id, account_code, debit, credit FROM journal_lines x
                           WHERE x.txn_id = r.txn_id AND x.account_code = ANY(:wallets::text[]) AND x.customer_id IS NOT NULL OFFSET 0) l
     GROUP BY 1, 2
    HAVING sum(l.debit - l.credit) > 0
  )
  SELECT m.customer_id, m.account_code, w.net::text AS net
    FROM moved m
    CROSS JOIN LATERAL (SELECT sum(j.debit - j.credit) AS net FROM journal_lines j
                         WHERE j.customer_id = m.customer_id AND j.account_code = m.account_code) w
   WHERE w.net > 0
   ORDER BY 1, 2
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
      await db.raw<{ rows: Array<{ account_code: string; account_type: AccountType; net: string }> }>(
        ACCOUNTS_SQL(since === null ? 'lines' : 'totals'),
      )
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
      await db.raw<{ rows: Array<{ customer_id: string; account_code: string; net: string }> }>(
        since === null ? ALL_WALLETS_SQL : MOVED_WALLETS_SQL,
        { wallets: WALLETS, limit: settings.variancesPerCheckMax, ...sinceBindings(since) },
      )
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
