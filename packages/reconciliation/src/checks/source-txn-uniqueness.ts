import { BOTH_BOOKS, outcomeOf, variance, type Check } from '../check.js';

/**
 * Each upstream record is posted once: no two transactions share (source, source_txn_id), and no
 * transaction is reversed twice. The unique index makes both impossible through the ledger; this
 * proves the index was never bypassed (dropped, or rows restored around it). Incremental
 * (`:since` set): the keys of the transactions posted since, each counted over the whole book.
 */
const DUPLICATES_SQL = `
  WITH keys AS (
    SELECT source, source_txn_id, count(*)::int AS n FROM transactions
     WHERE :since::timestamptz IS NULL OR (source, source_txn_id) IN (SELECT source, source_txn_id FROM transactions WHERE posted_at >= :since::timestamptz)
     GROUP BY 1, 2 HAVING count(*) > 1 ORDER BY 1, 2 LIMIT :limit
  ), reversed AS (
    SELECT reverses_txn_id, count(*)::int AS n FROM transactions
     WHERE reverses_txn_id IS NOT NULL
       AND (:since::timestamptz IS NULL OR reverses_txn_id IN (SELECT reverses_txn_id FROM transactions WHERE posted_at >= :since::timestamptz))
     GROUP BY 1 HAVING count(*) > 1 ORDER BY 1 LIMIT :limit
  )
  -- Counted by hashing first; only the keys found twice are looked up for their transactions.
  SELECT 'source_txn_id' AS kind, k.source, k.source_txn_id, NULL AS reverses_txn_id, k.n,
         (SELECT array_agg(t.txn_id::text ORDER BY t.posted_at, t.txn_id) FROM transactions t WHERE t.source = k.source AND t.source_txn_id = k.source_txn_id) AS txn_ids
    FROM keys k
  UNION ALL
  SELECT 'reversal', NULL, NULL, r.reverses_txn_id::text, r.n,
         (SELECT array_agg(t.txn_id::text ORDER BY t.posted_at, t.txn_id) FROM transactions t WHERE t.reverses_txn_id = r.reverses_txn_id)
    FROM reversed r
  ORDER BY 1, 2, 3, 4
  LIMIT :limit`;

export const sourceTxnUniqueness: Check = {
  name: 'source_txn_uniqueness',
  category: 'A',
  books: BOTH_BOOKS,
  incremental: true,
  run: async ({ db, settings, since }) => {
    const { rows } = await db.raw<{
      rows: Array<{
        kind: string;
        source: string | null;
        source_txn_id: string | null;
        reverses_txn_id: string | null;
        n: number;
        txn_ids: string[];
      }>;
    }>(DUPLICATES_SQL, { limit: settings.variancesPerCheckMax, since });
    const variances = rows.map((r) =>
      variance({
        txn_id: r.kind === 'reversal' ? r.reverses_txn_id : (r.txn_ids[0] ?? null),
        source_txn_id: r.source_txn_id,
        expected: '1',
        actual: String(r.n),
        difference: String(r.n - 1),
        detail:
          r.kind === 'reversal'
            ? { problem: 'reversed_more_than_once', reversals: r.txn_ids }
            : { problem: 'duplicate_source_txn_id', source: r.source, txn_ids: r.txn_ids },
      }),
    );
    return outcomeOf(variances, {}, 'fail');
  },
};
