import { assertFundsCover, manualWithdrawalOf } from '../domain/cash-requests.js';
import { assert, LedgerError } from '../domain/errors.js';
import type { TransactionDraft } from '../domain/transaction.js';
import { answersOf, type PostOutcome } from './entry-answers.js';
import type { CashRequestStore, LedgerStore } from './ports.js';

/**
 * What posting the entry would answer, without storing it: posting's own statement, its
 * commit-time checks run, rolled back (LedgerStore.insertAndReturnRolledBack), answered as
 * posting answers, and a new manual withdrawal the wallet does not cover is refused as posting
 * refuses it (postManualWithdrawal). So preview refuses exactly what posting refuses.
 */
export async function previewEntry(
  store: LedgerStore,
  cash: CashRequestStore,
  draft: TransactionDraft,
): Promise<PostOutcome> {
  const inserted = await store.insertAndReturnRolledBack([draft]);
  const withdrawal = manualWithdrawalOf(draft);
  if (withdrawal && inserted.length > 0) {
    assertFundsCover(withdrawal, await cash.funds(withdrawal.customerId, withdrawal.currency));
  }
  const [outcome] = await answersOf(store, [draft], inserted);
  assert(outcome, 'answersOf answered no entry');
  if (outcome instanceof LedgerError) throw outcome;
  return outcome;
}
