import { ACCOUNT } from '../accounts.js';
import { assert } from '../errors.js';
import { ZERO } from '../money.js';
import { isBalanced } from './legs.js';
import type { JournalLineDraft, PostingRule } from './types.js';

const line = (
  accountCode: string,
  side: 'debit' | 'credit',
  amount: typeof ZERO,
  postingKind: string,
): JournalLineDraft => ({
  accountCode,
  debit: side === 'debit' ? amount : ZERO,
  credit: side === 'credit' ? amount : ZERO,
  postingKind,
});

/**
 * fx_spread_settle: the provider settles the margin, clearing the accrual in 1300 (`amount_usd`).
 * The settlement's fees (`fee_usd`: remit's FX and transaction fees) are a cost, Dr 5030; the bank
 * (1010) gets the rest: Dr 1010 (amount − fees) + Dr 5030 (fees) / Cr 1300 (amount). Fees above the
 * accrual leave the bank: Cr 1010 (fees − amount). Without fees: Dr 1010 / Cr 1300. Three lines,
 * one of them the difference of the other two, so it balances by construction (asserted).
 */
export const fxSpreadSettle: PostingRule = {
  txnType: 'fx_spread_settle',
  category: 'fx',
  customer: 'optional',
  symbol: 'optional',
  pendingRecost: false,
  lines: ({ amountUsd, feeUsd }) => {
    const fees = feeUsd ?? ZERO;
    const toBank = amountUsd.minus(fees);
    const lines = [
      line(ACCOUNT.operatingBankUsd, toBank.isNegative() ? 'credit' : 'debit', toBank.abs(), 'fx_spread_settle'),
      line(ACCOUNT.remittanceFees, 'debit', fees, 'remittance_fee'),
      line(ACCOUNT.fxReceivable, 'credit', amountUsd, 'fx_spread_settle'),
    ].filter((l) => !l.debit.isZero() || !l.credit.isZero());
    assert(lines.length < 2 || isBalanced(lines), 'an fx_spread_settle balances');
    return lines;
  },
};
