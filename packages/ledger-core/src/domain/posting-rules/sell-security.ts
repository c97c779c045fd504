import { fundingAccounts } from './funding.js';
import { linesFromLegs } from './legs.js';
import type { PostingRule } from './types.js';

/**
 * sell_security: proceeds Dr 1100 / Cr 2010. The cost relief (Dr 2100 / Cr 1200 at the FIFO
 * lots' cost) depends on every earlier lot, so recost posts it: the sale is pending recost. In
 * AED the proceeds land in the AED bank and wallet: Dr 1020 / Cr 2020.
 */
export const sellSecurity: PostingRule = {
  txnType: 'sell_security',
  category: 'trading',
  customer: 'required',
  symbol: 'required',
  pendingRecost: true,
  lines: ({ currency, amountUsd }) => {
    const { cash, wallet } = fundingAccounts(currency);
    return linesFromLegs([{ debit: cash, credit: wallet, amount: amountUsd, postingKind: 'sale_proceeds' }]);
  },
};
