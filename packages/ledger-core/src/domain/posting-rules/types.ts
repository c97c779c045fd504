import type { AccountCode } from '../accounts.js';
import type { Decimal } from '../money.js';

export const TXN_TYPES = [
  'deposit',
  'wire_in',
  'withdrawal',
  'wire_out',
  'buy_security',
  'sell_security',
  'dividend',
  'wht_tax',
  'broker_fee',
  'fx_spread',
  'fx_spread_settle',
  'adjustment',
  'reversal',
  'recost',
  'year_close',
] as const;
export type TxnType = (typeof TXN_TYPES)[number];

export const CURRENCIES = ['USD', 'AED'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** What a posting rule needs to know about a would-be transaction, already parsed. */
export interface PostingInput {
  amountUsd: Decimal;
  /** Currency the money moved in; AED lands in the AED accounts at its USD equivalent. */
  currency: Currency;
  /** The customer's fee when the source states it; otherwise `customerFeeBps` of the amount (the fee schedule's for the entry's source). */
  feeUsd: Decimal | null;
  customerFeeBps: Decimal;
  /** Operator-given lines, for `adjustment` only. */
  lines: JournalLineDraft[] | null;
  /** An AED posting's own figures (null in USD): what its AED lines carry beside the USD ones. */
  aed: AedFigures | null;
}

/**
 * An AED posting's figures in AED: `amount`, what `amountUsd` converts (a trade's gross); `fee`,
 * the fee in AED when the source states it (a feed's bundled fee), else the USD fee converted at
 * `rate`, the peg it was converted at (AED per USD).
 */
export interface AedFigures {
  amount: Decimal;
  fee: Decimal | null;
  rate: Decimal;
}

export interface JournalLineDraft {
  accountCode: AccountCode;
  debit: Decimal;
  credit: Decimal;
  postingKind: string | null;
  /**
   * On a line of an AED account (AED_ACCOUNTS): its amount in AED, positive, on the line's side.
   * Absent on a USD line; the database refuses an AED line without it.
   */
  nativeAmount?: Decimal | null;
}

/** One amount moving from a credit account to a debit account: two lines that balance. */
export interface Leg {
  debit: AccountCode;
  credit: AccountCode;
  amount: Decimal;
  postingKind: string;
  /** The leg's amount in AED, given on every leg touching an AED account (linesFromLegs asserts it). */
  nativeAmount?: Decimal;
}

export interface PostingRule {
  txnType: TxnType;
  /** Category a transaction of this type gets unless the entry names one. */
  category: string;
  customer: 'required' | 'optional';
  symbol: 'required' | 'optional';
  /** Trades need recost (fee split, FIFO cost relief) before their cost lines are final. */
  pendingRecost: boolean;
  lines(input: PostingInput): JournalLineDraft[];
}
