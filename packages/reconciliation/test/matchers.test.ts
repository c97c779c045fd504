import { Decimal } from '@ledger/core';
import { expect } from 'chai';
import { matchCash, matchRemittancesToWires, matchShares, subsetAddingUpTo } from '../src/index.js';

const r = (order_id: string, amount_usd: string, remitted_on: string) => ({
  order_id,
  customer_id: 'C-1',
  amount_usd,
  remitted_on,
});
const w = (transfer_id: string, amount: string, value_date: string, status = 'completed') => ({
  transfer_id,
  direction: 'IN',
  amount,
  status,
  value_date,
});

describe('matchers (pure)', () => {
  describe('matchRemittancesToWires', () => {
    it('a wire carries the first subset of the window’s remittances adding up to it, oldest first, naming every order', () => {
      // A 100.00 and B 40.00 on the 2nd, C 250.00 on the 3rd, D 60.00 on the 4th; the 350.00 wire of the 5th
      // is A + C (no run of consecutive ones adds up to it); the 100.00 wire of the same day takes what is left, B + D.
      const tied = matchRemittancesToWires(
        [
          r('D', '60.00', '2026-03-04'),
          r('C', '250.00', '2026-03-03'),
          r('B', '40.00', '2026-03-02'),
          r('A', '100.00', '2026-03-02'),
        ],
        [w('W-2', '100.00', '2026-03-05'), w('W-1', '350.00', '2026-03-05')],
        { windowDays: 3, today: '2026-03-06' },
      );
      expect(tied.wires).to.deep.equal([
        {
          transfer_id: 'W-1',
          amount_usd: '350.00',
          value_date: '2026-03-05',
          status: 'matched',
          order_ids: ['A', 'C'],
        },
        {
          transfer_id: 'W-2',
          amount_usd: '100.00',
          value_date: '2026-03-05',
          status: 'matched',
          order_ids: ['B', 'D'],
        },
      ]);
      expect(tied.remittances.map((x) => [x.order_id, x.status, x.transfer_id, x.days])).to.deep.equal([
        ['A', 'matched', 'W-1', 3],
        ['B', 'matched', 'W-2', 3],
        ['C', 'matched', 'W-1', 2],
        ['D', 'matched', 'W-2', 1],
      ]);
    });

    it('a wire no subset adds up to is unmatched_funding; an unwired remittance is in transit within the window, aged after; only completed wires in count', () => {
      const tied = matchRemittancesToWires(
        [r('A', '100.00', '2026-03-01'), r('B', '70.00', '2026-03-08')],
        [w('W-1', '99.99', '2026-03-02'), w('W-2', '100.00', '2026-03-02', 'pending')],
        { windowDays: 3, today: '2026-03-10' },
      );
      expect(tied.remittances.map((x) => [x.order_id, x.status, x.days])).to.deep.equal([
        ['A', 'aged_in_transit', 9],
        ['B', 'in_transit', 2],
      ]);
      expect(tied.wires.map((x) => [x.transfer_id, x.status, x.order_ids])).to.deep.equal([
        ['W-1', 'unmatched_funding', []],
      ]);
      expect(tied.wiredUsd.toFixed(2)).to.equal('99.99');
    });

    it('a remittance dated after the wire, or more than the window before it, is not carried by it', () => {
      const tied = matchRemittancesToWires(
        [r('A', '50.00', '2026-03-05'), r('B', '50.00', '2026-02-27')],
        [w('W-1', '50.00', '2026-03-04')],
        { windowDays: 3, today: '2026-03-05' },
      );
      expect(tied.wires[0]!.status).to.equal('unmatched_funding');
    });
  });

  describe('subsetAddingUpTo', () => {
    const items = (...amounts: string[]) => amounts.map((amount_usd, i) => ({ i, amount_usd }));
    it('finds the first subset in order, none for an amount no subset reaches, none for zero', () => {
      expect(
        subsetAddingUpTo(items('5.00', '3.00', '2.00', '8.00'), new Decimal('10.00'))!.map((x) => x.i),
      ).to.deep.equal([0, 1, 2]);
      expect(subsetAddingUpTo(items('5.00', '3.00'), new Decimal('4.00'))).to.equal(null);
      expect(subsetAddingUpTo(items('5.00'), new Decimal('0'))).to.equal(null);
    });
    it('is bounded: past its steps it gives up (none) rather than search on', () => {
      // 2.00 × 15 then 3.00, for 3.00: each 2.00 is tried first and leads nowhere (about 30 steps) before the 3.00.
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
    expect(matchCash('10.00', '10.01', new Decimal('0'))).to.deep.equal({ status: 'mismatch', difference: '-0.01' });
    expect(matchCash('10.00', '10.01', new Decimal('0.01'))).to.deep.equal({ status: 'match', difference: '-0.01' });
  });
});
