import { Decimal, formatDecimal } from '@ledger/core/posting';
import { BOTH_BOOKS, outcomeOf, postedSince, sinceBindings, variance, type Check } from '../check.js';

/**
 * Every maintained total equals the rows it summarises (migrations 20261121 and 20261206, ADR
 * 0010): account_totals per account, account_daily_totals per account, day and posting kind
 * (each against the journal's lines, grouped once), transaction_daily_totals per day and type
 * (against the transactions). Each is full-joined to the totals summed over their slots, so a
 * total without lines and lines without a total both show. Money within the tolerance, counts
 * exact. Incremental (`:days` set): the days the transactions posted since are dated on (read
 * first, DAYS_SQL: given as values, the planner sizes them; as a subquery it guessed a whole
 * month of days and read the journal whole), each day's totals against all of that day's lines
 * and transactions (read through their indexes by date and transaction); account_totals against
 * the daily totals (those of the other days were verified against their lines before, and the
 * journal is append-only).
 */
/** The days the transactions posted since are dated on. */
const DAYS_SQL = `SELECT coalesce(array_agg(DISTINCT txn_date)::text[], '{}') AS days FROM transactions nt WHERE ${postedSince('nt')}`;

const differencesSql = (incremental: boolean) => {
  const ofDays = (column: string) => (incremental ? `WHERE ${column} = ANY(:days::date[])` : '');
  return `
  WITH adt_lines AS (SELECT account_code, txn_date AS day, coalesce(posting_kind, '') AS posting_kind, sum(debit) AS debit, sum(credit) AS credit, count(*) AS n
                       FROM ${
                         incremental
                           ? // The days' lines by the txn_id index, transaction by transaction (OFFSET 0: never a scan of the journal).
                             '(SELECT txn_id FROM transactions WHERE txn_date = ANY(:days::date[]) OFFSET 0) r CROSS JOIN LATERAL (SELECT * FROM journal_lines x WHERE x.txn_id = r.txn_id OFFSET 0) l'
                           : 'journal_lines'
                       }
                      GROUP BY 1, 2, 3),
       ${
         incremental
           ? 'at_lines AS (SELECT account_code, sum(debit_total) AS debit, sum(credit_total) AS credit, sum(line_count) AS n FROM account_daily_totals GROUP BY 1),'
           : // Per account from the per-day sums: the journal is read once.
             'at_lines AS (SELECT account_code, sum(debit) AS debit, sum(credit) AS credit, sum(n) AS n FROM adt_lines GROUP BY 1),'
       }
       at_kept AS (SELECT account_code, sum(debit_total) AS debit, sum(credit_total) AS credit, sum(line_count) AS n FROM account_totals GROUP BY 1),
       adt_kept AS (SELECT account_code, day, posting_kind, sum(debit_total) AS debit, sum(credit_total) AS credit, sum(line_count) AS n
                      FROM account_daily_totals ${ofDays('day')} GROUP BY 1, 2, 3),
       tdt_rows AS (SELECT txn_date AS day, txn_type, count(*) AS n, sum(amount_usd) AS amount FROM transactions ${ofDays('txn_date')} GROUP BY 1, 2),
       tdt_kept AS (SELECT day, txn_type, sum(txn_count) AS n, sum(amount_usd_total) AS amount FROM transaction_daily_totals ${ofDays('day')} GROUP BY 1, 2),
       compared AS (
         SELECT 'account_totals' AS total, account_code, NULL::date AS day, NULL AS posting_kind, NULL AS txn_type,
                coalesce(l.debit, 0) AS debit_rows, coalesce(k.debit, 0) AS debit_kept, coalesce(l.credit, 0) AS credit_rows, coalesce(k.credit, 0) AS credit_kept,
                coalesce(l.n, 0) AS n_rows, coalesce(k.n, 0) AS n_kept
           FROM at_lines l FULL JOIN at_kept k USING (account_code)
         UNION ALL
         SELECT 'account_daily_totals', account_code, day, posting_kind, NULL,
                coalesce(l.debit, 0), coalesce(k.debit, 0), coalesce(l.credit, 0), coalesce(k.credit, 0), coalesce(l.n, 0), coalesce(k.n, 0)
           FROM adt_lines l FULL JOIN adt_kept k USING (account_code, day, posting_kind)
         UNION ALL
         SELECT 'transaction_daily_totals', NULL, day, NULL, txn_type,
                coalesce(r.amount, 0), coalesce(k.amount, 0), 0, 0, coalesce(r.n, 0), coalesce(k.n, 0)
           FROM tdt_rows r FULL JOIN tdt_kept k USING (day, txn_type)
       )
  SELECT total, account_code, day::text AS day, posting_kind, txn_type,
         debit_rows::text AS debit_rows, debit_kept::text AS debit_kept, credit_rows::text AS credit_rows, credit_kept::text AS credit_kept,
         n_rows::bigint AS n_rows, n_kept::bigint AS n_kept
    FROM compared
   WHERE abs(debit_kept - debit_rows) > :tolerance OR abs(credit_kept - credit_rows) > :tolerance OR n_kept <> n_rows
   ORDER BY 1, 2, 3, 4, 5
   LIMIT :limit`;
};

interface Difference {
  total: string;
  account_code: string | null;
  day: string | null;
  posting_kind: string | null;
  txn_type: string | null;
  debit_rows: string;
  debit_kept: string;
  credit_rows: string;
  credit_kept: string;
  n_rows: string;
  n_kept: string;
}

export const accountTotals: Check = {
  name: 'account_totals',
  category: 'B',
  books: BOTH_BOOKS,
  incremental: true,
  run: async ({ db, settings, since }) => {
    const days =
      since === null
        ? null
        : (await db.raw<{ rows: Array<{ days: string[] }> }>(DAYS_SQL, sinceBindings(since))).rows[0]!.days;
    const { rows } = await db.raw<{ rows: Difference[] }>(differencesSql(days !== null), {
      tolerance: settings.moneyToleranceUsd.toFixed(),
      limit: settings.variancesPerCheckMax,
      ...(days !== null && { days }),
    });
    const variances = rows.map((r) => {
      const money = (figure: string) => formatDecimal(new Decimal(figure));
      // Each figure the total keeps, as summarised from the rows and as maintained.
      const figures: Array<[name: string, rows: string, kept: string]> = [
        ...(r.total === 'transaction_daily_totals'
          ? [['amount_usd', money(r.debit_rows), money(r.debit_kept)] as [string, string, string]]
          : [
              ['debit', money(r.debit_rows), money(r.debit_kept)] as [string, string, string],
              ['credit', money(r.credit_rows), money(r.credit_kept)] as [string, string, string],
            ]),
        ['count', String(r.n_rows), String(r.n_kept)],
      ];
      const [figure, expected, actual] = figures.find(([, a, b]) => !new Decimal(a).isEqualTo(b)) ?? figures[0]!;
      const difference = new Decimal(actual).minus(expected);
      return variance({
        account_code: r.account_code,
        expected,
        actual,
        difference: figure === 'count' ? difference.toFixed() : formatDecimal(difference),
        detail: {
          problem: `${r.total}_differs`,
          figure,
          ...(r.day !== null && { day: r.day }),
          ...(r.posting_kind !== null && { posting_kind: r.posting_kind }),
          ...(r.txn_type !== null && { txn_type: r.txn_type }),
          summarised: Object.fromEntries(figures.map(([name, a]) => [name, a])),
          maintained: Object.fromEntries(figures.map(([name, , b]) => [name, b])),
        },
      });
    });
    return outcomeOf(variances, {}, 'fail');
  },
};
