import { ACCOUNT } from '../accounts.js';
import { aedAmounts, fundingAccounts } from './funding.js';
import { roundToCents } from '../money.js';
import { linesFromLegs } from './legs.js';
import type { PostingInput, PostingRule } from './types.js';

/** The customer's bundled fee: as stated by the source, else the fee schedule's bps of notional. */
export function customerFee({ feeUsd, customerFeeBps, amountUsd }: PostingInput) {
  return feeUsd ?? roundToCents(amountUsd.times(customerFeeBps).dividedBy(10_000));
}

/**
 * buy_security, `amount_usd` being the cost of the shares:
 * Dr 1200 / Cr 1100 (the firm's custody holds the shares), Dr 2010 / Cr 2100 (the customer's
 * wallet pays, the firm owes the shares), and the customer's fee Dr 2010 / Cr 4010, a
 * placeholder that recost splits into revenue and broker cost. A trade in AED (the UAE book's
 * local shares) pays from the AED bank and wallet instead: Cr 1020, Dr 2020, each AED line with
 * its AED amount (the gross, and the fee: stated, else converted at the rate).
 */
export const buySecurity: PostingRule = {
  txnType: 'buy_security',
  category: 'trading',
  customer: 'required',
  symbol: 'required',
  pendingRecost: true,
  lines: (input) => {
    const { cash, wallet } = fundingAccounts(input.currency);
    const fee = customerFee(input);
    const aed = aedAmounts(input.currency, input.aed, fee, 'buy');
    return linesFromLegs([
      {
        debit: ACCOUNT.custodyEquities,
        credit: cash,
        amount: input.amountUsd,
        postingKind: 'security_cost',
        ...(aed.amount && { nativeAmount: aed.amount }),
      },
      {
        debit: wallet,
        credit: ACCOUNT.securitiesLiabilityEquities,
        amount: input.amountUsd,
        postingKind: 'securities_liability',
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
