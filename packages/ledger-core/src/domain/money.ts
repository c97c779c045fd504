import BigNumberBase from 'bignumber.js';
import { LedgerError } from './errors.js';

/** The places a division keeps (rounded half to even): Decimal's configuration. */
export const DIVISION_PLACES = 18;

/** The one decimal type for money and quantities: never a JS number. */
export const Decimal = BigNumberBase.clone({
  DECIMAL_PLACES: DIVISION_PLACES,
  ROUNDING_MODE: BigNumberBase.ROUND_HALF_EVEN,
  EXPONENTIAL_AT: 1e9,
});
export type Decimal = BigNumberBase;

/**
 * Precision of what the ledger stores (the database refuses more, see migration
 * 20261125_refuse_non_finite_amounts): money, in USD or in the currency it arrived in (AED
 * fils), to the cent; quantities of securities to 8 places (fractional shares).
 */
export const MONEY_PLACES = 2;
export const QUANTITY_PLACES = 8;
/** A single amount of a trillion or more is a typo, not a payment. */
export const MONEY_INTEGER_DIGITS_MAX = 12;

/** Plain decimal: no sign, no exponent, at most 8 decimal places (quantities, rates, filters). */
const DECIMAL_PATTERN = new RegExp(`^\\d{1,18}(\\.\\d{1,${QUANTITY_PLACES}})?$`);
export const DECIMAL_PATTERN_SOURCE = DECIMAL_PATTERN.source;
/** Plain money: no sign, no exponent, whole cents. */
const MONEY_PATTERN = new RegExp(`^\\d{1,${MONEY_INTEGER_DIGITS_MAX}}(\\.\\d{1,${MONEY_PLACES}})?$`);
export const MONEY_PATTERN_SOURCE = MONEY_PATTERN.source;

/** What a person is told when a decimal string is refused: the rule and an example. */
export const DECIMAL_RULE = `a decimal string with up to ${QUANTITY_PLACES} places, no sign or exponent, e.g. "2.5"`;
export const MONEY_RULE = `a decimal string in whole cents (up to ${MONEY_PLACES} places, at most ${MONEY_INTEGER_DIGITS_MAX} digits before the point), no sign or exponent, e.g. "10.00"`;

export const ZERO = new Decimal(0);

/** Parses a non-negative decimal string (quantity, rate) from the wire; anything else is a validation error. */
export function parseDecimal(value: string, field: string): Decimal {
  if (!DECIMAL_PATTERN.test(value)) {
    throw new LedgerError('validation_error', `${field} must be ${DECIMAL_RULE}`, [
      { path: field, message: `must be ${DECIMAL_RULE}` },
    ]);
  }
  return new Decimal(value);
}

/** Parses a non-negative amount of money from the wire, in whole cents; anything else is a validation error. */
export function parseMoney(value: string, field: string): Decimal {
  if (!MONEY_PATTERN.test(value)) {
    throw new LedgerError('validation_error', `${field} must be ${MONEY_RULE}`, [
      { path: field, message: `must be ${MONEY_RULE}` },
    ]);
  }
  return new Decimal(value);
}

/** Rounds money to cents, half away from zero, as a bank statement would. */
export function roundToCents(amount: Decimal): Decimal {
  return amount.decimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** Zero as formatDecimal spells it: half of all journal amounts are a line's zero side. */
export const ZERO_CENTS = '0.00';

/** Decimal string with at least two decimal places ("100.00", "0.125"). */
export function formatDecimal(amount: Decimal): string {
  if (amount.isZero()) return ZERO_CENTS;
  // toString is plain notation here (EXPONENTIAL_AT is 1e9) and much cheaper than toFormat.
  const plain = amount.toString();
  const dot = plain.indexOf('.');
  if (dot === -1) return `${plain}.00`;
  return plain.length - dot === 2 ? `${plain}0` : plain;
}
