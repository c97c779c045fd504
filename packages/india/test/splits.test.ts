import { expect } from 'chai';
import { recordStockSplits, recost, upsertCustomer } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import {
  capitalGainsReport,
  indiaSettingsOf,
  indiaSettingsSchema,
  parseFinancialYear,
  scheduleFaReport,
  type IndiaReportContext,
} from '../src/index.js';
import { RECOST, setRates, trade } from './book.js';

const SETTINGS = indiaSettingsOf(indiaSettingsSchema.parse({ FX_SPREAD_BPS: '75' }), RECOST.policy.feeSchedule);
const FY = parseFinancialYear('2024-25');
const PAGE = { limit: 50, offset: 0 };

describe('a lot sold across a split, in the India reports (real Postgres)', function () {
  this.timeout(120_000);
  let t: TestDatabase;
  let india: IndiaReportContext;

  before(async () => {
    t = await createTestDatabase();
    india = { book: 'ENTITY_IND_IFSC', db: t.db, settings: SETTINGS };
  });
  after(async () => {
    await t?.drop();
  });

  it('a 4:1 split between buy and sale: the gain on 20 of the 40 shares at half the lot’s cost and fee; Schedule FA values post-split shares at post-split closes (worked by hand)', async () => {
    const db = t.db;
    await upsertCustomer(db, 'IND-SPLIT', {});
    const c = { customer_id: 'IND-SPLIT', symbol: 'AAPL' };
    // 10 bought for 1,000.00 (fee 2.20); 4:1 on 2024-06-10 (30 shares added); 20 of the 40 sold for 1,100.00 (fee 2.42).
    const lot = await trade(db, {
      ...c,
      txn_type: 'buy_security',
      quantity: '10',
      amount_usd: '1000.00',
      txn_date: '2024-02-12',
    });
    await recordStockSplits(db, [
      {
        source: 'usbroker',
        sourceTxnId: 'SPLIT-1',
        customerId: 'IND-SPLIT',
        symbol: 'AAPL',
        effectiveOn: '2024-06-10',
        shares: '30',
        ratio: '4',
        sourceRow: {},
      },
    ]);
    const sale = await trade(db, {
      ...c,
      txn_type: 'sell_security',
      quantity: '20',
      amount_usd: '1100.00',
      txn_date: '2024-08-01',
    });
    await recost(db, RECOST);
    const rates = {
      '2024-01-31': '83.00',
      '2024-06-07': '83.40',
      '2024-06-10': '83.50',
      '2024-07-31': '83.60',
      '2024-12-31': '85.60',
    };
    await setRates(db, rates);
    // Closes as the vendor files them: 200.00 before the split, 52.00 on its day, 55.00 at the year's end.
    for (const [date, close] of Object.entries({
      '2024-06-07': '200.00',
      '2024-06-10': '52.00',
      '2024-12-31': '55.00',
    }))
      await db.raw(`INSERT INTO close_prices (symbol, price_date, close_usd, source) VALUES ('AAPL', ?, ?, 'test')`, [
        date,
        close,
      ]);

    const gains = await capitalGainsReport(india, FY, 'IND-SPLIT', PAGE);
    const [symbol] = gains.items[0]!.symbols;
    const [disposal] = symbol!.disposals as Array<{ sell_txn_id: string; matches: Array<Record<string, unknown>> }>;
    expect(disposal!.sell_txn_id).to.equal(sale);
    // 20 of the 40 shares: cost 500.00 + fee 2.20 × 20/40 = 1.10 → 501.10 × 83.00 = 41,591.30;
    // 1,100.00 − 2.42 = 1,097.58 × 83.60 = 91,757.69; gain 50,166.39; 2024-02-12 → 2024-08-01: 5 months, short.
    expect(
      disposal!.matches.map((m) => [
        m.lot_txn_id,
        m.acquired_on,
        m.quantity,
        m.cost_of_acquisition_usd,
        m.cost_of_acquisition_inr,
        m.consideration_inr,
        m.gain_inr,
        m.months_held,
        m.term,
      ]),
    ).to.deep.equal([[lot, '2024-02-12', '20', '501.10', '41591.30', '91757.69', '50166.39', 5, 'short']]);
    // The other 20 shares, at the other 500.00, acquired on the buy's date.
    expect(symbol!.open_lots).to.deep.equal([
      // 500.00 at January's month-end rate (83): 41,500.00.
      {
        lot_txn_id: lot,
        acquired_on: '2024-02-12',
        quantity: '20',
        cost_usd: '500.00',
        cost_rate: { rate: '83', rate_date: '2024-01-31' },
        cost_inr: '41500.00',
      },
    ]);

    const fa = await scheduleFaReport(india, FY, 'IND-SPLIT', PAGE);
    // Held 10 at 200.00 (2,000.00) before the split, 40 at 52.00 (2,080.00) on its day, 20 at 55.00 at the year's end.
    // Only three closes of the year are filed: the highest is a lower bound of the peak, never called the peak.
    expect(fa.items[0]!.a3[0]).to.deep.include({
      date_of_acquiring: '2024-02-12',
      initial_value_usd: '1002.20',
      peak_value_date: null,
      peak_value_usd: null,
      peak_lower_bound_date: '2024-06-10',
      peak_lower_bound_usd: '2080.00',
      closing_shares: '20',
      closing_value_usd: '1100.00',
    });
  });
});
