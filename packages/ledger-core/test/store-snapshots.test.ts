import { expect } from 'chai';
import type { Knex } from 'knex';
import {
  insertHoldingsSnapshots,
  latestHoldingsSnapshot,
  portfolioSnapshot,
  savePortfolioSnapshots,
  type HoldingsSnapshot,
} from '../src/entry-points/store.js';
import type { TestDatabase } from '../src/testing/index.js';
import { rowCount, storeDatabase } from './helpers.js';

const snapshot = (asOf: string, quantity: string): HoldingsSnapshot => ({
  customerId: 'U-1',
  upstream: 'custodian',
  asOf,
  account: 'CUST-1',
  currency: 'AED',
  positions: [{ symbol: 'AAPL', quantity, cost: '1000.10', market_value: '1200.123456789012345678' }],
  cash: { balance: '10.00', available: '10.00' },
});

describe('store: holdings and portfolio snapshots', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => ({ t, db } = await storeDatabase()));
  after(async () => t?.drop());

  it('a day stored twice is stored once, and the first read stands', async () => {
    expect(await insertHoldingsSnapshots(db, [snapshot('2026-03-31', '10')])).to.deep.equal({
      inserted: 1,
      existing: 0,
    });
    expect(
      await insertHoldingsSnapshots(db, [snapshot('2026-03-31', '11'), snapshot('2026-04-01', '12')]),
    ).to.deep.equal({ inserted: 1, existing: 1 });
    expect(await rowCount(db, 'holdings_snapshots')).to.equal(2);
    expect((await latestHoldingsSnapshot(db, 'U-1', 'custodian', '2026-03-31'))?.positions).to.deep.equal(
      snapshot('2026-03-31', '10').positions,
    );
  });

  it('the latest snapshot is the last day, with decimals exactly as received', async () => {
    const latest = await latestHoldingsSnapshot(db, 'U-1', 'custodian');
    expect(latest).to.include({ as_of: '2026-04-01', account: 'CUST-1', currency: 'AED' });
    expect(latest?.positions).to.deep.equal([
      { symbol: 'AAPL', quantity: '12', cost: '1000.10', market_value: '1200.123456789012345678' },
    ]);
    expect(await latestHoldingsSnapshot(db, 'U-1', 'usbroker')).to.equal(null);
  });

  it('the portfolio cache keeps one read per customer and upstream, the latest', async () => {
    expect(await portfolioSnapshot(db, 'U-1', 'custodian')).to.equal(null);
    await savePortfolioSnapshots(db, [
      { customerId: 'U-1', upstream: 'custodian', asOf: '2026-03-31', positions: [], cash: null },
    ]);
    await savePortfolioSnapshots(db, [
      {
        customerId: 'U-1',
        upstream: 'custodian',
        asOf: '2026-04-01',
        positions: snapshot('x', '5').positions,
        cash: null,
      },
    ]);
    const cached = await portfolioSnapshot(db, 'U-1', 'custodian');
    expect(cached).to.include({ as_of: '2026-04-01' });
    expect(cached?.positions).to.have.length(1);
    expect(await rowCount(db, 'portfolio_snapshots')).to.equal(1);
  });
});
