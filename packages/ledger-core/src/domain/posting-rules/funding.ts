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
 * The AED amounts of an AED posting's legs (nothing in USD): the amount's own AED figure, and
 * its fee's: stated, else the USD fee converted at the posting's rate.
 */
export function aedAmounts(
  currency: Currency,
  aed: AedFigures | null,
  feeUsd: Decimal,
): { amount?: Decimal; fee?: Decimal } {
  if (currency === 'USD') return {};
  assert(aed !== null, 'a posting in AED carries its AED figures');
  return { amount: aed.amount, fee: aed.fee ?? roundToCents(feeUsd.times(aed.rate)) };
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
