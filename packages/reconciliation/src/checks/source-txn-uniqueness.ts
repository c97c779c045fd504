import { BOTH_BOOKS, outcomeOf, postedSince, sinceBindings, variance, type Check } from '../check.js';

/**
 * Each upstream record is posted once: no two transactions share (source, source_txn_id), and no
 * transaction is reversed twice. The unique index makes both impossible through the ledger; this
 * proves the index was never bypassed (dropped, or rows restored around it). A full sweep counts
 * every key by hashing; incremental (`:since` set): the keys of the transactions posted since,
 * each counted over the whole book by its index (a lateral count per key: an `IN (...)` over the
 * whole table read every key of the book).
 */
const duplicatesSql = (incremental: boolean) => `
  WITH keys AS (
    ${
      incremental
        ? `SELECT k.source, k.source_txn_id, c.n FROM (SELECT DISTINCT source, source_txn_id FROM transactions nt WHERE ${postedSince('nt')}) k
             CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM transactions t WHERE t.source = k.source AND t.source_txn_id = k.source_txn_id) c
            WHERE c.n > 1 ORDER BY 1, 2 LIMIT :limit`
        : `SELECT source, source_txn_id, count(*)::int AS n FROM transactions GROUP BY 1, 2 HAVING count(*) > 1 ORDER BY 1, 2 LIMIT :limit`
    }
  ), reversed AS (
    ${
      incremental
        ? `SELECT k.reverses_txn_id, c.n FROM (SELECT DISTINCT reverses_txn_id FROM transactions nt WHERE ${postedSince('nt')} AND reverses_txn_id IS NOT NULL) k
             CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM transactions t WHERE t.reverses_txn_id = k.reverses_txn_id) c
            WHERE c.n > 1 ORDER BY 1 LIMIT :limit`
        : `SELECT reverses_txn_id, count(*)::int AS n FROM transactions WHERE reverses_txn_id IS NOT NULL GROUP BY 1 HAVING count(*) > 1 ORDER BY 1 LIMIT :limit`
    }
  )
  -- Only the keys found twice are looked up for their transactions.
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
    }>(duplicatesSql(since !== null), { limit: settings.variancesPerCheckMax, ...sinceBindings(since) });
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
