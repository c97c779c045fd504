import { LedgerError } from '../errors.js';
import { isBalanced, totals } from './legs.js';
import type { PostingRule } from './types.js';

/** adjustment: the operator's own lines, which must balance; no rule derives them. */
export const adjustment: PostingRule = {
  txnType: 'adjustment',
  category: 'adjustment',
  customer: 'optional',
  symbol: 'optional',
  pendingRecost: false,
  lines: ({ lines }) => {
    if (!lines) throw new LedgerError('validation_error', 'an adjustment needs its journal lines in `lines`');
    if (!isBalanced(lines)) {
      const sum = totals(lines);
      throw new LedgerError(
        'unbalanced_transaction',
        'the lines must number two or more, each with exactly one positive side, and debits must equal credits',
        [{ debit_total: sum.debit.toString(), credit_total: sum.credit.toString(), line_count: lines.length }],
      );
    }
    return lines;
  },
};
