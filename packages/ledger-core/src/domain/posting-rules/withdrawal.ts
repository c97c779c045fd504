import { cashOutLeg } from './funding.js';
import { linesFromLegs } from './legs.js';
import type { PostingRule } from './types.js';

/** withdrawal: Dr 2010 / Cr 1100 (AED: Dr 2020 / Cr 1020). */
export const withdrawal: PostingRule = {
  txnType: 'withdrawal',
  category: 'funding',
  customer: 'required',
  symbol: 'optional',
  pendingRecost: false,
  lines: ({ currency, amountUsd, aed }) => linesFromLegs([cashOutLeg(currency, amountUsd, 'withdrawal', aed?.amount)]),
};
