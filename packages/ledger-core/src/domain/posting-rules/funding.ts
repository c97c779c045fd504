import { ACCOUNT } from '../accounts.js';
import type { Currency, Leg } from './types.js';
import type { Decimal } from '../money.js';

/** Where a customer's money sits: the omnibus and USD wallet, or the AED bank and AED wallet. */
export function fundingAccounts(currency: Currency): { cash: string; wallet: string } {
  return currency === 'AED'
    ? { cash: ACCOUNT.operatingBankAed, wallet: ACCOUNT.customerWalletAed }
    : { cash: ACCOUNT.omnibusCash, wallet: ACCOUNT.customerWalletUsd };
}

/** Money in: the firm holds more cash and owes the customer as much more. */
export function cashInLeg(currency: Currency, amount: Decimal, postingKind: string): Leg {
  const { cash, wallet } = fundingAccounts(currency);
  return { debit: cash, credit: wallet, amount, postingKind };
}

/** Money out: the mirror of money in. */
export function cashOutLeg(currency: Currency, amount: Decimal, postingKind: string): Leg {
  const { cash, wallet } = fundingAccounts(currency);
  return { debit: wallet, credit: cash, amount, postingKind };
}
