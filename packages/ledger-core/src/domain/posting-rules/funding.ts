import { ACCOUNT } from '../accounts.js';
import { assert } from '../errors.js';
import type { AedFigures, Currency, Leg } from './types.js';
import { roundToCents, type Decimal } from '../money.js';

/** Where a customer's money sits: the omnibus and USD wallet, or the AED bank and AED wallet. */
export function fundingAccounts(currency: Currency): { cash: string; wallet: string } {
  return currency === 'AED'
    ? { cash: ACCOUNT.operatingBankAed, wallet: ACCOUNT.customerWalletAed }
    : { cash: ACCOUNT.omnibusCash, wallet: ACCOUNT.customerWalletUsd };
}

/**
 * The AED amounts of an AED trade's legs (nothing in USD): the amount's own AED figure, and its
 * fee's: stated, else the USD fee converted at the posting's rate. A stated fee worth less than
 * half a cent posts no fee line (its USD is 0.00), so it is folded into the amount: a buy pays and
 * a sell receives its net settlement in AED, on the bank's line and the wallet's alike, and the AED
 * wallet still moves by exactly what the custodian settled.
 */
export function aedAmounts(
  currency: Currency,
  aed: AedFigures | null,
  feeUsd: Decimal,
  side: 'buy' | 'sell',
): { amount?: Decimal; fee?: Decimal } {
  if (currency === 'USD') return {};
  assert(aed !== null, 'a posting in AED carries its AED figures');
  const fee = aed.fee ?? roundToCents(feeUsd.times(aed.rate));
  if (!feeUsd.isZero() || aed.fee === null) return { amount: aed.amount, fee };
  const amount = side === 'buy' ? aed.amount.plus(fee) : aed.amount.minus(fee);
  // draftFromEntry refuses a sell whose stated fee is not less than its amount.
  assert(amount.isGreaterThan(0), 'a fee worth nothing in USD is less than the trade it is folded into');
  return { amount };
}

/** Money in: the firm holds more cash and owes the customer as much more (`native`: the AED amount, in AED). */
export function cashInLeg(currency: Currency, amount: Decimal, postingKind: string, native?: Decimal): Leg {
  const { cash, wallet } = fundingAccounts(currency);
  return { debit: cash, credit: wallet, amount, postingKind, ...(native && { nativeAmount: native }) };
}

/** Money out: the mirror of money in. */
export function cashOutLeg(currency: Currency, amount: Decimal, postingKind: string, native?: Decimal): Leg {
  const { cash, wallet } = fundingAccounts(currency);
  return { debit: wallet, credit: cash, amount, postingKind, ...(native && { nativeAmount: native }) };
}
