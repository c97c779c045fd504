import { ACCOUNT } from '../accounts.js';
import { linesFromLegs } from './legs.js';
import type { PostingRule } from './types.js';

/**
 * broker_fee: Dr 2010 / Cr 1100. A fee the broker charged the customer's account (a daily-ledger
 * `FEE` row): the broker holds that much less, so the omnibus cash and the customer's wallet fall
 * together, or the customer could withdraw money the broker no longer holds.
 */
export const brokerFee: PostingRule = {
  txnType: 'broker_fee',
  category: 'fee',
  customer: 'required',
  symbol: 'optional',
  pendingRecost: false,
  lines: ({ amountUsd }) =>
    linesFromLegs([
      { debit: ACCOUNT.customerWalletUsd, credit: ACCOUNT.omnibusCash, amount: amountUsd, postingKind: 'broker_fee' },
    ]),
};
