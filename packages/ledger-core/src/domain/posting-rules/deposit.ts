import { cashInLeg } from './funding.js';
import { linesFromLegs } from './legs.js';
import type { PostingRule } from './types.js';

/** deposit: Dr 1100 / Cr 2010 (AED: Dr 1020 / Cr 2020). */
export const deposit: PostingRule = {
  txnType: 'deposit',
  category: 'funding',
  customer: 'required',
  symbol: 'optional',
  pendingRecost: false,
  lines: ({ currency, amountUsd, aed }) => linesFromLegs([cashInLeg(currency, amountUsd, 'deposit', aed?.amount)]),
};
