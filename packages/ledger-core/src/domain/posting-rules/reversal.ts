import { nativeCurrencyOf } from '../accounts.js';
import { assert, LedgerError } from '../errors.js';
import { roundToCents, type Decimal } from '../money.js';
import type { JournalLineDraft } from './types.js';

/**
 * reversal: every line of the original with debit and credit swapped, its AED amount with it (on
 * the other side: negated). An AED line posted before lines kept their AED amount (20270116) has
 * none: it takes its USD amount at the original's rate (`fxRate`), as readers take it.
 */
export function reversingLines(original: JournalLineDraft[], fxRate: Decimal | null): JournalLineDraft[] {
  return original.map((line) => {
    const mirrored = { ...line, debit: line.credit, credit: line.debit };
    if (nativeCurrencyOf(line.accountCode) === null || (line.nativeAmount ?? null) !== null) return mirrored;
    if (fxRate === null)
      throw new LedgerError(
        'conflict',
        `a line of AED account ${line.accountCode} was posted without its AED amount and its transaction states no rate: correct it with an adjustment instead`,
      );
    const nativeAmount = roundToCents(line.debit.plus(line.credit).times(fxRate));
    assert(nativeAmount.isGreaterThan(0), `the AED amount of a line of ${line.accountCode} rounds to nothing`);
    return { ...mirrored, nativeAmount };
  });
}
