/**
 * Pools of hostile values. Nothing here knows the API: the generators keep, for each place, only
 * the values the document (or storability) certainly refuses there.
 */

export const UUID_SAMPLE = '0190c2d4-6c1e-7a2b-9f00-00000000f00d';

/** Strings: numbers spelt wrong, dates, ids, encodings, injections, lengths. */
export const BAD_STRINGS: readonly string[] = [
  '',
  ' ',
  'x',
  // numbers spelt every way but the contract's
  '1e309',
  '-1e309',
  'Infinity',
  '-Infinity',
  'NaN',
  '1e5',
  '1E2',
  '-1',
  '-0',
  '+1',
  '-100.00',
  '0x10',
  '0b11',
  '１０',
  '１００.００',
  '1,000.00',
  '1_000',
  '1.',
  '.5',
  ' 100.00',
  '100.00 ',
  '100.00\n',
  '100.001000001',
  '0.000000001',
  '0.001',
  '9'.repeat(400),
  `0.${'0'.repeat(300)}1`,
  '9'.repeat(19),
  `1.${'0'.repeat(9)}`,
  '٣',
  // dates
  '2026-02-30',
  '2025-02-29',
  '0000-01-01',
  '2026-1-1',
  '99999-01-01',
  '2026-13-01',
  '2026-00-10',
  '2026-01-32',
  '1899-12-31',
  '2200-01-01',
  '2026-01-15T00:00:00Z',
  '20260115',
  '2026/01/15',
  '15-01-2026',
  '２０２６-01-15',
  // ids
  `urn:uuid:${UUID_SAMPLE}`,
  UUID_SAMPLE.toUpperCase(),
  `{${UUID_SAMPLE}}`,
  UUID_SAMPLE.replace(/-/g, ''),
  `${UUID_SAMPLE}0`,
  UUID_SAMPLE.slice(0, -1),
  UUID_SAMPLE.replace('f00d', 'g00d'),
  'not-a-uuid',
  '../../etc/passwd',
  '%00',
  // enums and codes, almost right
  'DEPOSIT',
  'Deposit',
  'deposit ',
  'reversal',
  'ledger',
  'usd',
  'EUR',
  'XXXX',
  '101',
  '10100',
  'abcd',
  '１０１０',
  'Fx_Spread',
  '_kind',
  // emails
  'not-an-email',
  'a@',
  '@b.c',
  // what the database cannot store
  '\u0000',
  'a\u0000b',
  '\uD800',
  'a\uDFFFb',
  '\uDBFF\uDBFF',
  // odd characters
  'é',
  '😀',
  '\u202Eevil',
  'tab\there',
  'line\nbreak',
  '\u007F',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  // lengths
  'x'.repeat(129),
  'x'.repeat(257),
  'x'.repeat(1_001),
  'y'.repeat(20_000),
];

function nested(depth: number, leaf: unknown, wrap: (inner: unknown) => unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

/** JSON values of every other type, and some shapes. */
export const BAD_NON_STRINGS: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1,
  1.5,
  100,
  -0.01,
  1e300,
  -1e300,
  5e-324,
  2 ** 53 + 2,
  [],
  [null],
  ['100.00'],
  {},
  { $gt: '' },
  { 0: 'a' },
  nested(40, 1, (inner) => [inner]),
  nested(40, 'x', (inner) => ({ a: inner })),
];

/** Objects a free-form object (e.g. `metadata`) cannot hold. */
export function badFreeFormObjects(): unknown[] {
  const manyKeys = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]));
  const tenThousandKeys = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]));
  return [
    { note: '\u0000' },
    { note: 'a\u0000' },
    { '\u0000': 1 },
    { '\uD800': 'x' },
    { note: '\uDFFF' },
    { inner: { deeper: ['ok', 'bad\u0000'] } },
    manyKeys,
    tenThousandKeys,
    nested(1_000, 'x', (inner) => ({ a: inner })),
    nested(1_000, 1, (inner) => [inner]),
  ];
}

export const ALL_BAD_VALUES: readonly unknown[] = [...BAD_STRINGS, ...BAD_NON_STRINGS];

/** Keys a body should never carry (and some it almost carries). */
export const ODD_KEYS: readonly string[] = [
  'unexpected',
  '__proto__',
  'constructor',
  'prototype',
  '',
  ' ',
  'TXN_TYPE',
  'txn_type ',
  'amount_usd\u0000',
  '\uD800',
  'k'.repeat(300),
];

/** Raw JSON number spellings (valid or not as JSON) for a place that wants a string. */
export const RAW_NUMBERS: readonly string[] = [
  '1e309',
  '-1e309',
  '1E400',
  '1e-400',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0x10',
  '00',
  '.5',
  '+1',
  '100.00',
  '123456789012345678901234567890',
];

/** Invalid UTF-8 byte sequences (lone continuation, 0xFF, overlong NUL, CESU-8 surrogate, truncated). */
export const INVALID_UTF8: readonly Buffer[] = [
  Buffer.from([0xff]),
  Buffer.from([0x80]),
  Buffer.from([0xc0, 0x80]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xe2, 0x82]),
];

/** Limit/offset spellings: bad ones and odd ones (a validator may coerce them). */
export const INTEGER_SPELLINGS: readonly string[] = [
  '1e309',
  'Infinity',
  '-Infinity',
  'NaN',
  '-1',
  '0',
  '501',
  '1.5',
  '',
  '1e5',
  '1e7',
  '１０',
  '0x10',
  '0b11',
  '0o7',
  '9'.repeat(400),
  `0.${'0'.repeat(300)}1`,
  '1e-400',
  '-0',
  'abc',
  '10abc',
  ' ',
  ' 10',
  '10 ',
  '+10',
  '010',
  '1e2',
  '1.0',
  '10.',
  'true',
  'null',
  '[]',
  '{}',
  '9007199254740993',
  '1000001',
  '1,5',
];
