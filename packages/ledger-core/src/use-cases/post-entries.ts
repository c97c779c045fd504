import { assert, type LedgerError } from '../domain/errors.js';
import type { TransactionDraft } from '../domain/transaction.js';
import { answerOf, answersOf, type PostOutcome } from './entry-answers.js';
import type { LedgerStore } from './ports.js';
import { writeJournal } from './write-journal.js';

/**
 * Posts entries together, in one statement and one database transaction, and answers each on
 * its own (see answersOf). New entries are answered from the statement itself, in one round
 * trip. If the database refuses the statement's data (say one entry names an unknown
 * customer, or breaks a constraint no earlier check caught), the refused entry is isolated
 * (use-cases/write-journal.ts), so a bad entry fails only itself, and never takes its
 * batch-mates with it.
 */
export async function postEntries(
  store: LedgerStore,
  drafts: TransactionDraft[],
): Promise<Array<PostOutcome | LedgerError>> {
  const { outcomes, records } = await writeJournal(store, drafts, { answer: 'records' });
  return answersOf(store, drafts, outcomes, records);
}

/**
 * Posts one entry. Repeating its (source, source_txn_id) with the same request returns the
 * existing transaction; with a different request it is an idempotency conflict.
 */
export async function postEntry(store: LedgerStore, draft: TransactionDraft): Promise<PostOutcome> {
  const { outcomes, records } = await writeJournal(store, [draft], { answer: 'records' });
  const [outcome] = outcomes;
  assert(outcome, 'writeJournal answered no entry');
  return answerOf(store, draft, outcome, records);
}
