import { expect } from 'chai';
import { closePeriod, recost, upsertCustomer } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { capitalGainsReport, indiaSettingsOf, indiaSettingsSchema, parseFinancialYear } from '../src/index.js';
import { RECOST, setRates, trade } from './book.js';

const SETTINGS = indiaSettingsOf(indiaSettingsSchema.parse({ FX_SPREAD_BPS: '75' }), RECOST.policy.feeSchedule);
const PAGE = { limit: 50, offset: 0 };

describe('restated records keep their economic dates for tax (real Postgres)', function () {
  this.timeout(120_000);
  let t: TestDatabase;

  before(async () => {
    t = await createTestDatabase();
  });
  after(async () => {
    await t?.drop();
  });

  it('a February buy synced after February closed: acquired in February, first in FIFO, 4 months held, costed at January’s month-end rate (worked by hand)', async () => {
    const db = t.db;
    await upsertCustomer(db, 'IND-LATE', {});
    const c = { customer_id: 'IND-LATE', symbol: 'AAPL' };
    const onTime = await trade(db, {
      ...c,
      txn_type: 'buy_security',
      quantity: '10',
      amount_usd: '1100.00',
      txn_date: '2024-02-20',
    });
    await recost(db, RECOST);
    await closePeriod(db, { through: '2024-02-29', actor: 'test', today: '2026-01-01' });
    // Traded 2024-02-12, synced late: posted on 2024-03-01, the first open day.
    const late = await trade(db, {
      ...c,
      txn_type: 'buy_security',
      quantity: '10',
      amount_usd: '1000.00',
      txn_date: '2024-02-12',
    });
    const { rows } = await db.raw<{ rows: Array<{ txn_date: string; original: string }> }>(
      "SELECT txn_date::text, metadata->>'original_txn_date' AS original FROM transactions WHERE txn_id = ?",
      [late],
    );
    expect(rows[0]).to.deep.equal({ txn_date: '2024-03-01', original: '2024-02-12' });
    const sale = await trade(db, {
      ...c,
      txn_type: 'sell_security',
      quantity: '10',
      amount_usd: '1200.00',
      txn_date: '2024-06-20',
    });
    await recost(db, RECOST);
    await setRates(db, { '2024-01-31': '83.00', '2024-02-29': '82.90', '2024-05-31': '83.50' });

    const report = await capitalGainsReport(
      { book: 'ENTITY_IND_IFSC', db, settings: SETTINGS },
      parseFinancialYear('2024-25'),
      'IND-LATE',
      PAGE,
    );
    const [symbol] = report.items[0]!.symbols;
    const disposals = symbol!.disposals as Array<{
      sell_txn_id: string;
      transferred_on: string;
      matches: Array<Record<string, unknown>>;
    }>;
    expect(disposals.map((d) => [d.sell_txn_id, d.transferred_on])).to.deep.equal([[sale, '2024-06-20']]);
    // FIFO by trade date: the late lot (02-12) goes before the one posted on time (02-20).
    // Cost 1,000.00 + fee 2.20 = 1,002.20 × 83.00 (2024-01-31) = 83,182.60; proceeds 1,200.00 − 2.64 = 1,197.36
    // × 83.50 (2024-05-31) = 99,979.56; gain 16,796.96; 2024-02-12 → 2024-06-20: 4 whole months, short.
    expect(
      disposals[0]!.matches.map((m) => [
        m.lot_txn_id,
        m.acquired_on,
        m.quantity,
        m.cost_of_acquisition_inr,
        m.consideration_inr,
        m.gain_inr,
        m.months_held,
        m.term,
        (m.cost_rate as { rate_date: string }).rate_date,
      ]),
    ).to.deep.equal([[late, '2024-02-12', '10', '83182.60', '99979.56', '16796.96', 4, 'short', '2024-01-31']]);
    expect(symbol!.open_lots).to.deep.equal([
      // Its INR cost at January's month-end rate (83): 1,100.00 × 83 = 91,300.00.
      {
        lot_txn_id: onTime,
        acquired_on: '2024-02-20',
        quantity: '10',
        cost_usd: '1100.00',
        cost_rate: { rate: '83', rate_date: '2024-01-31' },
        cost_inr: '91300.00',
      },
    ]);

    // Running recost again changes nothing: the derivations already stand for the trades' own dates.
    const before = await db.raw<{ rows: Array<{ n: string }> }>('SELECT count(*)::text AS n FROM transactions');
    await db.raw('UPDATE recost_states SET recosted_at = NULL');
    await recost(db, RECOST);
    const after = await db.raw<{ rows: Array<{ n: string }> }>('SELECT count(*)::text AS n FROM transactions');
    expect(after.rows[0]!.n).to.equal(before.rows[0]!.n);
  });
});
