import { assert } from '../domain/errors.js';
import { settleWalletDebits, walletDebitsOf } from '../domain/manual-entry.js';
import type { Decimal } from '../domain/money.js';
import type { TransactionDraft } from '../domain/transaction.js';
import { answerOf, type PostOutcome } from './entry-answers.js';
import type { CashRequestStore, LedgerStore } from './ports.js';
import { judge } from './write-journal.js';

/** Where an entry that spends no wallet is posted: the process's group commit (use-cases/entry-batcher.ts). */
export interface EntryPoster {
  post(draft: TransactionDraft): Promise<PostOutcome>;
}

/**
 * Posts a manual entry (drafted by draftManualEntry). One that debits a customer's wallet (a
 * withdrawal, buy, fee, tax or adjustment taking from 2010 or 2020) is posted alone, once the
 * wallet covers it: the funds rule of a cash request (the wallet less the customer's pending
 * withdrawals from it), read under the same per-customer lock, so a withdrawal request and a
 * manual entry never both spend one balance; an AED wallet it empties is left at 0.00 USD
 * (clearAedResidue). 422 insufficient_funds otherwise, nothing posted. A repeat of its (source,
 * source_txn_id) is answered as any entry's (same request: the one posted; another: 409), without
 * a funds check. Any other entry goes to `entries` (group commit).
 */
export async function postManualEntry(
  ledger: LedgerStore,
  cash: CashRequestStore,
  entries: EntryPoster,
  draft: TransactionDraft,
  aedPerUsd: Decimal,
): Promise<PostOutcome> {
  const debits = walletDebitsOf(draft, aedPerUsd);
  if (debits.length === 0) return entries.post(draft);
  const inserted = await cash.postCovered(
    draft,
    debits.map((d) => d.currency),
    (funds) => settleWalletDebits(draft, debits, funds, aedPerUsd),
  );
  const [outcome] = await judge(ledger, [draft], new Set(inserted ? [draft.txnId] : []));
  assert(outcome, 'judge answered no entry');
  return answerOf(ledger, draft, outcome, []);
}
