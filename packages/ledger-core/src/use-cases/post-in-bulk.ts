import { assert, LedgerError } from '../domain/errors.js';
import { asOriginallyDated, draftAsOriginallyDated, restateIntoOpenPeriod } from '../domain/periods.js';
import type { TransactionDraft } from '../domain/transaction.js';
import { factsThatDiffer, type StoredFacts } from '../store/columns/transactions.js';
import { sourceKey } from './entry-answers.js';
import type { LedgerStore } from './ports.js';

/**
 * What bulk posting did with one record (ADR 0005):
 * - `inserted`: posted now, as `txnId`;
 * - `duplicate`: its key was already posted with the same facts and lines (`txnId` the stored
 *   one): a re-sent record, nothing to do;
 * - `conflict`: its key was already posted with other facts or lines, named in `fields` (column
 *   names, `journal_lines` for the lines); nothing was stored, the stored one stands;
 * - `rejected`: the database refused the record's data (`reason`, e.g. `unknown_customer`);
 *   nothing of it was stored, and its chunk-mates were posted without it.
 */
export type BulkOutcome =
  | { outcome: 'inserted'; txnId: string }
  | { outcome: 'duplicate'; txnId: string }
  | { outcome: 'conflict'; txnId: string; fields: string[] }
  | { outcome: 'rejected'; reason: LedgerError };

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
 * tables still in memory (ADR 0015).
 */
const BULK_CHUNK = 10_000;

export interface BulkOptions {
  /** Records per chunk: one database transaction, by COPY or one statement (LedgerStore.insert). */
  chunkSize?: number;
  /** Chunks posted at once (each holds a database connection). */
  concurrency?: number;
}

interface Numbered {
  index: number;
  draft: TransactionDraft;
}

/**
 * Inserts records; when the database refuses their data, halves them until each refused record
 * stands alone, so that it is the only one left out (a handful of statements per bad record,
 * not one per record). A failure that is not about the data (connection lost) is thrown.
 */
async function insertIsolating(
  store: LedgerStore,
  records: Numbered[],
  inserted: Set<string>,
  rejected: Map<number, LedgerError>,
): Promise<void> {
  try {
    for (const txnId of await store.insert(records.map((r) => r.draft))) inserted.add(txnId);
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    if (records.length === 1) {
      rejected.set(records[0]!.index, error);
      return;
    }
    const half = Math.ceil(records.length / 2);
    await insertIsolating(store, records.slice(0, half), inserted, rejected);
    await insertIsolating(store, records.slice(half), inserted, rejected);
  }
}

/**
 * The facts in which a stored record differs from a draft of its key, each as it was before any
 * restatement into the open period: a late record posted on the first open day is the same
 * record when it is sent again after a later close moved that day.
 */
const differences = (draft: TransactionDraft, stored: StoredFacts): string[] =>
  factsThatDiffer(draftAsOriginallyDated(draft), asOriginallyDated(stored));

/** The drafts as the open period takes them (domain/periods.ts): a closed day's are restated. */
async function restated(store: LedgerStore, drafts: TransactionDraft[]): Promise<TransactionDraft[]> {
  const closedThrough = await store.closedThrough();
  return drafts.map((d) => restateIntoOpenPeriod(d, closedThrough));
}

/** Posts one chunk and answers each of its records; only records whose key was taken are read, in one statement. */
async function postChunk(store: LedgerStore, chunk: TransactionDraft[]): Promise<BulkOutcome[]> {
  const inserted = new Set<string>();
  const rejected = new Map<number, LedgerError>();
  await insertIsolating(
    store,
    chunk.map((draft, index) => ({ draft, index })),
    inserted,
    rejected,
  );
  const outcomes: Array<BulkOutcome | undefined> = [];
  const taken: number[] = [];
  for (const [index, draft] of chunk.entries()) {
    const reason = rejected.get(index);
    if (reason) outcomes.push({ outcome: 'rejected', reason });
    else if (inserted.delete(draft.txnId)) outcomes.push({ outcome: 'inserted', txnId: draft.txnId });
    else {
      // Its key was taken (before, or by a record earlier in the input, the very same draft included).
      outcomes.push(undefined);
      taken.push(index);
    }
  }
  if (taken.length > 0) {
    const found = await store.findFactsBySourceKeys(taken.map((i) => chunk[i]!));
    const byKey = new Map(found.map((s) => [sourceKey(s.source, s.source_txn_id), s]));
    for (const index of taken) {
      const draft = chunk[index]!;
      const stored = byKey.get(sourceKey(draft.source, draft.sourceTxnId));
      assert(stored, `transaction ${draft.source}/${draft.sourceTxnId} neither inserted, refused nor found`);
      const fields = differences(draft, stored);
      outcomes[index] =
        fields.length === 0
          ? { outcome: 'duplicate', txnId: stored.txn_id }
          : { outcome: 'conflict', txnId: stored.txn_id, fields };
    }
  }
  return outcomes.map((o) => {
    assert(o, 'every record of a chunk has an outcome');
    return o;
  });
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
      const answered = await postChunk(store, drafts.slice(start, start + chunkSize));
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
    const found = await store.findFactsBySourceKeys(chunk);
    const byKey = new Map(found.map((s) => [sourceKey(s.source, s.source_txn_id), s]));
    for (const draft of chunk) {
      const stored = byKey.get(sourceKey(draft.source, draft.sourceTxnId));
      const fields = stored === undefined ? [] : differences(draft, stored);
      const outcome: BulkOutcome =
        stored === undefined
          ? { outcome: 'inserted', txnId: draft.txnId }
          : fields.length === 0
            ? { outcome: 'duplicate', txnId: stored.txn_id }
            : { outcome: 'conflict', txnId: stored.txn_id, fields };
      result.outcomes.push(outcome);
      result[outcome.outcome] += 1;
    }
  }
  return result;
}
