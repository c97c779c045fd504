import { BOTH_BOOKS, outcomeOf, variance, type Check } from '../check.js';

/**
 * Each upstream record is posted once: no two transactions share (source, source_txn_id), and no
 * transaction is reversed twice. The unique index makes both impossible through the ledger; this
 * proves the index was never bypassed (dropped, or rows restored around it).
 */
const DUPLICATES_SQL = `
  SELECT 'source_txn_id' AS kind, source, source_txn_id, NULL AS reverses_txn_id, count(*)::int AS n, array_agg(txn_id::text ORDER BY posted_at, txn_id) AS txn_ids
    FROM transactions GROUP BY source, source_txn_id HAVING count(*) > 1
  UNION ALL
  SELECT 'reversal', NULL, NULL, reverses_txn_id::text, count(*)::int, array_agg(txn_id::text ORDER BY posted_at, txn_id)
    FROM transactions WHERE reverses_txn_id IS NOT NULL GROUP BY reverses_txn_id HAVING count(*) > 1
  ORDER BY 1, 2, 3, 4
  LIMIT ?`;

export const sourceTxnUniqueness: Check = {
  name: 'source_txn_uniqueness',
  category: 'A',
  books: BOTH_BOOKS,
  run: async ({ db, settings }) => {
    const { rows } = await db.raw<{ rows: Array<{ kind: string; source: string | null; source_txn_id: string | null; reverses_txn_id: string | null; n: number; txn_ids: string[] }> }>(
      DUPLICATES_SQL,
      [settings.variancesPerCheckMax],
    );
    const variances = rows.map((r) =>
      variance({
        txn_id: r.kind === 'reversal' ? r.reverses_txn_id : (r.txn_ids[0] ?? null),
        source_txn_id: r.source_txn_id,
        expected: '1',
        actual: String(r.n),
        difference: String(r.n - 1),
        detail: r.kind === 'reversal' ? { problem: 'reversed_more_than_once', reversals: r.txn_ids } : { problem: 'duplicate_source_txn_id', source: r.source, txn_ids: r.txn_ids },
      }),
    );
    return outcomeOf(variances, {}, 'fail');
  },
};
