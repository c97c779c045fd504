import { Decimal, roundToCents, ZERO } from '@ledger/core/posting';

/** A money figure as the reports answer it: a decimal string in whole cents (or paise). */
export const money = (amount: Decimal) => roundToCents(amount).toFixed(2);
/** A rate or share as a decimal string (up to 6 places, no trailing noise). */
export const ratio = (value: Decimal) => value.decimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed();
export const sum = (values: Decimal[]) => values.reduce((a, b) => a.plus(b), ZERO);

/**
 * Splits `total` over parts in proportion to `weights`, in cents, the last part taking the
 * remainder: the parts add up to the total exactly (a sale's proceeds over the lots it took).
 */
export function allocate(total: Decimal, weights: Decimal[]): Decimal[] {
  const whole = sum(weights);
  let given = ZERO;
  return weights.map((w, i) => {
    if (i === weights.length - 1) return total.minus(given);
    const part = whole.isZero() ? ZERO : roundToCents(total.times(w).dividedBy(whole));
    given = given.plus(part);
    return part;
  });
}

/** USD × INR-per-USD, in paise; null when the rate is missing. */
export const toInr = (usd: Decimal, rate: Decimal | null | undefined) =>
  rate == null ? null : roundToCents(usd.times(rate));
export const moneyOrNull = (amount: Decimal | null) => (amount === null ? null : money(amount));

/** Rows by key, each group in input order. */
export function groupBy<T>(rows: Iterable<T>, keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = keyOf(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}
