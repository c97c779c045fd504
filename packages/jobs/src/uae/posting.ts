import { randomUUID } from 'node:crypto';
import { Decimal, draftFromEntry, LedgerError, postTransactions, previewTransactions, type Db, type TransactionDraft } from '@ledger/core';
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

/**
 * The drafts of mapped records (posting rules applied, every field checked as manual entry
 * checks it); a record the ledger would refuse is `rejected` with the ledger's reason.
 */
export function draftMappings(mappings: readonly UaefeedMapping[], settings: JobSettings): Drafted {
  const policy = { customerFeeBps: new Decimal(settings.customerFeeBps) };
  const drafted: Drafted = { drafts: [], unposted: [] };
  for (const mapping of mappings) {
    if (mapping.outcome !== 'entry') {
      drafted.unposted.push({ source_txn_id: mapping.sourceTxnId, outcome: mapping.outcome, reason: mapping.reason });
      continue;
    }
    try {
      drafted.drafts.push(draftFromEntry(mapping.entry, randomUUID(), policy));
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
  const result = dryRun ? await previewTransactions(db, drafts) : await postTransactions(db, drafts);
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
