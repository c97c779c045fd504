import { assert, LedgerError } from '../domain/errors.js';
import { ENTRIES_WAITING_MAX } from '../domain/limits.js';
import type { TransactionDraft } from '../domain/transaction.js';
import type { PostOutcome } from './entry-answers.js';
import type { LedgerStore } from './ports.js';
import { postEntries } from './post-entries.js';

interface Waiting {
  draft: TransactionDraft;
  resolve: (outcome: PostOutcome) => void;
  reject: (error: unknown) => void;
}

/** A posted batch: each entry's outcome, or the error that failed the batch as a whole. */
type Settled = { outcomes: Array<PostOutcome | LedgerError> } | { error: unknown };

export interface EntryBatcherOptions {
  /** Most entries posted in one statement. */
  batchSizeMax?: number;
  /**
   * Batches in flight at once (each holds one database connection). One is the measured best
   * (pnpm bench): the next batch forms while one posts, so batches grow with load.
   */
  concurrency?: number;
  /** Most entries waiting for a batch; more are refused with `overloaded` (see ENTRIES_WAITING_MAX). */
  waitingMax?: number;
}

/**
 * Group commit for manual entry: concurrent entries are posted together, one statement and one
 * commit per batch, each caller still answered on its own. Nothing waits for a batch to fill:
 * an entry arriving when a poster is free goes at once, alone; entries arriving while all
 * posters are busy go together in the next batch. Under load this turns many small commits
 * (each with its own trigger runs, commit-time check and WAL flush) into few larger ones.
 * When a batch is done, the next one is sent before the finished one's callers are answered.
 */
export function createEntryBatcher(
  store: LedgerStore,
  { batchSizeMax = 100, concurrency = 1, waitingMax = ENTRIES_WAITING_MAX }: EntryBatcherOptions = {},
) {
  assert(
    batchSizeMax > 0 && concurrency > 0 && waitingMax > 0,
    'batchSizeMax, concurrency and waitingMax must be positive',
  );
  const waiting: Waiting[] = [];
  let posters = 0;

  /** Posts a batch; settles (never rejects) to an outcome per entry, or to what failed the whole batch. */
  const post = (batch: Waiting[]): Promise<Settled> =>
    postEntries(
      store,
      batch.map((w) => w.draft),
    )
      .then((outcomes): Settled => {
        assert(outcomes.length === batch.length, 'postEntries answered fewer entries than it was given');
        return { outcomes };
      })
      .catch((error: unknown): Settled => ({ error }));

  /** Answers each caller of a posted batch: its outcome, its own error, or the batch's. */
  function answer(batch: Waiting[], settled: Settled): void {
    batch.forEach((w, i) => {
      if ('error' in settled) return w.reject(settled.error);
      const outcome = settled.outcomes[i] as PostOutcome | LedgerError;
      if (outcome instanceof LedgerError) w.reject(outcome);
      else w.resolve(outcome);
    });
  }

  async function drain(): Promise<void> {
    posters += 1;
    try {
      let batch = waiting.splice(0, batchSizeMax);
      let posting = batch.length > 0 ? post(batch) : undefined;
      while (posting) {
        const settled = await posting;
        const finished = batch;
        // The next statement goes out before the finished batch's callers are answered (from a
        // later turn of the event loop), so the database is not idle while their replies are sent.
        batch = waiting.splice(0, batchSizeMax);
        posting = batch.length > 0 ? post(batch) : undefined;
        setImmediate(answer, finished, settled);
      }
    } finally {
      posters -= 1;
    }
  }

  return {
    post(draft: TransactionDraft): Promise<PostOutcome> {
      if (waiting.length >= waitingMax) {
        return Promise.reject(
          new LedgerError('overloaded', `${waiting.length} entries are waiting to be posted; retry shortly`),
        );
      }
      return new Promise<PostOutcome>((resolve, reject) => {
        waiting.push({ draft, resolve, reject });
        if (posters < concurrency) void drain();
      });
    },
  };
}
export type EntryBatcher = ReturnType<typeof createEntryBatcher>;
