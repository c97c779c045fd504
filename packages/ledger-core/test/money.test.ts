import { expect } from 'chai';
import fc from 'fast-check';
import { parseDecimal, parseMoney } from '../src/domain/money.js';
import { Decimal, DECIMAL_RULE, formatDecimal, MONEY_RULE, roundToCents } from '../src/entry-points/posting.js';
import { expectLedgerError } from './helpers.js';

const digits = (min: number, max: number) =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));
const wireDecimal = fc
  .tuple(fc.oneof(digits(1, 3), digits(1, 18)), fc.option(digits(1, 8), { nil: undefined }))
  .map(([int, frac]) => (frac === undefined ? int : `${int}.${frac}`));
/** Any decimal, signed, of any size and precision (what arithmetic can produce). */
const anyDecimal = fc
  .tuple(fc.boolean(), digits(1, 40), fc.option(digits(1, 30), { nil: undefined }))
  .map(([negative, int, frac]) => new Decimal(`${negative ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}`));

describe('parseDecimal', () => {
  it('parses plain non-negative decimals of up to 18 integer digits and 8 decimal places exactly', () => {
    for (const [text, value] of [
      ['0', '0'],
      ['100', '100'],
      ['100.5', '100.5'],
      ['0.00000001', '0.00000001'],
      ['007.50', '7.5'],
      ['999999999999999999.99999999', '999999999999999999.99999999'],
    ]) {
      expect(parseDecimal(text!, 'amount').toFixed(), text).to.equal(value);
    }
  });

  it('parses every wire decimal to exactly the value it spells (property)', () => {
    fc.assert(
      fc.property(wireDecimal, (text) => {
        const [int, frac = ''] = text.split('.');
        const parsed = parseDecimal(text, 'amount');
        // Compare digit by digit with the text, so a float anywhere on the way would show.
        const [pInt, pFrac = ''] = parsed.toFixed(8).split('.');
        expect(pInt).to.equal(BigInt(int!).toString());
        expect(pFrac).to.equal(frac.padEnd(8, '0'));
      }),
    );
  });

  it('refuses exponents, signs, spaces, separators and more than 8 places with validation_error naming the field', async () => {
    for (const bad of [
      '1e5',
      '1E5',
      '-1',
      '+1',
      '-0',
      '1.123456789',
      'abc',
      '',
      ' 1',
      '1 ',
      '1.',
      '.5',
      '1,000',
      '1_000',
      '0x10',
      'NaN',
      'Infinity',
      '١٢',
      '1234567890123456789',
      '1\n',
    ]) {
      const error = await expectLedgerError(() => parseDecimal(bad, 'amount_usd'), 'validation_error');
      expect(error.details, JSON.stringify(bad)).to.deep.equal([
        { path: 'amount_usd', message: `must be ${DECIMAL_RULE}` },
      ]);
      expect(error.message).to.contain('amount_usd');
    }
  });
});

describe('parseMoney', () => {
  it('parses whole cents of up to 12 integer digits exactly, trailing zeros or not', () => {
    for (const [text, value] of [
      ['0', '0'],
      ['100', '100'],
      ['100.5', '100.5'],
      ['100.10', '100.1'],
      ['0.01', '0.01'],
      ['999999999999.99', '999999999999.99'],
    ]) {
      expect(parseMoney(text!, 'amount_usd').toFixed(), text).to.equal(value);
    }
  });

  it('refuses sub-cent amounts, a 13th integer digit, exponents and signs, saying the rule in words', async () => {
    for (const bad of [
      '10.123',
      '0.001',
      '0.00000001',
      '1000000000000',
      '1e5',
      '-1',
      '+1',
      'NaN',
      'Infinity',
      '',
      '.5',
      '1.',
    ]) {
      const error = await expectLedgerError(() => parseMoney(bad, 'amount_usd'), 'validation_error');
      expect(error.details, JSON.stringify(bad)).to.deep.equal([
        { path: 'amount_usd', message: `must be ${MONEY_RULE}` },
      ]);
      expect(error.message).to.equal(`amount_usd must be ${MONEY_RULE}`);
      expect(MONEY_RULE).to.contain('e.g. "10.00"');
    }
  });
});

describe('formatDecimal', () => {
  it('writes at least two decimal places and keeps any further ones', () => {
    for (const [value, text] of [
      ['0', '0.00'],
      ['1', '1.00'],
      ['100.5', '100.50'],
      ['0.1', '0.10'],
      ['12.34', '12.34'],
      ['0.125', '0.125'],
      ['1.50000', '1.50'],
      ['-5', '-5.00'],
      ['-0.5', '-0.50'],
      ['1234567.89', '1234567.89'],
    ]) {
      expect(formatDecimal(new Decimal(value!)), value).to.equal(text);
    }
  });

  it('never writes an exponent, however large or small the value', () => {
    expect(formatDecimal(new Decimal('1e30'))).to.equal(`1${'0'.repeat(30)}.00`);
    expect(formatDecimal(new Decimal('123456789012345678.12345678'))).to.equal('123456789012345678.12345678');
    expect(formatDecimal(new Decimal('0.00000001'))).to.equal('0.00000001');
    expect(formatDecimal(new Decimal('1e-20'))).to.equal('0.00000000000000000001');
    expect(formatDecimal(new Decimal('-1e-9'))).to.equal('-0.000000001');
    expect(formatDecimal(new Decimal(1).dividedBy(3))).to.equal(`0.${'3'.repeat(18)}`);
  });

  it('never groups digits', () => {
    expect(formatDecimal(new Decimal('1000000'))).to.equal('1000000.00');
  });

  it('round-trips: the text spells the same value, plainly, with two or more places (property)', () => {
    fc.assert(
      fc.property(anyDecimal, (value) => {
        const text = formatDecimal(value);
        expect(text).to.match(/^-?\d+\.\d{2,}$/);
        expect(new Decimal(text).isEqualTo(value), `${value.toFixed()} → ${text}`).to.equal(true);
      }),
    );
  });

  it('writes what parseDecimal reads back unchanged (property)', () => {
    fc.assert(
      fc.property(wireDecimal, (text) => {
        const value = parseDecimal(text, 'x');
        expect(parseDecimal(formatDecimal(value), 'x').isEqualTo(value)).to.equal(true);
      }),
    );
  });
});

describe('roundToCents', () => {
  const cents = (value: string) => roundToCents(new Decimal(value)).toFixed();

  it('rounds exactly half a cent up, not to even', () => {
    expect(cents('0.005')).to.equal('0.01');
    expect(cents('0.015')).to.equal('0.02');
    expect(cents('0.025')).to.equal('0.03');
    expect(cents('2.675')).to.equal('2.68');
    expect(cents('1000000000000000.125')).to.equal('1000000000000000.13');
  });

  it('rounds below half a cent down and above it up', () => {
    expect(cents('1.004999999')).to.equal('1');
    expect(cents('0.0049999999999999')).to.equal('0');
    expect(cents('1.00500000000000001')).to.equal('1.01');
    expect(cents('2.716032')).to.equal('2.72');
  });

  it('rounds a negative half cent away from zero', () => {
    expect(cents('-0.005')).to.equal('-0.01');
    expect(cents('-2.675')).to.equal('-2.68');
  });

  it('leaves whole cents alone', () => {
    expect(cents('12.30')).to.equal('12.3');
    expect(cents('0')).to.equal('0');
  });

  it('lands on the nearest cent, half up, for any amount (property)', () => {
    fc.assert(
      fc.property(anyDecimal, (value) => {
        const rounded = roundToCents(value);
        expect(rounded.decimalPlaces()).to.be.at.most(2);
        const diff = rounded.minus(value);
        expect(diff.abs().isLessThanOrEqualTo('0.005'), `${value.toFixed()} → ${rounded.toFixed()}`).to.equal(true);
        // A tie goes away from zero.
        if (diff.abs().isEqualTo('0.005')) expect(rounded.abs().isGreaterThan(value.abs())).to.equal(true);
      }),
    );
  });
});
