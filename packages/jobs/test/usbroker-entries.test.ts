import { Decimal, draftFromEntry, FeeSchedule, roundToCents } from '@ledger/core/posting';
import type { UsbrokerOrder } from '@ledger/upstream-clients';
import { expect } from 'chai';
import {
  buyCost,
  dividendEntry,
  dividendEvent,
  feeEntry,
  orderEntry,
  orderOfTrade,
  sellProceeds,
  tradeFees,
  utcDate,
  wireEntry,
  withholdingEntry,
} from '../src/india/usbroker-entries.js';
import type { Mapped } from '../src/kit/posting-kit.js';
import { DIV, DIVNRA, order, TRD, wire } from './usbroker-support.js';

const BPS = new Decimal(22);

function entryOf(mapped: Mapped) {
  if (mapped.kind !== 'entry')
    throw new Error(`expected an entry, got ${mapped.kind}: ${JSON.stringify(mapped.reason)}`);
  return mapped.entry;
}

/** The journal lines an entry posts, as [account, debit, credit]. */
function linesOf(mapped: Mapped): Array<[string, string, string]> {
  return draftFromEntry(entryOf(mapped), '00000000-0000-7000-8000-000000000001', {
    feeSchedule: new FeeSchedule(BPS),
  }).lines.map((l) => [l.accountCode, l.debit.toFixed(2), l.credit.toFixed(2)]);
}

describe('usbroker records as ledger entries (pure)', () => {
  describe('funding wires', () => {
    it('posts a completed IN wire as a deposit of its amount, keyed by its transfer id, on its value date', () => {
      const entry = entryOf(wireEntry(wire(), 'IND-1'));
      expect(entry).to.include({
        txn_type: 'deposit',
        customer_id: 'IND-1',
        source: 'usbroker',
        source_txn_id: 'WIR-1',
        txn_date: '2026-01-06',
        amount_usd: '2500.00',
      });
      expect(linesOf(wireEntry(wire(), 'IND-1'))).to.deep.equal([
        ['1100', '2500.00', '0.00'],
        ['2010', '0.00', '2500.00'],
      ]);
    });

    it('posts a completed OUT wire as a withdrawal: Dr 2010 / Cr 1100', () => {
      const mapped = wireEntry(wire({ direction: 'OUT', amount: '400.00' }), 'IND-1');
      expect(entryOf(mapped).txn_type).to.equal('withdrawal');
      expect(linesOf(mapped)).to.deep.equal([
        ['2010', '400.00', '0.00'],
        ['1100', '0.00', '400.00'],
      ]);
    });

    it('posts nothing for a pending or returned wire, and refuses a wire not in USD', () => {
      expect(wireEntry(wire({ status: 'pending' }), 'IND-1')).to.deep.equal({
        kind: 'skipped',
        reason: { code: 'moved_nothing', detail: { status: 'pending' } },
      });
      expect(wireEntry(wire({ status: 'returned', direction: 'OUT' }), 'IND-1')).to.deep.equal({
        kind: 'skipped',
        reason: { code: 'moved_nothing', detail: { status: 'returned' } },
      });
      expect(wireEntry(wire({ currency: 'EUR' }), 'IND-1').kind).to.equal('rejected');
    });
  });

  describe('executed orders', () => {
    it('a buy of 10 at 187.45 (1,874.50 executed, 22 bps): the shares cost 1,870.39 and the fee is 4.11, so the wallet pays exactly 1,874.50', () => {
      const mapped = orderEntry(order(), 'IND-1', 'USB-1', BPS);
      expect(entryOf(mapped)).to.deep.include({
        txn_type: 'buy_security',
        source_txn_id: 'ORD-1',
        txn_date: '2026-01-07',
        symbol: 'AAPL',
        quantity: '10',
        amount_usd: '1870.39',
        fee_usd: '4.11',
        metadata: {
          usbroker_account_no: 'USB-1',
          cost_type: 'quantity',
          executed_usd: '1874.50',
          brokerage_bps: '22',
          executed_at: '2026-01-07T14:30:02.000Z',
        },
      });
      expect(linesOf(mapped)).to.deep.equal([
        ['1200', '1870.39', '0.00'],
        ['1100', '0.00', '1870.39'],
        ['2010', '1870.39', '0.00'],
        ['2100', '0.00', '1870.39'],
        ['2010', '4.11', '0.00'],
        ['4010', '0.00', '4.11'],
      ]);
    });

    it('a sell of 5 at 190.12 (950.60 executed, 22 bps) posts proceeds of 952.70: recost’s fee of 2.10 leaves the wallet exactly 950.60', () => {
      const mapped = orderEntry(
        order({ side: 'SELL', qty: '5', filled_qty: '5', avg_fill_price: '190.12' }),
        'IND-1',
        'USB-1',
        BPS,
      );
      const entry = entryOf(mapped);
      expect(entry).to.deep.include({ txn_type: 'sell_security', amount_usd: '952.70', quantity: '5' });
      expect(entry.metadata).to.include({ brokerage_bps: '22', executed_usd: '950.60' });
      expect(linesOf(mapped)).to.deep.equal([
        ['1100', '952.70', '0.00'],
        ['2010', '0.00', '952.70'],
      ]);
      expect(roundToCents(new Decimal('952.70').times(22).dividedBy(10_000)).toFixed(2)).to.equal('2.10');
    });

    it('a fractional full-portfolio-cost buy: the executed amount is filled_qty × avg_fill_price rounded half up to cents', () => {
      const mapped = orderEntry(
        order({
          cost_type: 'full_portfolio_cost',
          qty: null,
          notional: '20.00',
          filled_qty: '0.123457',
          avg_fill_price: '161.990001',
        } as Partial<UsbrokerOrder>),
        'IND-1',
        'USB-1',
        BPS,
      );
      const entry = entryOf(mapped);
      expect(entry.metadata).to.include({ executed_usd: '20.00', cost_type: 'full_portfolio_cost' });
      expect(new Decimal(entry.amount_usd).plus(entry.fee_usd!).toFixed(2)).to.equal('20.00');
      expect(entry.quantity).to.equal('0.123457');
    });

    it('a partially filled order posts its filled part; a cancelled, rejected or unfilled one posts nothing', () => {
      expect(
        entryOf(
          orderEntry(
            order({ status: 'partially_filled', qty: '10', filled_qty: '4', avg_fill_price: '187.45' }),
            'IND-1',
            'USB-1',
            BPS,
          ),
        ),
      ).to.include({ quantity: '4', amount_usd: '748.15', fee_usd: '1.65' });
      expect(
        orderEntry(
          order({ status: 'cancelled', filled_qty: '0', avg_fill_price: null, filled_at: null }),
          'IND-1',
          'USB-1',
          BPS,
        ),
      ).to.deep.equal({ kind: 'skipped', reason: { code: 'nothing_executed', detail: { status: 'cancelled' } } });
      expect(
        orderEntry(
          order({ status: 'rejected', filled_qty: '0', avg_fill_price: null, filled_at: null }),
          'IND-1',
          'USB-1',
          BPS,
        ).kind,
      ).to.equal('skipped');
      expect(
        orderEntry(
          order({ status: 'partially_filled', filled_qty: '0', avg_fill_price: null, filled_at: null }),
          'IND-1',
          'USB-1',
          BPS,
        ).kind,
      ).to.equal('skipped');
      expect(orderEntry(order({ filled_at: null }), 'IND-1', 'USB-1', BPS).kind).to.equal('rejected');
    });

    it('refuses a fill above the quantity ordered, and a symbol that is no ticker when drafted, as every door does', () => {
      expect(orderEntry(order({ filled_qty: '11' }), 'IND-1', 'USB-1', BPS)).to.deep.equal({
        kind: 'rejected',
        reason: {
          code: 'invalid_quantity',
          detail: { field: 'filled_qty', value: '11', qty: '10', rule: 'at most the quantity ordered' },
        },
      });
      expect(() => linesOf(orderEntry(order({ symbol: '<img src=x onerror=alert(1)>' }), 'IND-1', 'USB-1', BPS)))
        .to.throw()
        .with.property('code', 'validation_error');
    });

    it('takes the trade date as the UTC date of filled_at, whatever offset it is written with', () => {
      expect(utcDate('2026-01-07T23:30:00-05:00')).to.equal('2026-01-08');
      expect(
        entryOf(orderEntry(order({ filled_at: '2026-01-07T20:00:00-05:00' }), 'IND-1', 'USB-1', BPS)).txn_date,
      ).to.equal('2026-01-08');
    });

    it('splits every executed amount exactly, at any bps: cost + fee = executed for a buy; proceeds − fee at bps = executed for a sell, the smallest such', () => {
      for (const bps of ['0', '4', '22', '22.5', '100', '1000']) {
        for (let cents = 1; cents < 200_000; cents += 997) {
          const executed = new Decimal(cents).dividedBy(100);
          const b = new Decimal(bps);
          const { costUsd, feeUsd } = buyCost(executed, b);
          expect(costUsd.plus(feeUsd).isEqualTo(executed)).to.equal(true);
          expect(feeUsd.isNegative()).to.equal(false);
          const proceeds = sellProceeds(executed, b);
          const fee = (p: Decimal) => roundToCents(p.times(b).dividedBy(10_000));
          expect(proceeds.minus(fee(proceeds)).toFixed(2), `${executed.toFixed(2)} at ${bps}`).to.equal(
            executed.toFixed(2),
          );
          const less = proceeds.minus('0.01');
          expect(less.minus(fee(less)).isLessThan(executed)).to.equal(true);
        }
      }
    });
  });

  describe('the daily ledger', () => {
    it('posts a DIV row as the gross dividend on its pay date and its DIVNRA row as wht_tax of what was withheld', () => {
      expect(entryOf(dividendEntry(DIV, 'IND-1'))).to.deep.include({
        txn_type: 'dividend',
        source_txn_id: 'TXN-DIV',
        txn_date: '2026-02-13',
        amount_usd: '10.00',
        symbol: 'AAPL',
      });
      expect(linesOf(dividendEntry(DIV, 'IND-1'))).to.deep.equal([
        ['1100', '10.00', '0.00'],
        ['2010', '0.00', '10.00'],
      ]);
      expect(entryOf(withholdingEntry(DIVNRA, 'IND-1'))).to.deep.include({
        txn_type: 'wht_tax',
        source_txn_id: 'TXN-NRA',
        amount_usd: '2.50',
        txn_date: '2026-02-13',
      });
      expect(linesOf(withholdingEntry(DIVNRA, 'IND-1'))).to.deep.equal([
        ['2010', '2.50', '0.00'],
        ['1100', '0.00', '2.50'],
      ]);
    });

    it('posts a FEE row of −15.00 as a broker_fee of 15.00 on its report date: Dr 2010 / Cr 1100; refuses one not in USD', () => {
      const fee = {
        ...DIV,
        row_code: 'FEE',
        txn_no: 'TXN-FEE',
        symbol: null,
        amount: '-15.00',
        report_date: '2026-02-27',
        description: 'Account maintenance fee',
      } as const;
      expect(entryOf(feeEntry(fee, 'IND-1'))).to.deep.include({
        txn_type: 'broker_fee',
        customer_id: 'IND-1',
        source: 'usbroker',
        source_txn_id: 'TXN-FEE',
        txn_date: '2026-02-27',
        amount_usd: '15.00',
      });
      expect(linesOf(feeEntry(fee, 'IND-1'))).to.deep.equal([
        ['2010', '15.00', '0.00'],
        ['1100', '0.00', '15.00'],
      ]);
      expect(feeEntry({ ...fee, currency: 'EUR' }, 'IND-1')).to.deep.equal({
        kind: 'rejected',
        reason: { code: 'unsupported_currency', detail: { row: 'fee', currency: 'EUR', currencies: ['USD'] } },
      });
    });

    it('makes the dividend event of a DIV row with its DIVNRA row’s withholding, or none', () => {
      expect(dividendEvent(DIV, DIVNRA, 'IND-1')).to.deep.equal({
        divTxnNo: 'TXN-DIV',
        customerId: 'IND-1',
        accountNo: 'USB-1',
        symbol: 'AAPL',
        cusip: '037833100',
        exDate: '2026-02-09',
        payDate: '2026-02-13',
        shares: '40',
        perShare: '0.25',
        grossUsd: '10.00',
        withholding: { txnNo: 'TXN-NRA', rate: '0.25', amountUsd: '2.50' },
        reportDate: '2026-02-13',
      });
      expect(dividendEvent(DIV, null, 'IND-1').withholding).to.equal(null);
    });

    it('splits a TRD row’s itemised fees: the broker’s part (commission, SEC, TAF, IFSCA) and the platform’s (other), each positive', () => {
      expect(tradeFees(TRD)).to.deep.equal({ brokerUsd: new Decimal('4.50'), platformUsd: new Decimal('0') });
      expect(tradeFees({ ...TRD, sec_fee: '-0.05', taf_fee: '-0.01', other_fee: '-3.61' })).to.deep.equal({
        brokerUsd: new Decimal('4.56'),
        platformUsd: new Decimal('3.61'),
      });
      expect(tradeFees({ ...TRD, commission: '1.00', ifsca_fee: null })).to.deep.equal({
        problem: { code: 'fees_add_up_to_a_credit', detail: { part: 'broker', fees_usd: '-1' } },
      });
      expect(tradeFees({ ...TRD, other_fee: '0.10' })).to.deep.equal({
        problem: { code: 'fees_add_up_to_a_credit', detail: { part: 'platform', fees_usd: '-0.1' } },
      });
    });

    it('matches a TRD row to the one order of the account with its symbol, side, quantity and trade date', () => {
      const mine = order();
      const others = [
        order({ order_id: 'ORD-2', side: 'SELL' }),
        order({ order_id: 'ORD-3', filled_qty: '9' }),
        order({ order_id: 'ORD-4', symbol: 'MSFT' }),
        order({ order_id: 'ORD-5', filled_at: '2026-01-08T14:30:00Z' }),
      ];
      expect(orderOfTrade(TRD, [...others, mine])).to.deep.equal({ order: mine });
      expect(orderOfTrade({ ...TRD, quantity: '10.000000' }, [mine])).to.deep.equal({ order: mine });
      expect(orderOfTrade(TRD, others)).to.deep.equal({
        problem: { code: 'no_matching_order', detail: { orders: [] } },
      });
      expect(orderOfTrade(TRD, [mine, order({ order_id: 'ORD-6' })])).to.deep.equal({
        problem: { code: 'several_matching_orders', detail: { orders: [mine.order_id, 'ORD-6'] } },
      });
    });
  });
});
