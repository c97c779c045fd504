import { assert } from '../errors.js';
import type { JournalLineDraft, Leg } from './types.js';
import { ZERO } from '../money.js';

/**
 * Turns legs into journal lines: each leg is one debit and one credit of the same amount, so
 * the result balances by construction. A zero leg (a fee of nothing) posts no lines.
 */
export function linesFromLegs(legs: Leg[]): JournalLineDraft[] {
  const lines: JournalLineDraft[] = [];
  for (const leg of legs) {
    assert(!leg.amount.isNegative(), `leg ${leg.postingKind} has a negative amount`);
    if (leg.amount.isZero()) continue;
    lines.push({ accountCode: leg.debit, debit: leg.amount, credit: ZERO, postingKind: leg.postingKind });
    lines.push({ accountCode: leg.credit, debit: ZERO, credit: leg.amount, postingKind: leg.postingKind });
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
