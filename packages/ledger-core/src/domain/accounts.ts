import { assert } from './errors.js';
import { roundToCents, type Decimal } from './money.js';

/** Account codes the posting rules and the firm reports use; the chart itself (names, types) lives in the database. */
export const ACCOUNT = {
  operatingBankUsd: '1010',
  operatingBankAed: '1020',
  omnibusCash: '1100',
  custodyEquities: '1200',
  custodyBonds: '1210',
  fxReceivable: '1300',
  customerWalletUsd: '2010',
  customerWalletAed: '2020',
  securitiesLiabilityEquities: '2100',
  payableToBroker: '2340',
  retainedEarnings: '3000',
  brokerageRevenue: '4010',
  custodyFeeRevenue: '4020',
  fxSpreadRevenue: '4030',
  partnerRevenue: '4040',
  brokerageCost: '5010',
  remittanceFees: '5030',
  /** AED rounding residue cleared from an emptied AED wallet (domain/fx-rounding.ts): either side. */
  fxRounding: '5090',
} as const;
export type AccountCode = string;

/**
 * The accounts that hold what the firm owes a customer (cash wallets, securities): every line on
 * one names its customer, or the firm's balance moves while no customer's does. The database
 * holds the same list (journal_lines_customer_account_has_customer, 20261220).
 */
export const CUSTOMER_ACCOUNTS: readonly AccountCode[] = [
  ACCOUNT.customerWalletUsd,
  ACCOUNT.customerWalletAed,
  ACCOUNT.securitiesLiabilityEquities,
];

/**
 * The accounts kept in AED (the AED bank and the customers' AED wallets): each of their lines
 * carries its AED amount beside the USD one (the book's currency), so their AED balance is exact.
 * The database holds the same list (journal_lines_aed_line_has_native_amount, 20270116).
 */
export const AED_ACCOUNTS: readonly AccountCode[] = [ACCOUNT.operatingBankAed, ACCOUNT.customerWalletAed];

/** The currency a line of the account carries beside USD: AED for an AED account, else none. */
export function nativeCurrencyOf(accountCode: AccountCode): 'AED' | null {
  return AED_ACCOUNTS.includes(accountCode) ? 'AED' : null;
}

/**
 * What is owed on an account in its own currency: the sum of its lines' own amounts, plus the USD
 * of AED lines posted before lines kept their AED amount (20270116), converted at `aedPerUsd`.
 */
export function owedInOwnCurrency(owed: { own: Decimal; unconvertedUsd: Decimal }, aedPerUsd: Decimal | null): Decimal {
  if (owed.unconvertedUsd.isZero()) return owed.own;
  assert(aedPerUsd !== null, 'AED lines without their AED amount are converted at a rate');
  return owed.own.plus(roundToCents(owed.unconvertedUsd.times(aedPerUsd)));
}

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'revenue', 'expense'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** Assets and expenses grow by debits; liabilities, equity and revenue by credits. */
export function normalSide(type: AccountType): 'debit' | 'credit' {
  return type === 'asset' || type === 'expense' ? 'debit' : 'credit';
}
