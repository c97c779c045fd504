import { assert, LedgerError } from '../domain/errors.js';
import type { TransactionDraft } from '../domain/transaction.js';
import type { LedgerStore, StoredTransaction, TransactionRecord } from './ports.js';

/** What posting an entry answers: the stored transaction, and whether this call created it. */
export type PostOutcome = { created: boolean; transaction: StoredTransaction };

export const sourceKey = (source: string, sourceTxnId: string) => `${source}\u0000${sourceTxnId}`;

/**
 * Each entry's answer once the statement ran: created (it is among `inserted`), or already
 * posted under its (source, source_txn_id) with the same request, or an idempotency conflict.
 * Only drafts whose key was taken need a read.
 */
export async function answersOf(
  store: LedgerStore,
  drafts: TransactionDraft[],
  inserted: TransactionRecord[],
): Promise<Array<PostOutcome | LedgerError>> {
  const insertedIds = new Set(inserted.map((s) => s.transaction.txn_id));
  const byKey = new Map(inserted.map((s) => [sourceKey(s.transaction.source, s.transaction.source_txn_id), s]));
  const taken = drafts.filter((d) => !byKey.has(sourceKey(d.source, d.sourceTxnId)));
  if (taken.length > 0) {
    // A new statement, so a new snapshot: it sees a key committed while ours ran, too.
    for (const s of await store.findBySourceKeys(taken))
      byKey.set(sourceKey(s.transaction.source, s.transaction.source_txn_id), s);
  }
  return drafts.map((draft) => {
    const found = byKey.get(sourceKey(draft.source, draft.sourceTxnId));
    assert(found, `transaction ${draft.source}/${draft.sourceTxnId} neither inserted nor found`);
    if (insertedIds.has(draft.txnId)) return { created: true, transaction: found.transaction };
    if (found.requestHash !== draft.requestHash) {
      return new LedgerError(
        'idempotency_conflict',
        `source_txn_id ${draft.sourceTxnId} of source ${draft.source} was already posted with a different payload`,
        [{ txn_id: found.transaction.txn_id }],
      );
    }
    return { created: false, transaction: found.transaction };
  });
}
