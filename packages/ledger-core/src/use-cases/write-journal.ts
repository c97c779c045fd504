import { assert, LedgerError } from '../domain/errors.js';
import { rejectedBy, repeatOutcome, type JournalOutcome } from '../domain/journal-outcome.js';
import { asOriginallyDated, draftAsOriginallyDated } from '../domain/periods.js';
import type { TransactionDraft } from '../domain/transaction.js';
import { factsThatDiffer, type StoredFacts } from '../store/columns/transactions.js';
import type { JournalWrite, LedgerStore, TransactionRecord } from './ports.js';

/*
 * The one journal write use case (ADR 0015): drafts go to the journal through the store's one
 * write, and each is answered with one outcome (domain/journal-outcome.ts) by one rule. Manual
 * entry, preview, reversal, recost, imports and syncs all come through here; the cash requests'
 * and year closes' writes run in their own locked database transaction (store/cash-requests.ts,
 * store/year-closes.ts), through the same store write.
 */

export const sourceKey = (source: string, sourceTxnId: string) => `${source}\u0000${sourceTxnId}`;

/** What a write answered: each draft's outcome, in input order, and the transactions inserted as stored (answer `records`, `preview`). */
export interface JournalAnswer {
  outcomes: JournalOutcome[];
  records: TransactionRecord[];
}

interface Numbered {
  index: number;
  draft: TransactionDraft;
}

/**
 * Writes records; when the database refuses their data, halves them until each refused record
 * stands alone, so that it is the only one left out (a handful of statements per bad record,
 * not one per record). A failure that is not about the data (connection lost) is thrown.
 */
async function writeIsolating(
  store: LedgerStore,
  records: Numbered[],
  write: Omit<JournalWrite, 'drafts'>,
  answer: { inserted: Set<string>; records: TransactionRecord[]; rejected: Map<number, LedgerError> },
): Promise<void> {
  try {
    const written = await store.write({ ...write, drafts: records.map((r) => r.draft) });
    for (const txnId of written.inserted) answer.inserted.add(txnId);
    answer.records.push(...written.records);
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    if (records.length === 1) {
      answer.rejected.set(records[0]!.index, error);
      return;
    }
    const half = Math.ceil(records.length / 2);
    await writeIsolating(store, records.slice(0, half), write, answer);
    await writeIsolating(store, records.slice(half), write, answer);
  }
}

/**
 * The facts in which a stored record differs from a draft of its key, each as it was before any
 * restatement into the open period: a late record posted on the first open day is the same
 * record when it is sent again after a later close moved that day.
 */
const differences = (draft: TransactionDraft, stored: StoredFacts): string[] =>
  factsThatDiffer(draftAsOriginallyDated(draft), asOriginallyDated(stored));

/** The outcome of a draft whose key is held by `stored` (or, with none, that would be inserted): the one idempotency rule. */
export const outcomeAgainst = (draft: TransactionDraft, stored: StoredFacts | undefined): JournalOutcome =>
  stored === undefined
    ? { outcome: 'inserted', txnId: draft.txnId }
    : repeatOutcome(
        stored.txn_id,
        { stored: stored.request_hash ?? null, draft: draft.requestHash },
        differences(draft, stored),
      );

/** The stored facts of the drafts' keys, by key, read in one statement (a new one: it sees keys committed while a write ran). */
export async function storedFactsOf(store: LedgerStore, drafts: TransactionDraft[]): Promise<Map<string, StoredFacts>> {
  const found = drafts.length === 0 ? [] : await store.findFactsBySourceKeys(drafts);
  return new Map(found.map((s) => [sourceKey(s.source, s.source_txn_id), s]));
}

/**
 * Each draft's outcome once the write ran: `inserted` (its id among `inserted`), `rejected` (its
 * refusal), or judged against the record holding its key. Only drafts whose key was taken are
 * read, in one statement.
 */
export async function judge(
  store: LedgerStore,
  drafts: TransactionDraft[],
  inserted: ReadonlySet<string>,
  rejected: ReadonlyMap<number, LedgerError> = new Map(),
): Promise<JournalOutcome[]> {
  const unanswered = new Set(inserted);
  const outcomes: Array<JournalOutcome | undefined> = drafts.map((draft, index) => {
    const reason = rejected.get(index);
    if (reason) return rejectedBy(reason);
    // A draft given twice is inserted once: its first copy is the one inserted, the others repeat it.
    if (unanswered.delete(draft.txnId)) return { outcome: 'inserted', txnId: draft.txnId };
    return undefined;
  });
  const taken = drafts.filter((_, i) => outcomes[i] === undefined);
  const stored = await storedFactsOf(store, taken);
  return drafts.map((draft, i) => {
    const holder = stored.get(sourceKey(draft.source, draft.sourceTxnId));
    const outcome = outcomes[i] ?? (holder && outcomeAgainst(draft, holder));
    assert(outcome, `transaction ${draft.source}/${draft.sourceTxnId} neither inserted, refused nor found`);
    return outcome;
  });
}

/**
 * Writes drafts to the journal and answers each (JournalOutcome, in input order): one write of
 * them all; a refused record isolated by halving, so it fails alone and never takes its
 * batch-mates with it; repeated keys judged by the one rule (domain/journal-outcome.ts).
 */
export async function writeJournal(
  store: LedgerStore,
  drafts: TransactionDraft[],
  write: Omit<JournalWrite, 'drafts'> = {},
): Promise<JournalAnswer> {
  const answer = {
    inserted: new Set<string>(),
    records: [] as TransactionRecord[],
    rejected: new Map<number, LedgerError>(),
  };
  await writeIsolating(
    store,
    drafts.map((draft, index) => ({ draft, index })),
    write,
    answer,
  );
  return { outcomes: await judge(store, drafts, answer.inserted, answer.rejected), records: answer.records };
}
