import { draftFromEntry, LedgerError, postTransactions, previewTransactions, type Db, type TransactionDraft } from '@ledger/core';
import { v7 as uuidv7 } from 'uuid';
import type { JobSettings } from '../catalog.js';
import type { UaefeedMapping } from './mapping.js';

/** What became of one uaefeed record. */
export type UaefeedRecordOutcome =
  | { source_txn_id: string; outcome: 'inserted' | 'duplicate'; txn_id: string }
  | { source_txn_id: string; outcome: 'skipped' | 'rejected'; reason: string };

/** A record refused before posting, or a mapping that posts nothing; the rest become drafts. */
export interface Drafted {
  drafts: TransactionDraft[];
  /** Skipped and rejected records, with their reasons. */
  unposted: UaefeedRecordOutcome[];
}

/** A mapping's date, for ordering ('' for one that posts nothing). */
const dateOf = (m: UaefeedMapping) => (m.outcome === 'entry' ? m.entry.txn_date : '');

/**
 * The drafts of mapped records (posting rules applied, every field checked as manual entry
 * checks it), in date order; a record the ledger would refuse is `rejected` with the ledger's
 * reason. Recost takes a day's trades in (posted_at, txn_id) order, and the feed has no time
 * of day: the sort is stable (the feed's own order within a day) and the ids are UUIDv7, which
 * sort in the order they are made, so a day's buy stays before the sell of the same shares.
 */
export function draftMappings(mappings: readonly UaefeedMapping[], settings: Pick<JobSettings, 'feeSchedule'>): Drafted {
  const policy = { feeSchedule: settings.feeSchedule };
  const drafted: Drafted = { drafts: [], unposted: [] };
  for (const mapping of [...mappings].sort((a, b) => dateOf(a).localeCompare(dateOf(b)))) {
    if (mapping.outcome !== 'entry') {
      drafted.unposted.push({ source_txn_id: mapping.sourceTxnId, outcome: mapping.outcome, reason: mapping.reason });
      continue;
    }
    try {
      drafted.drafts.push(draftFromEntry(mapping.entry, uuidv7(), policy));
    } catch (error) {
      if (!(error instanceof LedgerError)) throw error;
      drafted.unposted.push({ source_txn_id: mapping.sourceTxnId, outcome: 'rejected', reason: `${error.code}: ${error.message}` });
    }
  }
  return drafted;
}

/**
 * Posts drafts in bulk (or, in a dry run, answers what posting would): new ones `inserted`, a key
 * already posted with the same facts `duplicate`; one posted with other facts, or refused by the
 * database, `rejected` with the reason. In the drafts' order.
 */
export async function postDrafts(db: Db, drafts: TransactionDraft[], dryRun: boolean): Promise<UaefeedRecordOutcome[]> {
  // One statement and database transaction for the lot (split only to isolate a refused record,
  // one part after the other): the records share a posted_at, and their ids keep their order.
  const chunkSize = Math.max(drafts.length, 1);
  const result = dryRun ? await previewTransactions(db, drafts, { chunkSize }) : await postTransactions(db, drafts, { chunkSize, concurrency: 1 });
  return result.outcomes.map((answer, i): UaefeedRecordOutcome => {
    const source_txn_id = drafts[i]!.sourceTxnId;
    switch (answer.outcome) {
      case 'inserted':
      case 'duplicate':
        return { source_txn_id, outcome: answer.outcome, txn_id: answer.txnId };
      case 'conflict':
        return { source_txn_id, outcome: 'rejected', reason: `idempotency_conflict: already posted as ${answer.txnId} with other ${answer.fields.join(', ')}` };
      case 'rejected':
        return { source_txn_id, outcome: 'rejected', reason: `${answer.reason.code}: ${answer.reason.message}` };
    }
  });
}

/** Drafts gathered before a batch is posted: a bulk chunk's worth. */
export const POSTING_BATCH_SIZE = 2_000;
/** Batches posted at once (each holds a database connection). */
export const POSTING_LANES = 2;

/**
 * Posts customers' drafts while the caller is still fetching others: drafts gather until a
 * batch's worth, then post (postDrafts) as one statement, POSTING_LANES batches at a time. A
 * customer's drafts are added whole, once its fetch is complete, so they are all in one batch:
 * a customer whose fetch fails posts nothing, and one whose records post keeps their order
 * (one posted_at, ids in order). A failure to post (a database error) is kept and thrown by
 * `finish`.
 */
export class PostingPipeline {
  private pending: Array<{ customerId: string; drafts: TransactionDraft[] }> = [];
  private pendingSize = 0;
  private readonly lanes: Array<Promise<void>> = Array.from({ length: POSTING_LANES }, () => Promise.resolve());
  private batches = 0;
  private failure: { error: unknown } | null = null;
  private readonly outcomes = new Map<string, UaefeedRecordOutcome[]>();

  constructor(
    private readonly db: Db,
    private readonly dryRun: boolean,
    private readonly batchSize = POSTING_BATCH_SIZE,
  ) {}

  add(customerId: string, drafts: TransactionDraft[]): void {
    this.pending.push({ customerId, drafts });
    this.pendingSize += drafts.length;
    if (this.pendingSize >= this.batchSize) this.post();
  }

  /** Every customer's outcomes, in the order of its drafts. */
  async finish(): Promise<Map<string, UaefeedRecordOutcome[]>> {
    this.post();
    await Promise.all(this.lanes);
    if (this.failure) throw this.failure.error;
    return this.outcomes;
  }

  private post(): void {
    const batch = this.pending;
    this.pending = [];
    this.pendingSize = 0;
    if (batch.length === 0) return;
    const lane = this.batches++ % POSTING_LANES;
    this.lanes[lane] = this.lanes[lane]!.then(async () => {
      if (this.failure) return;
      try {
        const answered = await postDrafts(this.db, batch.flatMap((b) => b.drafts), this.dryRun);
        let offset = 0;
        for (const { customerId, drafts } of batch) {
          this.outcomes.set(customerId, [...(this.outcomes.get(customerId) ?? []), ...answered.slice(offset, offset + drafts.length)]);
          offset += drafts.length;
        }
      } catch (error) {
        this.failure = { error };
      }
    });
  }
}
