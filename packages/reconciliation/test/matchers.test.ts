import { Decimal } from '@ledger/core/posting';
import { expect } from 'chai';
import { matchCash, matchRemittancesToWires, matchShares, subsetAddingUpTo } from '../src/index.js';

const r = (order_id: string, amount_usd: string, remitted_on: string, settled_on: string | null = remitted_on) => ({
  order_id,
  customer_id: 'C-1',
  amount_usd,
  remitted_on,
  settled_on,
});
const w = (transfer_id: string, amount: string, value_date: string, status = 'completed', direction = 'IN') => ({
  transfer_id,
  direction,
  amount,
  status,
  value_date,
});

describe('matchers (pure)', () => {
  describe('matchRemittancesToWires', () => {
    it('a wire carries the first subset of the window’s remittances adding up to it, oldest first, each at its own USD, naming every order', () => {
      // A 6,990.00 and B 5,825.00 paid on the 5th and settled together on the 9th (one batch of 12,815.00:
      // each keeps its own USD); C 250.00 on the 6th; D 100.00 on the 7th. The 12,815.00 wire of the 6th
      // arrives before the batch settles and carries A + B; the 350.00 wire of the 8th is C + D.
      const tied = matchRemittancesToWires(
        [
          r('D', '100.00', '2026-01-07'),
          r('C', '250.00', '2026-01-06'),
          r('B', '5825.00', '2026-01-05', '2026-01-09'),
          r('A', '6990.00', '2026-01-05', '2026-01-09'),
        ],
        [w('W-2', '350.00', '2026-01-08'), w('W-1', '12815.00', '2026-01-06')],
        { windowDays: 3, asOf: '2026-01-20' },
      );
      expect(tied.wires).to.deep.equal([
        {
          transfer_id: 'W-1',
          amount_usd: '12815.00',
          value_date: '2026-01-06',
          status: 'matched',
          order_ids: ['A', 'B'],
        },
        {
          transfer_id: 'W-2',
          amount_usd: '350.00',
          value_date: '2026-01-08',
          status: 'matched',
          order_ids: ['C', 'D'],
        },
      ]);
      expect(tied.remittances.map((x) => [x.order_id, x.amount_usd, x.status, x.transfer_id, x.days])).to.deep.equal([
        ['A', '6990.00', 'matched', 'W-1', 1],
        ['B', '5825.00', 'matched', 'W-1', 1],
        ['C', '250.00', 'matched', 'W-2', 2],
        ['D', '100.00', 'matched', 'W-2', 1],
      ]);
      expect(tied.wired_usd.toFixed(2)).to.equal('13165.00');
    });

    it('the window ends RECON_TIE_OUT_DAY_WINDOW days after the later of the remittance’s date and its settlement’s', () => {
      // Paid Monday the 5th, settled Friday the 9th: a wire up to the 12th may carry it, not one of the 13th,
      // nor one valued before it was paid.
      const remittance = [r('A', '100.00', '2026-01-05', '2026-01-09')];
      const carried = (valueDate: string) =>
        matchRemittancesToWires(remittance, [w('W', '100.00', valueDate)], { windowDays: 3, asOf: '2026-02-01' })
          .remittances[0]!;
      expect(carried('2026-01-12')).to.deep.include({ status: 'matched', window_ends_on: '2026-01-12' });
      expect(carried('2026-01-13')).to.deep.include({ status: 'aged_in_transit', transfer_id: null });
      expect(carried('2026-01-04').status).to.equal('aged_in_transit');
      // Not settled yet: its window runs on from as_of, so it is in transit, never aged.
      const unsettled = matchRemittancesToWires([r('B', '100.00', '2026-01-05', null)], [], {
        windowDays: 3,
        asOf: '2026-02-01',
      }).remittances[0]!;
      expect(unsettled).to.deep.include({ status: 'in_transit', window_ends_on: '2026-02-04', days: 27 });
    });

    it('a wire no subset adds up to is unmatched_funding; a remittance left unwired names the unmatched wires of its window; only completed wires in count', () => {
      const tied = matchRemittancesToWires(
        [r('A', '100.00', '2026-03-01'), r('B', '70.00', '2026-03-08')],
        [
          w('W-1', '99.99', '2026-03-02'),
          w('W-2', '100.00', '2026-03-02', 'pending'),
          w('W-3', '100.00', '2026-03-02', 'completed', 'OUT'),
          w('W-4', '500.00', '2026-03-20'),
        ],
        { windowDays: 3, asOf: '2026-03-10' },
      );
      expect(tied.remittances.map((x) => [x.order_id, x.status, x.days, x.unmatched_wires])).to.deep.equal([
        ['A', 'aged_in_transit', 9, [{ transfer_id: 'W-1', amount_usd: '99.99', value_date: '2026-03-02' }]],
        ['B', 'in_transit', 2, []],
      ]);
      expect(tied.wires.map((x) => [x.transfer_id, x.status, x.order_ids])).to.deep.equal([
        ['W-1', 'unmatched_funding', []],
        ['W-4', 'unmatched_funding', []],
      ]);
      expect(tied.wired_usd.toFixed(2)).to.equal('599.99');
    });
  });

  describe('subsetAddingUpTo', () => {
    const items = (...amounts: string[]) => amounts.map((amount_usd, i) => ({ i, amount_usd }));
    it('finds the first subset in order (not only consecutive runs), none for an amount no subset reaches, none for zero', () => {
      expect(
        subsetAddingUpTo(items('5.00', '3.00', '2.00', '8.00'), new Decimal('10.00'))!.map((x) => x.i),
      ).to.deep.equal([0, 1, 2]);
      expect(subsetAddingUpTo(items('5.00', '4.00', '3.00'), new Decimal('8.00'))!.map((x) => x.i)).to.deep.equal([
        0, 2,
      ]);
      expect(subsetAddingUpTo(items('5.00', '3.00'), new Decimal('4.00'))).to.equal(null);
      expect(subsetAddingUpTo(items('5.00'), new Decimal('0'))).to.equal(null);
    });
    it('is bounded: past its steps it gives up (no match) rather than search on', () => {
      // 2.00 × 15 then 3.00, for 3.00: each 2.00 is tried and leads nowhere before the 3.00 is reached.
      const many = items(...Array.from({ length: 15 }, () => '2.00'), '3.00');
      expect(subsetAddingUpTo(many, new Decimal('3.00'), 10)).to.equal(null);
      expect(subsetAddingUpTo(many, new Decimal('3.00'))!.map((x) => x.i)).to.deep.equal([15]);
    });
  });

  it('matchShares and matchCash: match within the tolerance, else the status that says how', () => {
    const ledger = new Map([
      ['AAPL', new Decimal('10')],
      ['MSFT', new Decimal('1')],
    ]);
    const broker = new Map([
      ['AAPL', new Decimal('10.0001')],
      ['TSLA', new Decimal('2')],
    ]);
    expect(
      matchShares(ledger, broker, new Decimal('0.001')).map((s) => [s.symbol, s.status, s.difference]),
    ).to.deep.equal([
      ['AAPL', 'match', '0.0001'],
      ['MSFT', 'ledger_only', '-1'],
      ['TSLA', 'usbroker_only', '2'],
    ]);
    expect(matchShares(ledger, broker, new Decimal('0'))[0]!.status).to.equal('mismatch');
    expect(matchCash('10.00', '10.01', new Decimal('0'))).to.deep.equal({ status: 'mismatch', difference: '0.01' });
    expect(matchCash('10.00', '10.01', new Decimal('0.01'))).to.deep.equal({ status: 'match', difference: '0.01' });
  });
});
