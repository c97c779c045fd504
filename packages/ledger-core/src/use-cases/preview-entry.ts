import { assert, LedgerError } from '../domain/errors.js';
import { settleWalletDebits, walletDebitsOf } from '../domain/manual-entry.js';
import type { Decimal } from '../domain/money.js';
import type { TransactionDraft } from '../domain/transaction.js';
import { answersOf, type PostOutcome } from './entry-answers.js';
import type { CashRequestStore, LedgerStore } from './ports.js';

/**
 * What posting the manual entry would answer, without storing it: posting's own statement, its
 * commit-time checks run, rolled back (LedgerStore.insertAndReturnRolledBack), answered as
 * posting answers; a new entry debiting a wallet the wallet does not cover is refused as posting
 * refuses it, and one emptying an AED wallet shows the lines clearing its rounding residue
 * (postManualEntry). So preview refuses exactly what posting refuses and shows what it posts.
 */
export async function previewEntry(
  store: LedgerStore,
  cash: CashRequestStore,
  draft: TransactionDraft,
  aedPerUsd: Decimal,
): Promise<PostOutcome> {
  let inserted = await store.insertAndReturnRolledBack([draft]);
  const debits = walletDebitsOf(draft, aedPerUsd);
  if (debits.length > 0 && inserted.length > 0) {
    assert(draft.customerId !== null, 'an entry debiting a wallet names its customer');
    const funds = await cash.funds(
      draft.customerId,
      debits.map((d) => d.currency),
    );
    const settled = settleWalletDebits(draft, debits, funds, aedPerUsd);
    if (settled !== draft) inserted = await store.insertAndReturnRolledBack([settled]);
  }
  const [outcome] = await answersOf(store, [draft], inserted);
  assert(outcome, 'answersOf answered no entry');
  if (outcome instanceof LedgerError) throw outcome;
  return outcome;
}
