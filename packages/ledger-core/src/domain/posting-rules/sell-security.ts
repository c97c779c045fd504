import { ACCOUNT } from '../accounts.js';
import { ZERO } from '../money.js';
import { aedAmounts, fundingAccounts } from './funding.js';
import { linesFromLegs } from './legs.js';
import type { PostingRule } from './types.js';

/**
 * sell_security: proceeds Dr 1100 / Cr 2010. The cost relief (Dr 2100 / Cr 1200 at the FIFO
 * lots' cost) depends on every earlier lot, so recost posts it: the sale is pending recost. In
 * AED the proceeds land in the AED bank and wallet: Dr 1020 / Cr 2020, each AED line with its AED
 * amount (the gross proceeds; the fee: stated, else converted at the rate). A fee the source states
 * (`fee_usd`, a feed's bundled fee) is posted now, as a buy's is: Dr 2010 (AED: 2020) / Cr 4010;
 * such a sell is pinned to 0 bps (transaction.ts), so recost adds no second fee. Without one,
 * recost charges the customer's fee at bps.
 */
export const sellSecurity: PostingRule = {
  txnType: 'sell_security',
  category: 'trading',
  customer: 'required',
  symbol: 'required',
  pendingRecost: true,
  lines: ({ currency, amountUsd, feeUsd, aed: figures }) => {
    const { cash, wallet } = fundingAccounts(currency);
    const fee = feeUsd ?? ZERO;
    const aed = aedAmounts(currency, figures, fee, 'sell');
    return linesFromLegs([
      {
        debit: cash,
        credit: wallet,
        amount: amountUsd,
        postingKind: 'sale_proceeds',
        ...(aed.amount && { nativeAmount: aed.amount }),
      },
      {
        debit: wallet,
        credit: ACCOUNT.brokerageRevenue,
        amount: fee,
        postingKind: 'brokerage_fee',
        ...(aed.fee && { nativeAmount: aed.fee }),
      },
    ]);
  },
};
