import { ACCOUNT } from '../accounts.js';
import { linesFromLegs } from './legs.js';
import type { PostingRule } from './types.js';

/**
 * sell_security: proceeds Dr 1100 / Cr 2010. The cost relief (Dr 2100 / Cr 1200 at the FIFO
 * lots' cost) depends on every earlier lot, so recost posts it: the sale is pending recost.
 */
export const sellSecurity: PostingRule = {
  txnType: 'sell_security',
  category: 'trading',
  customer: 'required',
  symbol: 'required',
  pendingRecost: true,
  lines: ({ amountUsd }) =>
    linesFromLegs([{ debit: ACCOUNT.omnibusCash, credit: ACCOUNT.customerWalletUsd, amount: amountUsd, postingKind: 'sale_proceeds' }]),
};
