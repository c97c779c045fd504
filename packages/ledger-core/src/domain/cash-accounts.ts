import type { Currency } from './posting-rules/index.js';

/**
 * An upstream cash account a record moves, as the UAE feed names it: `<customer number>-<currency>`
 * (`7000001-AED`). A record may move only its own customer's account in its own currency, at
 * every door (the uaefeed import and sync): another customer's account is refused, never posted
 * into this customer's wallet.
 */
export function cashAccountOf(customerNumber: string, currency: Currency): string {
  return `${customerNumber}-${currency}`;
}

/** Why `account` is not the customer's own account in `currency`, or null when it is. */
export function cashAccountProblem(
  account: string,
  owner: { customerNumber: string; currency: Currency },
): 'cash_account_currency_mismatch' | 'not_own_cash_account' | null {
  if (!account.endsWith(`-${owner.currency}`)) return 'cash_account_currency_mismatch';
  return account === cashAccountOf(owner.customerNumber, owner.currency) ? null : 'not_own_cash_account';
}
