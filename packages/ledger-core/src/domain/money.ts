import BigNumberBase from 'bignumber.js';
import { LedgerError } from './errors.js';

/** The one decimal type for money and quantities: never a JS number. */
export const Decimal = BigNumberBase.clone({
  DECIMAL_PLACES: 18,
  ROUNDING_MODE: BigNumberBase.ROUND_HALF_EVEN,
  EXPONENTIAL_AT: 1e9,
});
export type Decimal = BigNumberBase;

/** Plain decimal: no sign, no exponent, at most 8 decimal places. */
const DECIMAL_PATTERN = /^\d{1,18}(\.\d{1,8})?$/;
export const DECIMAL_PATTERN_SOURCE = DECIMAL_PATTERN.source;

export const ZERO = new Decimal(0);

/** Parses a non-negative decimal string from the wire; anything else is a validation error. */
export function parseDecimal(value: string, field: string): Decimal {
  if (!DECIMAL_PATTERN.test(value)) {
    throw new LedgerError('validation_error', `${field} must be a decimal string like "100.00"`, [{ field, value }]);
  }
  return new Decimal(value);
}

/** Rounds money to cents, half away from zero, as a bank statement would. */
export function roundToCents(amount: Decimal): Decimal {
  return amount.decimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** Decimal string with at least two decimal places ("100.00", "0.125"). */
export function formatDecimal(amount: Decimal): string {
  // toString is plain notation here (EXPONENTIAL_AT is 1e9) and much cheaper than toFormat.
  const plain = amount.toString();
  const dot = plain.indexOf('.');
  if (dot === -1) return `${plain}.00`;
  return plain.length - dot === 2 ? `${plain}0` : plain;
}
