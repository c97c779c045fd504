import { expect } from 'chai';
import { linesKey, linesOfKey } from '../src/domain/lines-key.js';
import { Decimal } from '../src/entry-points/posting.js';
import { JOURNAL_LINES } from '../src/store/columns/journal-lines.js';

const line = (accountCode: string, debit: string, credit: string, postingKind: string | null) => ({
  accountCode,
  debit: new Decimal(debit),
  credit: new Decimal(credit),
  postingKind,
});

describe('the key lines are compared by (pure)', () => {
  it('spells amounts without trailing zeros and sorts the lines, so equal lines give one key whatever their order or scale', () => {
    const a = [line('5010', '1.50', '0', 'broker_cost'), line('2340', '0.00', '1.5', 'broker_cost')];
    const b = [line('2340', '0', '1.500', 'broker_cost'), line('5010', '1.5', '0.0', 'broker_cost')];
    expect(linesKey(a)).to.equal('2340|0|1.5|11:broker_cost;5010|1.5|0|11:broker_cost');
    expect(linesKey(b)).to.equal(linesKey(a));
    expect(linesKey([line('5010', '1.51', '0', 'broker_cost'), line('2340', '0', '1.51', 'broker_cost')])).to.not.equal(
      linesKey(a),
    );
  });

  it('tells a missing kind from an empty one, and a kind holding the separators from lines split differently', () => {
    expect(linesKey([line('1100', '1', '0', null)])).to.not.equal(linesKey([line('1100', '1', '0', '')]));
    const tricky = [line('1100', '1', '0', 'a;1100|0|1|'), line('2010', '0', '1', null)];
    const plain = [line('1100', '1', '0', 'a'), line('1100', '0', '1', null), line('2010', '0', '1', null)];
    expect(linesKey(tricky)).to.not.equal(linesKey(plain));
  });

  it('gives back the lines it was made of (kinds with separators and beyond U+FFFF included), which a superseding reversal posts', () => {
    const lines = [
      line('2100', '10', '0', 'cost_relief'),
      line('1200', '0', '10', null),
      line('9999', '0.01', '0', 'x|y;😀:é'),
    ];
    const back = linesOfKey(linesKey(lines));
    expect(back.map((l) => [l.accountCode, l.debit.toFixed(2), l.credit.toFixed(2), l.postingKind])).to.deep.equal([
      ['1200', '0.00', '10.00', null],
      ['2100', '10.00', '0.00', 'cost_relief'],
      ['9999', '0.01', '0.00', 'x|y;😀:é'],
    ]);
    expect(linesOfKey('')).to.deep.equal([]);
  });

  it('holds every fact of a journal line, and only those (the store spells the same four)', () => {
    const facts = Object.entries(JOURNAL_LINES)
      .filter(([, c]) => c.fact)
      .map(([name]) => name);
    expect(facts).to.deep.equal(['account_code', 'debit', 'credit', 'posting_kind']);
  });
});

describe('the order lines are sorted in', () => {
  it('is code point order, as Postgres’ "C" collation sorts UTF-8: a character past U+FFFF after one of U+E000–U+FFFF', () => {
    const kinds = ['\uffff', '😀', 'z', 'é', 'a'];
    const key = linesKey(kinds.map((k) => line('1000', '1', '0', k)));
    expect(linesOfKey(key).map((l) => l.postingKind)).to.deep.equal(['a', 'z', 'é', '\uffff', '😀']);
  });
});
