import { expect } from 'chai';
import {
  CUSTOMER_FEE_BPS_DEFAULT,
  Decimal,
  draftFromEntry,
  ENTERABLE_SOURCES,
  FeeSchedule,
} from '../src/entry-points/posting.js';
import { entry } from './helpers.js';

const d = (value: string) => new Decimal(value);

describe('the customer fee schedule (pure)', () => {
  it('answers a source’s own fee where it has one, else the default', () => {
    const schedule = new FeeSchedule(d('22'), { usbroker: d('30'), uaefeed: d('0') });
    expect(schedule.customerFeeBps('usbroker').toFixed()).to.equal('30');
    // Zero is a fee of its own, not "unset".
    expect(schedule.customerFeeBps('uaefeed').toFixed()).to.equal('0');
    expect(schedule.customerFeeBps('manual').toFixed()).to.equal('22');
  });

  it('gives every source the default when it names none: the contract’s 22 bps', () => {
    const schedule = new FeeSchedule(CUSTOMER_FEE_BPS_DEFAULT);
    expect(ENTERABLE_SOURCES.map((s) => schedule.customerFeeBps(s).toFixed())).to.deep.equal(
      ENTERABLE_SOURCES.map(() => '22'),
    );
  });

  it('has no fee for the ledger’s own sources: they post no trades', () => {
    const schedule = new FeeSchedule(d('22'));
    expect(() => schedule.customerFeeBps('recost')).to.throw(/recost posts no trades/);
    expect(() => schedule.customerFeeBps('ledger')).to.throw(/ledger posts no trades/);
  });

  it('refuses a negative or non-finite fee or broker cost, and a fee for a source trades do not come from', () => {
    expect(() => new FeeSchedule(d('-1'))).to.throw(/the default customer fee must be finite and not negative/);
    expect(() => new FeeSchedule(d('22'), {}, d('-4'))).to.throw(/the broker cost must be finite and not negative/);
    expect(() => new FeeSchedule(d('22'), { manual: d('NaN') })).to.throw(/manual must be finite/);
    expect(() => new FeeSchedule(d('22'), { recost: d('1') } as never)).to.throw(
      /recost is not a source trades come from/,
    );
  });

  it('prices a buy’s fee at ingest by the entry’s source', () => {
    const policy = { feeSchedule: new FeeSchedule(d('22'), { usbroker: d('30') }) };
    const feeOf = (source: 'usbroker' | 'manual') =>
      draftFromEntry(
        entry({ txn_type: 'buy_security', source, symbol: 'AAPL', quantity: '1', amount_usd: '1000.00' }),
        '00000000-0000-4000-8000-000000000001',
        policy,
      )
        .lines.filter((l) => l.postingKind === 'brokerage_fee')
        .map((l) => l.debit.plus(l.credit).toFixed(2));
    // 1000.00 × 30 bps = 3.00 (usbroker's); × 22 bps = 2.20 (the default).
    expect(feeOf('usbroker')).to.deep.equal(['3.00', '3.00']);
    expect(feeOf('manual')).to.deep.equal(['2.20', '2.20']);
  });
});
