import { assert, LedgerError } from '../domain/errors.js';
import type { TransactionDraft } from '../domain/transaction.js';
import { answersOf, type PostOutcome } from './entry-answers.js';
import type { LedgerStore } from './ports.js';

/**
 * Posts entries together, in one statement and one database transaction, and answers each on
 * its own (see answersOf). New entries are answered from the statement itself, in one round
 * trip. If the database refuses the statement's data (say one entry names an unknown
 * customer, or breaks a constraint no earlier check caught), each entry is posted alone, so a
 * bad entry fails only itself, and never takes its batch-mates with it.
 */
export async function postEntries(
  store: LedgerStore,
  drafts: TransactionDraft[],
): Promise<Array<PostOutcome | LedgerError>> {
  let inserted;
  try {
    inserted = await store.insertAndReturn(drafts);
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    if (drafts.length > 1) return (await Promise.all(drafts.map((draft) => postEntries(store, [draft])))).flat();
    return [error];
  }
  return answersOf(store, drafts, inserted);
}

/**
 * Posts one entry. Repeating its (source, source_txn_id) with the same request returns the
 * existing transaction; with a different request it is an idempotency conflict.
 */
export async function postEntry(store: LedgerStore, draft: TransactionDraft): Promise<PostOutcome> {
  const [outcome] = await postEntries(store, [draft]);
  assert(outcome, 'postEntries answered no entry');
  if (outcome instanceof LedgerError) throw outcome;
  return outcome;
}
