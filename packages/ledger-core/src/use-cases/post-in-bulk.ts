import { assert } from '../domain/errors.js';
import type { JournalOutcome } from '../domain/journal-outcome.js';
import { restateIntoOpenPeriod } from '../domain/periods.js';
import type { TransactionDraft } from '../domain/transaction.js';
import type { LedgerStore } from './ports.js';
import { outcomeAgainst, sourceKey, storedFactsOf, writeJournal } from './write-journal.js';

/** What bulk posting did with one record: the journal's one outcome (domain/journal-outcome.ts, ADR 0015). */
export type BulkOutcome = JournalOutcome;

/** Each record's outcome, in input order, and how many of each. */
export interface BulkResult {
  outcomes: BulkOutcome[];
  inserted: number;
  duplicate: number;
  conflict: number;
  rejected: number;
}

/**
 * Records per chunk unless told: the size at which the store's COPY path (a chunk of 1,000 or
 * more) costs least per line, its per-chunk round trips spread thin, the triggers' transition
 * tables still in memory (ADR 0016).
 */
const BULK_CHUNK = 10_000;

export interface BulkOptions {
  /** Records per chunk: one database transaction, by COPY or one statement (LedgerStore.write). */
  chunkSize?: number;
  /** Chunks posted at once (each holds a database connection). */
  concurrency?: number;
}

/** The drafts as the open period takes them (domain/periods.ts): a closed day's are restated. */
async function restated(store: LedgerStore, drafts: TransactionDraft[]): Promise<TransactionDraft[]> {
  const closedThrough = await store.closedThrough();
  return drafts.map((d) => restateIntoOpenPeriod(d, closedThrough));
}

/**
 * Posts many transactions (the path sync jobs, the import and recost use): chunks of
 * `chunkSize`, each one database transaction (by COPY when large), `concurrency` chunks at a time,
 * and answers each record in input order (BulkOutcome). Posting is idempotent: running the batch
 * again answers `duplicate` for everything posted, so after a failure (thrown: connection lost),
 * with earlier chunks committed, running it again completes it. A record dated in a closed
 * period is posted on the first open day (restateIntoOpenPeriod); should a close land while the
 * batch posts, the database refuses the records it covers (`rejected`, period_closed) and a
 * re-run restates them.
 */
export async function postTransactions(
  store: LedgerStore,
  given: TransactionDraft[],
  { chunkSize = BULK_CHUNK, concurrency = 2 }: BulkOptions = {},
): Promise<BulkResult> {
  assert(chunkSize > 0 && concurrency > 0, 'chunkSize and concurrency must be positive');
  const drafts = await restated(store, given);
  const outcomes = new Array<BulkOutcome>(drafts.length);
  let next = 0;
  const poster = async () => {
    while (next < drafts.length) {
      const start = next;
      next += chunkSize;
      // One write per chunk; only records whose key was taken are read, in one statement.
      const { outcomes: answered } = await writeJournal(store, drafts.slice(start, start + chunkSize));
      answered.forEach((outcome, i) => (outcomes[start + i] = outcome));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, poster));
  const result: BulkResult = { outcomes, inserted: 0, duplicate: 0, conflict: 0, rejected: 0 };
  for (const { outcome } of outcomes) result[outcome] += 1;
  return result;
}

/**
 * What `postTransactions` would answer, nothing written (a dry run): a record whose key is
 * stored is `duplicate` or `conflict` as posting would say; any other is `inserted` (would be),
 * with its draft's id. Refusals only the database makes (an unknown customer) are not foreseen.
 */
export async function previewTransactions(
  store: LedgerStore,
  given: TransactionDraft[],
  { chunkSize = 2_000 }: BulkOptions = {},
): Promise<BulkResult> {
  assert(chunkSize > 0, 'chunkSize must be positive');
  const drafts = await restated(store, given);
  const result: BulkResult = { outcomes: [], inserted: 0, duplicate: 0, conflict: 0, rejected: 0 };
  for (let start = 0; start < drafts.length; start += chunkSize) {
    const chunk = drafts.slice(start, start + chunkSize);
    const stored = await storedFactsOf(store, chunk);
    for (const draft of chunk) {
      const outcome = outcomeAgainst(draft, stored.get(sourceKey(draft.source, draft.sourceTxnId)));
      result.outcomes.push(outcome);
      result[outcome.outcome] += 1;
    }
  }
  return result;
}
