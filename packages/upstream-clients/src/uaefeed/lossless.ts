import { isLosslessNumber, parse, type LosslessNumber } from 'lossless-json';
import { z } from 'zod';

/**
 * uaefeed sends amounts as JSON NUMBERS. JSON.parse would turn `0.1`, `1e21` or an 18-digit
 * integer into a float and lose digits, so bodies are parsed with lossless-json (every number
 * kept as its source text) and each number is validated into a plain decimal string here.
 */

/** The body as lossless-json reads it: numbers are LosslessNumber (their text), never floats. */
export function parseLossless(text: string): unknown {
  return parse(text);
}

const PLAIN_DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;
const JSON_NUMBER = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** A JSON number's exponent beyond this is not an amount: refuse rather than build a huge string. */
const EXPONENT_MAX = 100;

/**
 * A JSON number's text as a plain decimal string, exactly: `1e21` → `1000000000000000000000`,
 * `1.5E-3` → `0.0015`, `-0` → `0`. Plain decimals come back as they were (`100.50` stays).
 * Null when the text is not a JSON number or its exponent is out of range.
 */
export function jsonNumberToDecimal(text: string): string | null {
  if (PLAIN_DECIMAL.test(text)) return text === '-0' ? '0' : text;
  const match = JSON_NUMBER.exec(text);
  if (match === null) return null;
  const [, sign = '', intPart = '0', fracPart = '', expText = '0'] = match;
  const exponent = Number(expText);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > EXPONENT_MAX) return null;
  const digits = intPart + fracPart;
  // Where the decimal point falls in `digits` once the exponent is applied.
  const point = intPart.length + exponent;
  let whole: string;
  let fraction: string;
  if (point <= 0) {
    whole = '0';
    fraction = '0'.repeat(-point) + digits;
  } else if (point >= digits.length) {
    whole = digits + '0'.repeat(point - digits.length);
    fraction = '';
  } else {
    whole = digits.slice(0, point);
    fraction = digits.slice(point);
  }
  whole = whole.replace(/^0+(?=\d)/, '');
  const out = fraction === '' ? whole : `${whole}.${fraction}`;
  const isZero = /^[0.]*$/.test(out);
  return isZero || sign === '' ? out : `-${out}`;
}

const losslessNumber = z.custom<LosslessNumber>((value) => isLosslessNumber(value), {
  message: 'expected a JSON number',
});

/** A JSON number (never a string) as an exact plain decimal string. */
export const decimalNumber = losslessNumber.transform((value, ctx) => {
  const decimal = jsonNumberToDecimal(value.value);
  if (decimal === null) {
    ctx.addIssue({ code: 'custom', message: 'expected a JSON number within range' });
    return z.NEVER;
  }
  return decimal;
});

/** A JSON number that must be a safe integer (a year, a month, epoch milliseconds). */
export const integerNumber = losslessNumber.transform((value, ctx) => {
  const decimal = jsonNumberToDecimal(value.value);
  const integer = decimal !== null && /^-?\d+$/.test(decimal) ? Number(decimal) : Number.NaN;
  if (!Number.isSafeInteger(integer)) {
    ctx.addIssue({ code: 'custom', message: 'expected an integer JSON number' });
    return z.NEVER;
  }
  return integer;
});

/** An identifier sent as a string or, by some endpoints, as a number: kept as its exact text. */
export const identifier = z.union([z.string().min(1), losslessNumber.transform((value) => value.value)], {
  message: 'expected an identifier (string or number)',
});

const UAEFEED_DATE = /^(\d{4})([-/])(\d{2})\2(\d{2})$/;

/**
 * A date as uaefeed writes it (`YYYY/MM/DD` in statements, `YYYY-MM-DD` on our endpoints),
 * normalised to `YYYY-MM-DD`; a date that is not on the calendar (`2026/02/30`) is refused.
 */
export const uaefeedDate = z.string().transform((value, ctx) => {
  const match = UAEFEED_DATE.exec(value);
  const iso = match === null ? null : `${match[1]}-${match[3]}-${match[4]}`;
  if (iso === null || !isCalendarDate(iso)) {
    ctx.addIssue({ code: 'custom', message: 'expected a date YYYY/MM/DD or YYYY-MM-DD' });
    return z.NEVER;
  }
  return iso;
});

export function isCalendarDate(iso: string): boolean {
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso;
}
