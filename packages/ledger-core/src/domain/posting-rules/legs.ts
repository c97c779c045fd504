import { nativeCurrencyOf } from '../accounts.js';
import { assert } from '../errors.js';
import type { JournalLineDraft, Leg } from './types.js';
import { ZERO } from '../money.js';

/**
 * Turns legs into journal lines: each leg is one debit and one credit of the same amount, so
 * the result balances by construction. A zero leg (a fee of nothing) posts no lines. A line of
 * an AED account carries the leg's AED amount (a leg touching one without it is a bug: asserted).
 */
export function linesFromLegs(legs: Leg[]): JournalLineDraft[] {
  const lines: JournalLineDraft[] = [];
  for (const leg of legs) {
    assert(!leg.amount.isNegative(), `leg ${leg.postingKind} has a negative amount`);
    if (leg.amount.isZero()) continue;
    const line = (accountCode: string, debit: typeof ZERO, credit: typeof ZERO): JournalLineDraft => {
      if (nativeCurrencyOf(accountCode) === null) return { accountCode, debit, credit, postingKind: leg.postingKind };
      assert(
        leg.nativeAmount !== undefined && leg.nativeAmount.isGreaterThan(0),
        `leg ${leg.postingKind} moves AED account ${accountCode} without its AED amount`,
      );
      return { accountCode, debit, credit, postingKind: leg.postingKind, nativeAmount: leg.nativeAmount };
    };
    lines.push(line(leg.debit, leg.amount, ZERO));
    lines.push(line(leg.credit, ZERO, leg.amount));
  }
  return lines;
}

/** Debit and credit totals of some lines. */
export function totals(lines: JournalLineDraft[]): { debit: typeof ZERO; credit: typeof ZERO } {
  return lines.reduce((sum, line) => ({ debit: sum.debit.plus(line.debit), credit: sum.credit.plus(line.credit) }), {
    debit: ZERO,
    credit: ZERO,
  });
}

/** Whether lines could be committed: two or more, each with exactly one positive side, balanced. */
export function isBalanced(lines: JournalLineDraft[]): boolean {
  const sum = totals(lines);
  return (
    lines.length >= 2 &&
    lines.every((l) => !l.debit.isNegative() && !l.credit.isNegative() && l.debit.isZero() !== l.credit.isZero()) &&
    sum.debit.isEqualTo(sum.credit)
  );
}
