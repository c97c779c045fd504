import { expect } from 'chai';
import { FifoLots } from '../src/domain/lots.js';
import { isBalanced, linesFromLegs } from '../src/domain/posting-rules/index.js';
import { derivePair, type TradeFacts } from '../src/domain/recost.js';
import { Decimal, FeeSchedule, type RecostPolicy } from '../src/entry-points/posting.js';

const d = (value: string) => new Decimal(value);
const POLICY: RecostPolicy = { feeSchedule: new FeeSchedule(d('22')) };

let seq = 0;
function trade(
  txnType: TradeFacts['txnType'],
  quantity: string,
  amountUsd: string,
  extra: Partial<TradeFacts> = {},
): TradeFacts {
  seq += 1;
  return {
    txnId: `t-${seq}`,
    txnType,
    customerId: 'C-1',
    symbol: 'AAPL',
    source: 'usbroker',
    txnDate: '2026-01-05',
    quantity: d(quantity),
    amountUsd: d(amountUsd),
    currency: 'USD',
    fxRate: null,
    reversed: false,
    brokerageBps: null,
    brokerCostBps: null,
    brokerFeeUsd: null,
    ...extra,
  };
}

/** A derivation's legs as "Dr/Cr amount kind" text. */
function legsOf(derivation: ReturnType<typeof derivePair>[number]): string[] {
  expect(derivation.kind).to.equal('derived');
  if (derivation.kind !== 'derived') return [];
  return derivation.legs.map((l) => `${l.debit}/${l.credit} ${l.amount.toFixed(2)} ${l.postingKind}`);
}

describe('FIFO lots (pure)', () => {
  it('relieves a lot pro rata in cents, the last share taking the exact remainder', () => {
    const lots = new FifoLots();
    lots.buy('B', d('3'), d('100.00'));
    const costs = [lots.sell(d('1')), lots.sell(d('1')), lots.sell(d('1'))].map((r) =>
      r!.map((x) => x.cost.toFixed(2)),
    );
    // 100 × 1/3 = 33.33; 100 × 2/3 = 66.67 → 33.34; 100 − 66.67 = 33.33: the lot's total is its cost.
    expect(costs).to.deep.equal([['33.33'], ['33.34'], ['33.33']]);
  });

  it('takes the oldest lot first and crosses into the next', () => {
    const lots = new FifoLots();
    lots.buy('B1', d('10'), d('1000.00'));
    lots.buy('B2', d('5'), d('600.00'));
    const relief = lots.sell(d('12'))!;
    expect(relief.map((r) => [r.lotTxnId, r.quantity.toFixed(), r.cost.toFixed(2)])).to.deep.equal([
      ['B1', '10', '1000.00'],
      ['B2', '2', '240.00'],
    ]);
    expect(lots.held().toFixed()).to.equal('3');
  });

  it('refuses a sale of more than the lots hold, taking nothing', () => {
    const lots = new FifoLots();
    lots.buy('B1', d('1'), d('10.00'));
    expect(lots.sell(d('1.5'))).to.equal(null);
    expect(lots.held().toFixed()).to.equal('1');
  });
});

describe('recost derivations of a pair (pure)', () => {
  it('a buy: the broker cost at 4 bps (Dr 5010 / Cr 2340), or the itemised fee when recorded', () => {
    const [plain, itemised] = derivePair(
      [trade('buy_security', '10', '1000.00'), trade('buy_security', '1', '333.33', { brokerFeeUsd: d('1.23') })],
      POLICY,
    );
    expect(legsOf(plain!)).to.deep.equal(['5010/2340 0.40 broker_cost', '2340/1100 0.40 broker_cost_settled']);
    expect(legsOf(itemised!)).to.deep.equal(['5010/2340 1.23 broker_cost', '2340/1100 1.23 broker_cost_settled']);
  });

  it('a sell across two lots: customer fee 22 bps, broker cost 4 bps, cost relief at the lots’ cost', () => {
    const derived = derivePair(
      [
        trade('buy_security', '10', '1000.00'),
        trade('buy_security', '5', '600.00'),
        trade('sell_security', '12', '1500.00'),
      ],
      POLICY,
    );
    // 1500 × 22 bps = 3.30; 1500 × 4 bps = 0.60; relief 1000.00 + 600.00 × 2/5 = 1240.00.
    expect(legsOf(derived[2]!)).to.deep.equal([
      '2010/4010 3.30 brokerage_fee',
      '5010/2340 0.60 broker_cost',
      '2340/1100 0.60 broker_cost_settled',
      '2100/1200 1240.00 cost_relief',
    ]);
  });

  it('a per-trade brokerage_bps override wins over the schedule; amounts round half up to cents', () => {
    const derived = derivePair(
      [trade('buy_security', '1', '100.00'), trade('sell_security', '1', '1234.56', { brokerageBps: d('30') })],
      POLICY,
    );
    // 1234.56 × 30 bps = 3.70368 → 3.70; × 4 bps = 0.493824 → 0.49.
    expect(legsOf(derived[1]!)).to.deep.equal([
      '2010/4010 3.70 brokerage_fee',
      '5010/2340 0.49 broker_cost',
      '2340/1100 0.49 broker_cost_settled',
      '2100/1200 100.00 cost_relief',
    ]);
  });

  it('a trade pinned to its fees at ingest is derived with them, whatever the schedule is now', () => {
    const raised: RecostPolicy = { feeSchedule: new FeeSchedule(d('30'), {}, d('5')) };
    const derived = derivePair(
      [
        trade('buy_security', '1', '100.00', { brokerCostBps: d('4') }),
        trade('sell_security', '1', '600.00', { brokerageBps: d('22'), brokerCostBps: d('4') }),
      ],
      raised,
    );
    // 100.00 × 4 bps = 0.04; 600.00 × 22 bps = 1.32, × 4 bps = 0.24 (the schedule's 30 and 5 would give 1.80 and 0.30).
    expect(legsOf(derived[0]!)).to.deep.equal(['5010/2340 0.04 broker_cost', '2340/1100 0.04 broker_cost_settled']);
    expect(legsOf(derived[1]!)).to.deep.equal([
      '2010/4010 1.32 brokerage_fee',
      '5010/2340 0.24 broker_cost',
      '2340/1100 0.24 broker_cost_settled',
      '2100/1200 100.00 cost_relief',
    ]);
  });

  it('an AED sell’s fee is charged to the AED wallet (2020), never the USD one, with its AED amount at the trade’s rate', () => {
    // An AED trade is the UAE book's (uaefeed): its broker cost stays payable in 2340.
    const aed = { source: 'uaefeed' as const, currency: 'AED' as const, fxRate: d('3.6725') };
    const derived = derivePair(
      [trade('buy_security', '1', '100.00', aed), trade('sell_security', '1', '100.00', aed)],
      POLICY,
    );
    expect(legsOf(derived[1]!)).to.deep.equal([
      '2020/4010 0.22 brokerage_fee',
      '5010/2340 0.04 broker_cost',
      '2100/1200 100.00 cost_relief',
    ]);
    // 0.22 × 3.6725 = 0.80795 → AED 0.81.
    const fee = derived[1]!.kind === 'derived' ? derived[1]!.legs[0] : undefined;
    expect(fee?.nativeAmount?.toFixed(2)).to.equal('0.81');
  });

  it('a usbroker buy and sell settle their broker cost out of the omnibus at once (Dr 2340 / Cr 1100): 2340 nets to nothing, the derivations balance', () => {
    const derived = derivePair(
      [trade('buy_security', '10', '1000.00'), trade('sell_security', '4', '500.00', { brokerFeeUsd: d('0.17') })],
      POLICY,
    );
    // The broker kept its part when it charged the customer's account: what it kept leaves 1100, not what the model says (the sell's 4 bps would be 0.20).
    expect(legsOf(derived[0]!)).to.deep.equal(['5010/2340 0.40 broker_cost', '2340/1100 0.40 broker_cost_settled']);
    expect(legsOf(derived[1]!)).to.deep.equal([
      '2010/4010 1.10 brokerage_fee',
      '5010/2340 0.17 broker_cost',
      '2340/1100 0.17 broker_cost_settled',
      '2100/1200 400.00 cost_relief',
    ]);
    for (const derivation of derived) {
      const lines = linesFromLegs(derivation.kind === 'derived' ? derivation.legs : []);
      expect(isBalanced(lines)).to.equal(true);
      const net = (code: string) =>
        lines.filter((l) => l.accountCode === code).reduce((sum, l) => sum.plus(l.credit).minus(l.debit), d('0'));
      expect(net('2340').toFixed(2)).to.equal('0.00');
    }
  });

  it('a UAE trade (uaefeed, custodian) or a manual one keeps its broker cost payable in 2340: no settlement leg', () => {
    for (const source of ['uaefeed', 'custodian', 'manual'] as const) {
      const derived = derivePair(
        [trade('buy_security', '1', '100.00', { source }), trade('sell_security', '1', '600.00', { source })],
        POLICY,
      );
      expect(legsOf(derived[0]!), source).to.deep.equal(['5010/2340 0.04 broker_cost']);
      expect(legsOf(derived[1]!), source).to.not.include.members(['2340/1100 0.24 broker_cost_settled']);
      expect(legsOf(derived[1]!), source).to.include('5010/2340 0.24 broker_cost');
    }
  });

  it('a reversed buy holds no lot and has no derivation', () => {
    const derived = derivePair(
      [
        trade('buy_security', '10', '1000.00', { reversed: true }),
        trade('buy_security', '10', '1500.00'),
        trade('sell_security', '10', '2000.00'),
      ],
      POLICY,
    );
    expect(legsOf(derived[0]!)).to.deep.equal([]);
    expect(legsOf(derived[2]!)).to.include('2100/1200 1500.00 cost_relief');
  });

  it('an oversell is flagged (never a zero or partial cost), and so is every later sell of the pair', () => {
    const derived = derivePair(
      [
        trade('buy_security', '1', '10.00'),
        trade('sell_security', '2', '30.00'),
        trade('buy_security', '5', '50.00'),
        trade('sell_security', '1', '12.00'),
      ],
      POLICY,
    );
    expect(derived.map((x) => (x.kind === 'flagged' ? x.reason : 'derived'))).to.deep.equal([
      'derived',
      'insufficient_lots',
      'derived',
      'earlier_sell_flagged',
    ]);
    expect(derived[1]).to.deep.include({ detail: { quantity: '2', held: '1' } });
  });
});
