import { Decimal, formatDecimal } from '@ledger/core/posting';
import { trialBalance } from '@ledger/core/reports';
import { BOTH_BOOKS, outcomeOf, variance, type Check } from '../check.js';

/**
 * The book's debits equal its credits: the trial balance `/v1/firm/trial_balance` answers (the
 * same read, over the maintained account totals) has total debit balances equal to total credit
 * balances. Anything else is `fail` (spec, Errors).
 */
export const trialBalanceZero: Check = {
  name: 'trial_balance_zero',
  category: 'A',
  books: BOTH_BOOKS,
  run: async ({ db }) => {
    const tb = await trialBalance(db);
    const difference = formatDecimal(new Decimal(tb.total_credit).minus(tb.total_debit));
    const variances = tb.balanced
      ? []
      : [
          variance({
            expected: tb.total_debit,
            actual: tb.total_credit,
            difference,
            detail: { total_debit: tb.total_debit, total_credit: tb.total_credit },
          }),
        ];
    return outcomeOf(
      variances,
      {
        total_debit: tb.total_debit,
        total_credit: tb.total_credit,
        difference: tb.difference,
        accounts: tb.accounts.length,
      },
      'fail',
    );
  },
};
