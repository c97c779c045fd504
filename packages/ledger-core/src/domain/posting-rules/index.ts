import { adjustment } from './adjustment.js';
import { brokerFee } from './broker-fee.js';
import { buySecurity } from './buy-security.js';
import { deposit } from './deposit.js';
import { dividend } from './dividend.js';
import { fxSpread } from './fx-spread.js';
import { fxSpreadSettle } from './fx-spread-settle.js';
import { sellSecurity } from './sell-security.js';
import type { PostingRule, TxnType } from './types.js';
import { whtTax } from './wht-tax.js';
import { wireIn } from './wire-in.js';
import { wireOut } from './wire-out.js';
import { withdrawal } from './withdrawal.js';

export {
  CURRENCIES,
  TXN_TYPES,
  type AedFigures,
  type Currency,
  type JournalLineDraft,
  type Leg,
  type PostingInput,
  type PostingRule,
  type TxnType,
} from './types.js';
export { isBalanced, linesFromLegs, totals } from './legs.js';
export { reversingLines } from './reversal.js';

/** The types only the ledger posts: `reversal` by reversing, `recost` by the recost job, `year_close` by a year close. */
export type EnterableTxnType = Exclude<TxnType, 'reversal' | 'recost' | 'year_close'>;

/** The rule of each enterable `txn_type`; `reversal` is posted only by reversing, `recost` by recost. */
export const POSTING_RULES: Readonly<Record<EnterableTxnType, PostingRule>> = {
  deposit,
  wire_in: wireIn,
  withdrawal,
  wire_out: wireOut,
  buy_security: buySecurity,
  sell_security: sellSecurity,
  dividend,
  wht_tax: whtTax,
  broker_fee: brokerFee,
  fx_spread: fxSpread,
  fx_spread_settle: fxSpreadSettle,
  adjustment,
};
export const ENTERABLE_TXN_TYPES = Object.keys(POSTING_RULES) as Array<keyof typeof POSTING_RULES>;
