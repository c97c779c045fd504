import { ACCOUNT } from '../accounts.js';
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
 * placeholder that recost splits into revenue and broker cost.
 */
export const buySecurity: PostingRule = {
  txnType: 'buy_security',
  category: 'trading',
  customer: 'required',
  symbol: 'required',
  pendingRecost: true,
  lines: (input) =>
    linesFromLegs([
      { debit: ACCOUNT.custodyEquities, credit: ACCOUNT.omnibusCash, amount: input.amountUsd, postingKind: 'security_cost' },
      {
        debit: ACCOUNT.customerWalletUsd,
        credit: ACCOUNT.securitiesLiabilityEquities,
        amount: input.amountUsd,
        postingKind: 'securities_liability',
      },
      { debit: ACCOUNT.customerWalletUsd, credit: ACCOUNT.brokerageRevenue, amount: customerFee(input), postingKind: 'brokerage_fee' },
    ]),
};
