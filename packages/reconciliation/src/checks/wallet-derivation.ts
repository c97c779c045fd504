import { ACCOUNT, Decimal, formatDecimal } from '@ledger/core/posting';
import { BOTH_BOOKS, outcomeOf, postedSince, sinceBindings, variance, type Check, type Variance } from '../check.js';

const WALLETS = [ACCOUNT.customerWalletUsd, ACCOUNT.customerWalletAed];

/**
 * Customers' wallets add up to the wallet accounts: each wallet account's maintained total
 * (account_totals, what the trial balance and firm reports read) equals the sum over its
 * customers of their journal lines, and every wallet line names a customer. (Each customer's
 * wallet balance is derived from their lines wherever the ledger shows it; no per-customer total
 * is maintained yet. That a line names its transaction's customer is journal_line_completeness's.)
 * One pass over the wallets' lines, by their account index. Incremental (`:since` set): the
 * wallet lines of the transactions posted since must name a customer, and each wallet account's
 * total must equal its daily totals (account_totals verifies those against their lines, day by
 * day): the customers' lines are summed whole by the full sweeps.
 */
const totalsSql = (incremental: boolean) => `
  WITH lines AS (
    ${
      incremental
        ? `SELECT d.account_code, sum(d.debit_total - d.credit_total) AS net,
                  (SELECT count(*) FROM (SELECT txn_id FROM transactions nt WHERE ${postedSince('nt')} OFFSET 0) r
                     CROSS JOIN LATERAL (SELECT 1 FROM journal_lines l WHERE l.txn_id = r.txn_id AND l.account_code = d.account_code AND l.customer_id IS NULL) x) AS without_customer
             FROM account_daily_totals d WHERE d.account_code = ANY(:wallets::text[]) GROUP BY d.account_code`
        : `SELECT account_code, coalesce(sum(debit - credit) FILTER (WHERE customer_id IS NOT NULL), 0) AS net, count(*) FILTER (WHERE customer_id IS NULL) AS without_customer
             FROM journal_lines WHERE account_code = ANY(:wallets::text[]) GROUP BY account_code`
    }
  ), kept AS (
    SELECT account_code, sum(debit_total - credit_total) AS net FROM account_totals WHERE account_code = ANY(:wallets::text[]) GROUP BY account_code
  )
  SELECT a.account_code, coalesce(l.net, 0)::text AS lines_net, coalesce(k.net, 0)::text AS kept_net, coalesce(l.without_customer, 0)::int AS without_customer
    FROM unnest(:wallets::text[]) AS a(account_code)
    LEFT JOIN lines l USING (account_code) LEFT JOIN kept k USING (account_code)
   ORDER BY a.account_code`;

/** The wallet lines that name no customer: only read when the pass above counted some. */
const WITHOUT_CUSTOMER_SQL = `
  SELECT l.txn_id::text AS txn_id, t.source_txn_id, l.account_code, (l.debit - l.credit)::text AS net
    FROM journal_lines l LEFT JOIN transactions t ON t.txn_id = l.txn_id
   WHERE l.account_code = ANY(:wallets::text[]) AND l.customer_id IS NULL AND (:since_xmax::xid8 IS NULL OR ${postedSince('t')})
   ORDER BY l.line_id
   LIMIT :limit`;

export const walletDerivation: Check = {
  name: 'wallet_derivation',
  category: 'B',
  books: BOTH_BOOKS,
  incremental: true,
  run: async ({ db, settings, since }) => {
    const totals = (
      await db.raw<{
        rows: Array<{ account_code: string; lines_net: string; kept_net: string; without_customer: number }>;
      }>(totalsSql(since !== null), {
        wallets: WALLETS,
        ...sinceBindings(since),
      })
    ).rows;
    const drifted: Variance[] = totals
      .filter((t) => new Decimal(t.kept_net).minus(t.lines_net).abs().isGreaterThan(settings.moneyToleranceUsd))
      .map((t) =>
        variance({
          account_code: t.account_code,
          expected: formatDecimal(new Decimal(t.lines_net)),
          actual: formatDecimal(new Decimal(t.kept_net)),
          difference: formatDecimal(new Decimal(t.kept_net).minus(t.lines_net)),
          detail: {
            problem:
              since === null ? 'wallet_total_differs_from_customers_lines' : 'wallet_total_differs_from_daily_totals',
          },
        }),
      );
    const stray = totals.some((t) => t.without_customer > 0)
      ? (
          await db.raw<{
            rows: Array<{ txn_id: string; source_txn_id: string | null; account_code: string; net: string }>;
          }>(WITHOUT_CUSTOMER_SQL, {
            wallets: WALLETS,
            ...sinceBindings(since),
            limit: settings.variancesPerCheckMax,
          })
        ).rows.map((r) =>
          variance({
            txn_id: r.txn_id,
            source_txn_id: r.source_txn_id,
            account_code: r.account_code,
            detail: { problem: 'wallet_line_without_customer', net: formatDecimal(new Decimal(r.net)) },
          }),
        )
      : [];
    return outcomeOf(
      [...drifted, ...stray],
      { wallets: totals.map((t) => ({ account_code: t.account_code, net: formatDecimal(new Decimal(t.lines_net)) })) },
      'fail',
    );
  },
};
