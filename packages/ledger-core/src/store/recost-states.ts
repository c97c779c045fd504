import type { Knex } from 'knex';

/**
 * Puts transactions back to pending recost (recost_states, ADR 0009): those of `selection`, a
 * SELECT of `transactions` rows giving txn_id, txn_date and posted_at. A transaction never pending
 * is given a pending state; a stamped one is nulled; one already pending is left as it is, but its
 * row lock is still taken, so a re-pend racing a stamp in flight waits for it, then undoes it.
 * Answers how many it made pending.
 */
export async function rependRecost(
  db: Knex | Knex.Transaction,
  selection: string,
  bindings: readonly Knex.RawBinding[],
): Promise<number> {
  const result = await db.raw<{ rowCount: number | null }>(
    `INSERT INTO recost_states AS s (txn_id, txn_date, posted_at)
     SELECT t.txn_id, t.txn_date, t.posted_at FROM (${selection}) t
     ON CONFLICT (txn_id) DO UPDATE SET recosted_at = NULL WHERE s.recosted_at IS NOT NULL`,
    bindings,
  );
  return result.rowCount ?? 0;
}

/** Re-pends transactions by id. */
export const rependRecostByIds = (db: Knex | Knex.Transaction, txnIds: readonly string[]) =>
  txnIds.length === 0
    ? Promise.resolve(0)
    : rependRecost(db, 'SELECT txn_id, txn_date, posted_at FROM transactions WHERE txn_id = ANY(?::uuid[])', [
        [...txnIds],
      ]);
