import { ACCOUNT } from '../accounts.js';
import { linesFromLegs } from './legs.js';
import type { PostingRule } from './types.js';

/** dividend, gross: Dr 1100 / Cr 2010. Withholding is its own `wht_tax` transaction. */
export const dividend: PostingRule = {
  txnType: 'dividend',
  category: 'income',
  customer: 'required',
  symbol: 'optional',
  pendingRecost: false,
  lines: ({ amountUsd }) =>
    linesFromLegs([
      { debit: ACCOUNT.omnibusCash, credit: ACCOUNT.customerWalletUsd, amount: amountUsd, postingKind: 'dividend' },
    ]),
};
