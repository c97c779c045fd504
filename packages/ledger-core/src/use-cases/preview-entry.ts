import { assert } from '../domain/errors.js';
import { settleWalletDebits, walletDebitsOf } from '../domain/manual-entry.js';
import type { Decimal } from '../domain/money.js';
import type { TransactionDraft } from '../domain/transaction.js';
import { answerOf, type PostOutcome } from './entry-answers.js';
import type { CashRequestStore, LedgerStore } from './ports.js';
import { writeJournal } from './write-journal.js';

/**
 * What posting the manual entry would answer, without storing it: posting's own write, its
 * commit-time checks run, rolled back (answer `preview`), answered as posting answers; a new
 * entry debiting a wallet the wallet does not cover is refused as posting refuses it, and one
 * emptying an AED wallet shows the lines clearing its rounding residue (postManualEntry). So
 * preview refuses exactly what posting refuses and shows what it posts.
 */
export async function previewEntry(
  store: LedgerStore,
  cash: CashRequestStore,
  draft: TransactionDraft,
  aedPerUsd: Decimal,
): Promise<PostOutcome> {
  let { outcomes, records } = await writeJournal(store, [draft], { answer: 'preview' });
  const debits = walletDebitsOf(draft, aedPerUsd);
  if (debits.length > 0 && outcomes[0]?.outcome === 'inserted') {
    assert(draft.customerId !== null, 'an entry debiting a wallet names its customer');
    const funds = await cash.funds(
      draft.customerId,
      debits.map((d) => d.currency),
    );
    const settled = settleWalletDebits(draft, debits, funds, aedPerUsd);
    if (settled !== draft) ({ outcomes, records } = await writeJournal(store, [settled], { answer: 'preview' }));
  }
  const [outcome] = outcomes;
  assert(outcome, 'writeJournal answered no entry');
  return answerOf(store, draft, outcome, records);
}
