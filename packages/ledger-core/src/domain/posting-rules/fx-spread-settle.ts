import { ACCOUNT } from '../accounts.js';
import { linesFromLegs } from './legs.js';
import type { PostingRule } from './types.js';

/** fx_spread_settle: the provider settles the margin into the bank, clearing 1300: Dr 1010 / Cr 1300. */
export const fxSpreadSettle: PostingRule = {
  txnType: 'fx_spread_settle',
  category: 'fx',
  customer: 'optional',
  symbol: 'optional',
  pendingRecost: false,
  lines: ({ amountUsd }) =>
    linesFromLegs([
      { debit: ACCOUNT.operatingBankUsd, credit: ACCOUNT.fxReceivable, amount: amountUsd, postingKind: 'fx_spread_settle' },
    ]),
};
