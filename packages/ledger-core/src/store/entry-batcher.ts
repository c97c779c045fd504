import type { Knex } from 'knex';
import { assert, LedgerError } from '../domain/errors.js';
import type { TransactionDraft } from '../domain/transaction.js';
import { postEntries, type PostOutcome } from './transactions.js';

interface Waiting {
  draft: TransactionDraft;
  resolve: (outcome: PostOutcome) => void;
  reject: (error: unknown) => void;
}

export interface EntryBatcherOptions {
  /** Most entries posted in one statement. */
  batchSizeMax?: number;
  /**
   * Batches in flight at once (each holds one database connection). One is the measured best
   * (pnpm bench): the next batch forms while one posts, so batches grow with load.
   */
  concurrency?: number;
}

/**
 * Group commit for manual entry: concurrent entries are posted together, one statement and one
 * commit per batch, each caller still answered on its own. Nothing waits for a batch to fill:
 * an entry arriving when a poster is free goes at once, alone; entries arriving while all
 * posters are busy go together in the next batch. Under load this turns many small commits
 * (each with its own trigger runs, commit-time check and WAL flush) into few larger ones.
 */
export function createEntryBatcher(db: Knex, { batchSizeMax = 100, concurrency = 1 }: EntryBatcherOptions = {}) {
  assert(batchSizeMax > 0 && concurrency > 0, 'batchSizeMax and concurrency must be positive');
  const waiting: Waiting[] = [];
  let posters = 0;

  async function drain(): Promise<void> {
    posters += 1;
    try {
      while (waiting.length > 0) {
        const batch = waiting.splice(0, batchSizeMax);
        try {
          const outcomes = await postEntries(
            db,
            batch.map((w) => w.draft),
          );
          batch.forEach((w, i) => {
            const outcome = outcomes[i];
            assert(outcome, 'postEntries answered fewer entries than it was given');
            if (outcome instanceof LedgerError) w.reject(outcome);
            else w.resolve(outcome);
          });
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      posters -= 1;
    }
  }

  return {
    post(draft: TransactionDraft): Promise<PostOutcome> {
      return new Promise<PostOutcome>((resolve, reject) => {
        waiting.push({ draft, resolve, reject });
        if (posters < concurrency) void drain();
      });
    },
  };
}
export type EntryBatcher = ReturnType<typeof createEntryBatcher>;
