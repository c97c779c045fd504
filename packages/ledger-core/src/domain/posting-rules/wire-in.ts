import { cashInLeg } from './funding.js';
import { linesFromLegs } from './legs.js';
import type { PostingRule } from './types.js';

/** wire_in: an inbound wire, posted as a deposit (Dr 1100 / Cr 2010). */
export const wireIn: PostingRule = {
  txnType: 'wire_in',
  category: 'funding',
  customer: 'required',
  symbol: 'optional',
  pendingRecost: false,
  lines: ({ currency, amountUsd, aed }) => linesFromLegs([cashInLeg(currency, amountUsd, 'wire_in', aed?.amount)]),
};
