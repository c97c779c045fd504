import { assert, LedgerError } from '../domain/errors.js';
import { idempotencyConflict, type JournalOutcome } from '../domain/journal-outcome.js';
import type { TransactionDraft } from '../domain/transaction.js';
import type { LedgerStore, StoredTransaction, TransactionRecord } from './ports.js';

/** What posting an entry answers: the stored transaction, and whether this call created it. */
export type PostOutcome = { created: boolean; transaction: StoredTransaction };

/**
 * An entry's journal outcome (use-cases/write-journal.ts) as the API answers it: `inserted` is
 * created (201), `duplicate` the stored transaction (200, a replay), `conflict` 409
 * idempotency_conflict, `rejected` its refusal. `records`: the transactions the write answered
 * as stored; any other an answer needs is read, in one statement.
 */
export async function answersOf(
  store: LedgerStore,
  drafts: TransactionDraft[],
  outcomes: JournalOutcome[],
  records: TransactionRecord[],
): Promise<Array<PostOutcome | LedgerError>> {
  const byId = new Map(records.map((r) => [r.transaction.txn_id, r.transaction]));
  const missing = drafts.filter((_, i) => {
    const o = outcomes[i];
    return (o?.outcome === 'inserted' || o?.outcome === 'duplicate') && !byId.has(o.txnId);
  });
  // A new statement, so a new snapshot: it sees a key committed while the write ran, too.
  for (const s of missing.length > 0 ? await store.findBySourceKeys(missing) : [])
    byId.set(s.transaction.txn_id, s.transaction);
  return drafts.map((draft, i) => {
    const outcome = outcomes[i];
    assert(outcome, `entry ${draft.source}/${draft.sourceTxnId} has no outcome`);
    if (outcome.outcome === 'rejected') return outcome.reason;
    if (outcome.outcome === 'conflict') return idempotencyConflict(draft.source, draft.sourceTxnId, outcome.txnId);
    const transaction = byId.get(outcome.txnId);
    assert(transaction, `transaction ${draft.source}/${draft.sourceTxnId} neither inserted nor found`);
    return { created: outcome.outcome === 'inserted', transaction };
  });
}

/** The one answer of a single entry, its refusal or conflict thrown. */
export async function answerOf(
  store: LedgerStore,
  draft: TransactionDraft,
  outcome: JournalOutcome,
  records: TransactionRecord[],
): Promise<PostOutcome> {
  const [answer] = await answersOf(store, [draft], [outcome], records);
  assert(answer, 'answersOf answered no entry');
  if (answer instanceof LedgerError) throw answer;
  return answer;
}
