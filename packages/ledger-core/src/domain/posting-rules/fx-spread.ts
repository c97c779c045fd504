import { ACCOUNT } from '../accounts.js';
import { linesFromLegs } from './legs.js';
import type { PostingRule } from './types.js';

/** fx_spread: margin earned on a paid remittance, held against the provider: Dr 1300 / Cr 4030. */
export const fxSpread: PostingRule = {
  txnType: 'fx_spread',
  category: 'fx',
  customer: 'optional',
  symbol: 'optional',
  pendingRecost: false,
  lines: ({ amountUsd }) =>
    linesFromLegs([
      { debit: ACCOUNT.fxReceivable, credit: ACCOUNT.fxSpreadRevenue, amount: amountUsd, postingKind: 'fx_spread' },
    ]),
};
