import { assertFundsCover, manualWithdrawalOf } from '../domain/cash-requests.js';
import { assert, LedgerError } from '../domain/errors.js';
import type { TransactionDraft } from '../domain/transaction.js';
import { answersOf, type PostOutcome } from './entry-answers.js';
import type { CashRequestStore, LedgerStore } from './ports.js';

/**
 * Posts a manual withdrawal (`withdrawal` or `wire_out`) once the customer's wallet covers it:
 * the funds rule of a cash request (the wallet less the customer's pending withdrawals from it),
 * read under the same per-customer lock, so a withdrawal request and a manual withdrawal never
 * both spend one balance. 422 insufficient_funds otherwise, nothing posted. A repeat of its
 * (source, source_txn_id) is answered as any entry's (same request: the one posted; another: 409),
 * without a funds check.
 */
export async function postManualWithdrawal(
  ledger: LedgerStore,
  cash: CashRequestStore,
  draft: TransactionDraft,
): Promise<PostOutcome> {
  const withdrawal = manualWithdrawalOf(draft);
  assert(withdrawal, `${draft.txnType} ${draft.txnId} is not a withdrawal`);
  const inserted = await cash.postWithdrawal(draft, withdrawal.currency, (funds) =>
    assertFundsCover(withdrawal, funds),
  );
  const [outcome] = await answersOf(ledger, [draft], inserted ? await ledger.findBySourceKeys([draft]) : []);
  assert(outcome, 'answersOf answered no entry');
  if (outcome instanceof LedgerError) throw outcome;
  return outcome;
}
