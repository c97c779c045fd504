import { nativeCurrencyOf } from '../accounts.js';
import { assert } from '../errors.js';
import type { JournalLineDraft, Leg } from './types.js';
import { type Decimal, ZERO } from '../money.js';

/** One side of a leg as a line: an AED account's carries the leg's AED amount (its absence is a bug: asserted). */
function lineOf(leg: Leg, accountCode: string, debit: Decimal, credit: Decimal): JournalLineDraft {
  if (nativeCurrencyOf(accountCode) === null) return { accountCode, debit, credit, postingKind: leg.postingKind };
  assert(
    leg.nativeAmount !== undefined && leg.nativeAmount.isGreaterThan(0),
    `leg ${leg.postingKind} moves AED account ${accountCode} without its AED amount`,
  );
  return { accountCode, debit, credit, postingKind: leg.postingKind, nativeAmount: leg.nativeAmount };
}

/**
 * Turns legs into journal lines: each leg is one debit and one credit of the same amount, so
 * the result balances by construction. A zero leg (a fee of nothing) posts no lines.
 */
export function linesFromLegs(legs: Leg[]): JournalLineDraft[] {
  const lines: JournalLineDraft[] = [];
  for (const leg of legs) {
    assert(!leg.amount.isNegative(), `leg ${leg.postingKind} has a negative amount`);
    if (leg.amount.isZero()) continue;
    lines.push(lineOf(leg, leg.debit, leg.amount, ZERO), lineOf(leg, leg.credit, ZERO, leg.amount));
  }
  return lines;
}

/**
 * Debit and credit totals of some lines (a loop: bulk posting sums every line of every draft; a
 * line's zero side is not added, halving the decimal additions).
 */
export function totals(lines: JournalLineDraft[]): { debit: Decimal; credit: Decimal } {
  let debit = ZERO;
  let credit = ZERO;
  for (const line of lines) {
    if (!line.debit.isZero()) debit = debit.plus(line.debit);
    if (!line.credit.isZero()) credit = credit.plus(line.credit);
  }
  return { debit, credit };
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
