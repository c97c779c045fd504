import {
  CALENDAR_DATE_PATTERN_SOURCE,
  CALENDAR_DATE_RULE,
  CUSTOMER_ID_PATTERN_SOURCE,
  CUSTOMER_ID_RULE,
  DECIMAL_PATTERN_SOURCE,
  DECIMAL_RULE,
  MONEY_PATTERN_SOURCE,
  MONEY_RULE,
  SYMBOL_PATTERN_SOURCE,
  SYMBOL_RULE,
} from '@ledger/core/posting';

/**
 * Every string pattern of the document with the rule a person reads when a value breaks it:
 * a refused field says "must be a decimal string in whole cents …", never a raw regex.
 */
export const PATTERNS = {
  decimal: { pattern: DECIMAL_PATTERN_SOURCE, rule: DECIMAL_RULE },
  positiveDecimal: {
    pattern: `^(?!0+(?:\\.0+)?$)${DECIMAL_PATTERN_SOURCE.slice(1)}`,
    rule: `${DECIMAL_RULE}, greater than zero`,
  },
  money: { pattern: MONEY_PATTERN_SOURCE, rule: MONEY_RULE },
  positiveMoney: {
    pattern: `^(?!0+(?:\\.0+)?$)${MONEY_PATTERN_SOURCE.slice(1)}`,
    rule: `${MONEY_RULE}, greater than zero`,
  },
  amount: { pattern: '^[0-9]+(\\.[0-9]+)?$', rule: 'a non-negative decimal string, e.g. "100.00"' },
  signedAmount: { pattern: '^-?[0-9]+(\\.[0-9]+)?$', rule: 'a decimal string, e.g. "-100.00"' },
  // With `format: date` (checked in full: the day exists), the domain's isCalendarDate.
  date: { pattern: CALENDAR_DATE_PATTERN_SOURCE, rule: CALENDAR_DATE_RULE },
  uuid: {
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    rule: 'a UUID in its plain form, e.g. "0190c2d4-6c1e-7a2b-9f00-000000000000"',
  },
  customerId: { pattern: CUSTOMER_ID_PATTERN_SOURCE, rule: CUSTOMER_ID_RULE },
  printable: { pattern: '^[\\x21-\\x7E]+$', rule: 'printable ASCII without spaces, e.g. "C-1"' },
  accountCode: { pattern: '^[0-9]{4}$', rule: 'a four-digit account code of the chart, e.g. "1010"' },
  postingKind: {
    pattern: '^[a-z][a-z0-9_]{0,63}$',
    rule: 'a snake_case word of up to 64 characters, e.g. "fx_spread"',
  },
  symbol: { pattern: SYMBOL_PATTERN_SOURCE, rule: SYMBOL_RULE },
  category: {
    pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$',
    rule: 'a word of up to 64 letters, digits, "_", ".", ":" or "-", e.g. "funding"',
  },
  currencyCode: { pattern: '^[A-Z]{3}$', rule: 'a three-letter ISO 4217 currency code, e.g. "AED"' },
  lineId: { pattern: '^[0-9]+$', rule: 'a whole number as a string' },
  searchText: { pattern: '^[^\\x00-\\x1F]+$', rule: 'text without control characters' },
} as const;

const RULE_BY_PATTERN = new Map<string, string>(Object.values(PATTERNS).map(({ pattern, rule }) => [pattern, rule]));

const FORMAT_RULES: Record<string, string> = {
  date: CALENDAR_DATE_RULE,
  'date-time': 'an ISO-8601 timestamp, e.g. "2026-01-15T10:00:00Z"',
  uuid: PATTERNS.uuid.rule,
  email: 'an email address',
};

/** The validator's message for a broken rule, in words: patterns and formats by what they accept. */
export function ruleInWords(message: string): string {
  const pattern = /^must match pattern "(.*)"$/s.exec(message)?.[1];
  if (pattern !== undefined)
    return `must be ${RULE_BY_PATTERN.get(pattern) ?? 'in the form this field accepts (see the API docs)'}`;
  const format = /^must match format "(.*)"$/.exec(message)?.[1];
  if (format !== undefined) return `must be ${FORMAT_RULES[format] ?? format}`;
  return message;
}
