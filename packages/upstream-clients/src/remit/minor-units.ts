/**
 * remit sends amounts as integers in minor units (paise, cents); we hand on decimal strings in
 * major units. The conversion is on digits (bigint and string), never through a float.
 */

/**
 * ISO 4217 minor-unit exponents of the currencies a remittance may name. A currency missing
 * here is refused at the boundary rather than guessed (an exponent of 2 would misread a
 * three-decimal currency by a factor of ten).
 */
export const REMIT_CURRENCY_EXPONENTS: Readonly<Record<string, number>> = {
  INR: 2,
  USD: 2,
  EUR: 2,
  GBP: 2,
  AED: 2,
  SGD: 2,
  CAD: 2,
  AUD: 2,
  NZD: 2,
  CHF: 2,
  HKD: 2,
  JPY: 0,
  BHD: 3,
  KWD: 3,
  OMR: 3,
};

export function isKnownCurrency(currency: string): boolean {
  return Object.hasOwn(REMIT_CURRENCY_EXPONENTS, currency);
}

/**
 * `minorToDecimal(123456789012345, 'INR')` → `"1234567890123.45"`; `(1, 'INR')` → `"0.01"`;
 * `(5, 'JPY')` → `"5"`. `minor` is a whole number ≥ 0 (a safe integer when a number: JSON
 * numbers above 2^53 have already lost digits, so the boundary refuses them).
 */
export function minorToDecimal(minor: number | bigint, currency: string): string {
  const exponent = REMIT_CURRENCY_EXPONENTS[currency];
  if (exponent === undefined) throw new RangeError(`no minor-unit exponent for currency ${currency}`);
  if (typeof minor === 'number' && !Number.isSafeInteger(minor))
    throw new RangeError('minor units must be a safe integer');
  const units = BigInt(minor);
  if (units < 0n) throw new RangeError('minor units must not be negative');
  if (exponent === 0) return units.toString();
  const digits = units.toString().padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}
