import { cashOutLeg } from './funding.js';
import { linesFromLegs } from './legs.js';
import type { PostingRule } from './types.js';

/** wire_out: an outbound wire, posted as a withdrawal (Dr 2010 / Cr 1100). */
export const wireOut: PostingRule = {
  txnType: 'wire_out',
  category: 'funding',
  customer: 'required',
  symbol: 'optional',
  pendingRecost: false,
  lines: ({ currency, amountUsd, aed }) => linesFromLegs([cashOutLeg(currency, amountUsd, 'wire_out', aed?.amount)]),
};
