import { draftFromEntry, LedgerError, postedSourceTxnIds, postTransactions, recordExceptions, type Db, type PostingPolicy, type RecordOutcome, type TransactionDraft } from '@ledger/core';
import { v7 as uuidv7 } from 'uuid';
import type { Mapped } from './usbroker-entries.js';

/*
 * What the usbroker jobs share: a customer's records drafted and posted together (or, in a dry
 * run, only counted), per-customer failure isolation, and the counts their results report.
 */

/** How a run did with one kind of record. In a dry run `posted` is what would be posted (its key is new). */
export interface PostingCounts {
  posted: number;
  duplicate: number;
  /** Posted before under the same key with other facts: the stored one stands (named in `conflicts`). */
  conflict: number;
  /** Records that post nothing by design (a pending wire, a cancelled order). */
  skipped: number;
  /** Records the ledger cannot take (named in `refused`). */
  refused: number;
}

export const noCounts = (): PostingCounts => ({ posted: 0, duplicate: 0, conflict: 0, skipped: 0, refused: 0 });

export function addCounts(into: PostingCounts, counts: PostingCounts): void {
  for (const key of Object.keys(into) as Array<keyof PostingCounts>) into[key] += counts[key];
}

/** One record a run could not post, and why. */
export interface RecordIssue {
  customer_id: string;
  source_txn_id: string;
  reason: string;
}

export type { CustomerFailure } from './per-customer.js';

/**
 * One customer's entries of one run, by kind of record: drafted as they are mapped, posted
 * together once every upstream call of the customer has answered (so a failing call leaves
 * nothing of the customer half-posted).
 */
export class CustomerBatch<Kind extends string> {
  readonly counts: Record<Kind, PostingCounts>;
  readonly refused: RecordIssue[] = [];
  readonly conflicts: RecordIssue[] = [];
  /** Every record decided on, for the exceptions (docs/exceptions.md). */
  readonly #outcomes: RecordOutcome[] = [];
  readonly #drafts: Array<{ kind: Kind; draft: TransactionDraft }> = [];

  constructor(
    readonly customerId: string,
    kinds: readonly Kind[],
    private readonly policy: PostingPolicy,
  ) {
    this.counts = Object.fromEntries(kinds.map((k) => [k, noCounts()])) as Record<Kind, PostingCounts>;
  }

  add(kind: Kind, sourceTxnId: string, mapped: Mapped): void {
    if (mapped.kind === 'skipped') {
      this.counts[kind].skipped += 1;
      return;
    }
    if (mapped.kind === 'refused') return this.refuse(kind, sourceTxnId, mapped.reason, 'refused');
    try {
      this.#drafts.push({ kind, draft: draftFromEntry(mapped.entry, uuidv7(), this.policy) });
    } catch (error) {
      if (!(error instanceof LedgerError)) throw error;
      this.refuse(kind, sourceTxnId, error.message, error.code);
    }
  }

  private refuse(kind: Kind, sourceTxnId: string, reason: string, reasonCode: string): void {
    this.counts[kind].refused += 1;
    this.refused.push({ customer_id: this.customerId, source_txn_id: sourceTxnId, reason });
    this.#outcomes.push({ recordKey: sourceTxnId, customerId: this.customerId, posted: false, reasonCode, reason });
  }

  /** Posts the drafts (idempotent by key); a dry run only reads which keys are posted already. */
  async post(db: Db, dryRun: boolean): Promise<void> {
    const drafts = this.#drafts;
    if (dryRun) {
      const posted = await postedSourceTxnIds(db, 'usbroker', drafts.map((d) => d.draft.sourceTxnId));
      for (const { kind, draft } of drafts) this.counts[kind][posted.has(draft.sourceTxnId) ? 'duplicate' : 'posted'] += 1;
      return;
    }
    const { outcomes } = drafts.length === 0 ? { outcomes: [] } : await postTransactions(db, drafts.map((d) => d.draft));
    outcomes.forEach((outcome, i) => {
      const { kind, draft } = drafts[i]!;
      const counts = this.counts[kind];
      const record = { recordKey: draft.sourceTxnId, customerId: this.customerId };
      if (outcome.outcome === 'inserted') counts.posted += 1;
      else if (outcome.outcome === 'duplicate') counts.duplicate += 1;
      else if (outcome.outcome === 'conflict') {
        counts.conflict += 1;
        const reason = `posted before with other ${outcome.fields.join(', ')}`;
        this.conflicts.push({ customer_id: this.customerId, source_txn_id: draft.sourceTxnId, reason });
        this.#outcomes.push({ ...record, posted: false, reasonCode: 'conflict', reason });
        return;
      } else return this.refuse(kind, draft.sourceTxnId, outcome.reason.message, outcome.reason.code);
      this.#outcomes.push({ ...record, posted: true });
    });
    await recordExceptions(db, { upstream: 'usbroker' }, this.#outcomes);
  }
}
