import { formatDecimal, Decimal, POSTING_RULES } from '@ledger/core/posting';
import { BOTH_BOOKS, outcomeOf, postedSince, sinceBindings, variance, type Check } from '../check.js';

/** Transaction types posted pending recost (buys and sells): each has a recost_states row from its posting. */
const TRADE_TYPES = Object.entries(POSTING_RULES)
  .filter(([, rule]) => rule.pendingRecost)
  .map(([txnType]) => txnType);

/**
 * Every transaction has at least two journal lines, its debits equal its credits, and its lines
 * carry its date and customer; every line belongs to a transaction; every trade (not a
 * reversal) has its recost state row. A full sweep: one pass over the journal grouped by
 * transaction (the txn_id index, in order), merged both ways with transactions. Incremental
 * (`:since` set): each transaction posted since (by the created_xid index) with its lines summed in one
 * lateral probe of the txn_id index: an aggregate without GROUP BY answers one row even for a
 * transaction without lines, so no second join back to the transactions is needed (one was
 * planned as a nested loop over both sides, quadratic in the new transactions, when the
 * statistics had not yet seen them). Lines of no transaction at all are found by the full sweeps.
 */
const PER_TXN = `count(*) AS line_count, sum(debit) AS debit, sum(credit) AS credit,
           min(txn_date) AS first_date, max(txn_date) AS last_date,
           count(customer_id) AS with_customer, min(customer_id) AS first_customer, max(customer_id) AS last_customer`;

const linesSql = (incremental: boolean) => `
  SELECT coalesce(t.txn_id, p.txn_id)::text AS txn_id, t.source_txn_id, t.customer_id,
         coalesce(p.line_count, 0)::int AS line_count, coalesce(p.debit, 0)::text AS debit, coalesce(p.credit, 0)::text AS credit,
         CASE WHEN t.txn_id IS NULL THEN 'lines_without_transaction'
              WHEN coalesce(p.line_count, 0) < 2 THEN 'fewer_than_two_lines'
              WHEN p.debit <> p.credit THEN 'unbalanced'
              ELSE 'lines_disagree_with_transaction' END AS problem
    FROM ${
      incremental
        ? // OFFSET 0: the new transactions by the created_xid index, never the whole book in txn_id order for the ORDER BY.
          `(SELECT * FROM transactions nt WHERE ${postedSince('nt')} OFFSET 0) t
           CROSS JOIN LATERAL (SELECT t.txn_id, ${PER_TXN} FROM journal_lines l WHERE l.txn_id = t.txn_id) p`
        : `transactions t FULL JOIN (SELECT txn_id, ${PER_TXN} FROM journal_lines GROUP BY txn_id) p ON p.txn_id = t.txn_id`
    }
   WHERE t.txn_id IS NULL OR p.txn_id IS NULL OR p.line_count < 2 OR p.debit <> p.credit
      OR p.first_date <> t.txn_date OR p.last_date <> t.txn_date
      OR p.with_customer <> CASE WHEN t.customer_id IS NULL THEN 0 ELSE p.line_count END
      OR p.first_customer <> t.customer_id OR p.last_customer <> t.customer_id
   ORDER BY 1
   LIMIT :limit`;

const RECOST_STATES_SQL = `
  SELECT t.txn_id::text AS txn_id, t.source_txn_id, t.customer_id, t.symbol, t.txn_type
    FROM transactions t
   WHERE t.txn_type = ANY(:types::text[]) AND t.reverses_txn_id IS NULL
     AND (:since_xmax::xid8 IS NULL OR ${postedSince('t')})
     AND NOT EXISTS (SELECT 1 FROM recost_states s WHERE s.txn_id = t.txn_id)
   ORDER BY 1
   LIMIT :limit`;

export const journalLineCompleteness: Check = {
  name: 'journal_line_completeness',
  category: 'A',
  books: BOTH_BOOKS,
  incremental: true,
  run: async ({ db, settings, since }) => {
    const limit = settings.variancesPerCheckMax;
    const lines = (
      await db.raw<{
        rows: Array<{
          txn_id: string;
          source_txn_id: string | null;
          customer_id: string | null;
          line_count: number;
          debit: string;
          credit: string;
          problem: string;
        }>;
      }>(linesSql(since !== null), { ...sinceBindings(since), limit })
    ).rows;
    const untracked = (
      await db.raw<{
        rows: Array<{
          txn_id: string;
          source_txn_id: string;
          customer_id: string | null;
          symbol: string | null;
          txn_type: string;
        }>;
      }>(RECOST_STATES_SQL, { types: TRADE_TYPES, ...sinceBindings(since), limit })
    ).rows;
    const variances = [
      ...lines.map((r) =>
        variance({
          txn_id: r.txn_id,
          source_txn_id: r.source_txn_id,
          customer_id: r.customer_id,
          expected: formatDecimal(new Decimal(r.debit)),
          actual: formatDecimal(new Decimal(r.credit)),
          difference: formatDecimal(new Decimal(r.credit).minus(r.debit)),
          detail: {
            problem: r.problem,
            line_count: r.line_count,
            debit: formatDecimal(new Decimal(r.debit)),
            credit: formatDecimal(new Decimal(r.credit)),
          },
        }),
      ),
      ...untracked.map((r) =>
        variance({
          txn_id: r.txn_id,
          source_txn_id: r.source_txn_id,
          customer_id: r.customer_id,
          symbol: r.symbol,
          detail: { problem: 'trade_without_recost_state', txn_type: r.txn_type },
        }),
      ),
    ];
    return outcomeOf(
      variances,
      { incomplete_transactions: lines.length, trades_without_recost_state: untracked.length },
      'fail',
    );
  },
};
