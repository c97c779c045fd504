import {
  assert,
  draftFromEntry,
  LedgerError,
  newId,
  type EntryRequest,
  type JournalOutcome,
  type PostingPolicy,
  type Source,
  type TransactionDraft,
} from '@ledger/core/posting';
import {
  postTransactions,
  previewTransactions,
  recordExceptions,
  recost,
  type Db,
  type RecordOutcome as ExceptionOutcome,
  type RecostResult,
} from '@ledger/core/store';
import { recostPolicyOf, type JobSettings } from '../job-settings.js';
import {
  isRecordReasonCode,
  ledgerErrorDetail,
  noOutcomes,
  reason,
  type CustomerFailure,
  type OutcomeCounts,
  type Reason,
  type RecordIssue,
  type RecordOutcomeName,
  type RecordReasonCode,
  type SyncResult,
} from './results.js';

/*
 * The posting kit every ingest job uses (docs/jobs.md#the-posting-kit): select the run's
 * customers, map each upstream record (pure, in the job's mapping module) to an entry, a skip or
 * a refusal, post a customer's entries in bulk batches, and answer one outcome per record in one
 * vocabulary, one result shape for every sync job.
 */

/**
 * What a posting run answers of a record: the journal's outcome, or `skipped` (its mapping
 * decided it posts nothing). Never `updated`: a posted transaction is never changed, so the
 * journal has no such answer (the type holds every mapping of journal outcomes to it).
 */
export type PostedOutcomeName = Exclude<RecordOutcomeName, 'updated'>;

/** What a mapping makes of a record: an entry to post, nothing by design (skipped), or a refusal (rejected). */
export type Mapped =
  { kind: 'entry'; entry: EntryRequest } | { kind: 'skipped'; reason: Reason } | { kind: 'rejected'; reason: Reason };

export const entryOf = (entry: EntryRequest): Mapped => ({ kind: 'entry', entry });
export const skippedAs = (code: RecordReasonCode, detail: Record<string, unknown> = {}): Mapped => ({
  kind: 'skipped',
  reason: reason(code, detail),
});
export const rejectedAs = (code: RecordReasonCode, detail: Record<string, unknown> = {}): Mapped => ({
  kind: 'rejected',
  reason: reason(code, detail),
});

/**
 * One record's outcome with everything an exceptions store needs: the job and upstream, the
 * record's kind and key, its customer, the reason (conflict, skipped, rejected) and the record as
 * the upstream gave it. `PostingRun.outcomes` holds every one of a run.
 */
export interface RecordOutcome {
  /** The job's kind, or `import-uaefeed` for the hand-collected import. */
  job: string;
  upstream: Source;
  kind: string;
  customer_id: string;
  source_txn_id: string;
  outcome: PostedOutcomeName;
  /** The transaction posted (inserted, duplicate) or standing in the way (conflict); null otherwise. */
  txn_id: string | null;
  reason: Reason | null;
  record: Record<string, unknown>;
}

/** Drafts gathered into one statement at most (a customer's records are never split). */
export const POSTING_BATCH_SIZE = 2_000;
/** Batches posted at once (each holds a database connection). */
export const POSTING_LANES = 2;

interface Queued {
  drafts: TransactionDraft[];
  done: (outcomes: JournalOutcome[]) => void;
  failed: (error: unknown) => void;
}

/** A draft waiting to be posted, with its kind and the upstream record it came from. */
interface PendingDraft<Kind extends string> {
  kind: Kind;
  draft: TransactionDraft;
  record: Record<string, unknown>;
}

/**
 * One customer's records of a run, by kind: mapped records become drafts as they are added (a
 * draft the ledger would refuse is `rejected` at once); `PostingRun.post` posts the drafts.
 */
export class CustomerRecords<Kind extends string> {
  readonly #drafts: Array<PendingDraft<Kind>> = [];
  readonly #unposted: RecordOutcome[] = [];

  constructor(
    private readonly run: PostingRun<Kind>,
    readonly customerId: string,
  ) {}

  /** A mapped record (`record`: the upstream's fields, kept for the exceptions). */
  add(kind: Kind, sourceTxnId: string, mapped: Mapped, record: object): void {
    const fields = { ...record } as Record<string, unknown>;
    const drafted = draftOf(mapped, this.run.policy);
    if ('draft' in drafted) this.addDraft(kind, drafted.draft, fields);
    else
      this.#unposted.push(
        this.run.outcome(kind, this.customerId, sourceTxnId, drafted.outcome, null, drafted.reason, fields),
      );
  }

  /** A draft made by a domain rule (the remittances' decisions). */
  addDraft(kind: Kind, draft: TransactionDraft, record: object): void {
    this.#drafts.push({ kind, draft, record: { ...record } as Record<string, unknown> });
  }

  /** Takes what was added since the last call (the run posts it). */
  take(): { drafts: Array<PendingDraft<Kind>>; unposted: RecordOutcome[] } {
    return { drafts: this.#drafts.splice(0), unposted: this.#unposted.splice(0) };
  }
}

/** A mapped record's draft (posting rules applied, every field checked as manual entry checks it), or why it posts nothing. */
export function draftOf(
  mapped: Mapped,
  policy: PostingPolicy,
): { draft: TransactionDraft } | { outcome: 'skipped' | 'rejected'; reason: Reason } {
  if (mapped.kind !== 'entry') return { outcome: mapped.kind, reason: mapped.reason };
  try {
    return { draft: draftFromEntry(mapped.entry, newId(), policy) };
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    return { outcome: 'rejected', reason: ledgerReason(error) };
  }
}

/** A refusal by the ledger as a reason: its code is of the closed set (a drafting or a journal refusal), anything else is a bug. */
function ledgerReason(error: LedgerError): Reason {
  assert(isRecordReasonCode(error.code), `${error.code} is no reason code of docs/outcomes.md`);
  return reason(error.code, ledgerErrorDetail(error));
}

/** A record's outcome as the exceptions keep it: a skipped record posts nothing by design, not an exception. */
function exceptionOf(o: RecordOutcome): ExceptionOutcome[] {
  const key = { recordKey: o.source_txn_id, customerId: o.customer_id };
  if (o.outcome === 'inserted' || o.outcome === 'duplicate') return [{ ...key, outcome: o.outcome }];
  if (o.outcome === 'skipped' || o.reason === null) return [];
  const message =
    typeof o.reason.detail.message === 'string' ? o.reason.detail.message : JSON.stringify(o.reason.detail);
  return [{ ...key, outcome: o.outcome, reasonCode: o.reason.code, reason: message, record: o.record }];
}

/**
 * One run of an ingest job: customers' records posted in bulk (each customer's in one statement,
 * batched with others' while lanes are busy, at once while one is free), every record's outcome
 * kept in `outcomes`, and the result every sync job shares.
 */
export class PostingRun<Kind extends string> {
  /** Every record's outcome, in the order they were answered: the one place a run's exceptions are read from. */
  readonly outcomes: RecordOutcome[] = [];
  readonly policy: PostingPolicy;
  #queue: Queued[] = [];
  #busy = 0;

  constructor(
    private readonly db: Db,
    private readonly options: {
      job: RecordOutcome['job'];
      upstream: Source;
      kinds: readonly Kind[];
      dryRun: boolean;
      settings: Pick<JobSettings, 'feeSchedule'>;
      batchSize?: number;
    },
  ) {
    this.policy = { feeSchedule: options.settings.feeSchedule };
  }

  customer(customerId: string): CustomerRecords<Kind> {
    return new CustomerRecords(this, customerId);
  }

  /** @internal A record's outcome, in the run's terms. */
  outcome(
    kind: string,
    customerId: string,
    sourceTxnId: string,
    outcome: PostedOutcomeName,
    txnId: string | null,
    why: Reason | null,
    record: Record<string, unknown>,
  ): RecordOutcome {
    return {
      job: this.options.job,
      upstream: this.options.upstream,
      kind,
      customer_id: customerId,
      source_txn_id: sourceTxnId,
      outcome,
      txn_id: txnId,
      reason: why,
      record,
    };
  }

  /**
   * Posts what was added to a customer's records since its last post (in a dry run, answers
   * what posting would) and answers each record's outcome, the unposted ones included. A
   * database failure is thrown.
   */
  async post(records: CustomerRecords<Kind>): Promise<RecordOutcome[]> {
    const [outcomes] = await this.postAll([records]);
    return outcomes!;
  }

  /**
   * `post` for several customers at once, each one's outcomes in their order: their drafts are
   * queued together (batched as many customers' as a batch holds) and their exceptions written
   * in one statement, not a round trip per customer.
   */
  async postAll(customers: ReadonlyArray<CustomerRecords<Kind>>): Promise<RecordOutcome[][]> {
    const taken = customers.map((records) => ({ customerId: records.customerId, ...records.take() }));
    const answered = await Promise.all(this.enqueue(taken.map(({ drafts }) => drafts.map((d) => d.draft))));
    const outcomes = taken.map(({ customerId, drafts, unposted }, c) => [
      ...drafts.map(({ kind, draft, record }, i) =>
        this.fromBulk(kind, customerId, draft.sourceTxnId, answered[c]![i]!, record),
      ),
      ...unposted,
    ]);
    const all = outcomes.flat();
    this.outcomes.push(...all);
    // The durable home of what could not be posted (docs/exceptions.md): a failing record opens or
    // updates its exception, a posted one resolves it. A dry run records nothing.
    if (!this.options.dryRun)
      await recordExceptions(this.db, { upstream: this.options.upstream }, all.flatMap(exceptionOf));
    return outcomes;
  }

  private fromBulk(
    kind: Kind,
    customerId: string,
    sourceTxnId: string,
    answer: JournalOutcome,
    record: Record<string, unknown>,
  ): RecordOutcome {
    switch (answer.outcome) {
      case 'inserted':
      case 'duplicate':
        return this.outcome(kind, customerId, sourceTxnId, answer.outcome, answer.txnId, null, record);
      case 'conflict':
        return this.outcome(
          kind,
          customerId,
          sourceTxnId,
          'conflict',
          answer.txnId,
          reason('idempotency_conflict', { txn_id: answer.txnId, fields: answer.fields }),
          record,
        );
      case 'rejected':
        return this.outcome(kind, customerId, sourceTxnId, 'rejected', null, ledgerReason(answer.reason), record);
    }
  }

  /** Queues each customer's drafts (none: answered at once), then starts what the lanes can take. */
  private enqueue(customers: TransactionDraft[][]): Array<Promise<JournalOutcome[]>> {
    const answers = customers.map((drafts) =>
      drafts.length === 0
        ? Promise.resolve([])
        : new Promise<JournalOutcome[]>((done, failed) => this.#queue.push({ drafts, done, failed })),
    );
    this.pump();
    return answers;
  }

  /** Starts a batch on every free lane: what is queued, whole customers, up to a batch's size. */
  private pump(): void {
    const batchSize = this.options.batchSize ?? POSTING_BATCH_SIZE;
    while (this.#busy < POSTING_LANES && this.#queue.length > 0) {
      let size = 0;
      let count = 0;
      while (count < this.#queue.length && (count === 0 || size + this.#queue[count]!.drafts.length <= batchSize))
        size += this.#queue[count++]!.drafts.length;
      const batch = this.#queue.splice(0, count);
      this.#busy += 1;
      void this.postBatch(batch).finally(() => {
        this.#busy -= 1;
        this.pump();
      });
    }
  }

  private async postBatch(batch: Queued[]): Promise<void> {
    const drafts = batch.flatMap((q) => q.drafts);
    // One statement and database transaction for the batch (split only to isolate a refused
    // record): its records share a posted_at, and their UUIDv7 ids keep the order they were made.
    const chunkSize = drafts.length;
    try {
      const { outcomes } = this.options.dryRun
        ? await previewTransactions(this.db, drafts, { chunkSize })
        : await postTransactions(this.db, drafts, { chunkSize, concurrency: 1 });
      let offset = 0;
      for (const q of batch) {
        q.done(outcomes.slice(offset, offset + q.drafts.length));
        offset += q.drafts.length;
      }
    } catch (error) {
      for (const q of batch) q.failed(error);
    }
  }

  /** Recost after posting, when asked, not dry running and something was inserted (what this run posted is pending recost). */
  async recostIfPosted(asked: boolean, settings: JobSettings): Promise<RecostResult | null> {
    if (!asked || this.options.dryRun || !this.outcomes.some((o) => o.outcome === 'inserted')) return null;
    return recost(this.db, { policy: recostPolicyOf(settings), limit: null });
  }

  /** The shared result: the run's customers, its failures, counts per kind and the issues. */
  result(customers: number, failed: CustomerFailure[], recostDone: RecostResult | null): SyncResult<Kind> {
    const records = Object.fromEntries(this.options.kinds.map((k) => [k, noOutcomes()])) as Record<Kind, OutcomeCounts>;
    const issues: RecordIssue[] = [];
    for (const o of this.outcomes) {
      records[o.kind as Kind][o.outcome] += 1;
      if ((o.outcome === 'conflict' || o.outcome === 'rejected') && o.reason !== null) {
        issues.push({
          customer_id: o.customer_id,
          kind: o.kind,
          source_txn_id: o.source_txn_id,
          outcome: o.outcome,
          reason: o.reason,
        });
      }
    }
    const customersFailed = [...failed].sort((a, b) => a.customer_id.localeCompare(b.customer_id));
    return {
      dry_run: this.options.dryRun,
      customers,
      customers_synced: customers - customersFailed.length,
      customers_failed: customersFailed,
      // Keyed by the run's kinds: the type's generic key cannot say so.
      records: records as SyncResult<Kind>['records'],
      issues,
      recost: recostDone,
    };
  }
}
