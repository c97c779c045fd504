import { ACCOUNT } from '../accounts.js';
import { linesFromLegs } from './legs.js';
import type { PostingRule } from './types.js';

/**
 * wht_tax: Dr 2010 / Cr 1100. The broker withholds and remits the tax, so the omnibus cash
 * stays equal to what the broker holds.
 */
export const whtTax: PostingRule = {
  txnType: 'wht_tax',
  category: 'tax',
  customer: 'required',
  symbol: 'optional',
  pendingRecost: false,
  lines: ({ amountUsd }) =>
    linesFromLegs([
      { debit: ACCOUNT.customerWalletUsd, credit: ACCOUNT.omnibusCash, amount: amountUsd, postingKind: 'wht_tax' },
    ]),
};
