import { Decimal, FeeSchedule } from '@ledger/core/posting';
import { customerPositions } from '@ledger/core/reports';
import { recost, upsertCustomer, type Db } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { SPLITS, splitEffectiveOn, startSandbox, type IndiaCustomerData, type Sandbox } from '@ledger/sandbox';
import { createUsbrokerClient } from '@ledger/upstream-clients';
import { expect } from 'chai';
import { heldSymbols } from '@ledger/india';
import {
  type JobDeps,
  noOutcomes,
  runSyncUsbroker,
  runSyncUsbrokerLedger,
  runSyncUsbrokerTrades,
  syncUsbrokerLedgerResult,
  syncUsbrokerResult,
  syncUsbrokerTradesResult,
} from '../src/testing.js';
import { depsOf, rowCounts, wallet } from './usbroker-support.js';

/** The sandbox's period (2026-01..06) in ranges the ledger job takes (at most 92 days each). */
const LEDGER_RANGES = [
  { start: '2026-01-01', end: '2026-03-31' },
  { start: '2026-04-01', end: '2026-06-30' },
];

const cents = (amounts: string[]) => amounts.reduce((sum, a) => sum.plus(a), new Decimal(0)).toFixed(2);
const executed = (data: IndiaCustomerData, costType: 'quantity' | 'full_portfolio_cost') =>
  data.orders.filter(
    (o) => o.cost_type === costType && o.avg_fill_price !== null && new Decimal(o.filled_qty).isGreaterThan(0),
  );

describe('the usbroker jobs against the sandbox', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  let database: TestDatabase;
  let db: Db;
  let deps: JobDeps;

  before(async () => {
    sandbox = await startSandbox({ seed: 42, customers: 8, recordsPerCustomer: 30 });
  });
  after(async () => {
    await sandbox?.close();
  });
  beforeEach(async () => {
    database = await createTestDatabase({ runtimeRole: true });
    db = database.runtime!.db;
    for (const c of sandbox.data.india.customers)
      await upsertCustomer(db, c.customer_id, { references: { usbroker_account_no: c.usbroker_account_no } });
    const { apiKey, apiSecret, firmId } = sandbox.credentials.usbroker;
    deps = depsOf(
      db,
      createUsbrokerClient({ baseUrl: sandbox.urls.usbroker, apiKey, apiSecret, retryLimit: 1, backoffMs: 5 }),
      firmId,
    );
  });
  afterEach(async () => {
    sandbox.faults.clear();
    await database?.drop();
  });

  /** Every broker job over the whole period, then recost (the daily ledger puts trades with a fee back to pending). */
  async function syncEverything() {
    const wires = await runSyncUsbroker({}, deps);
    const trades = await runSyncUsbrokerTrades({}, deps);
    const ledgers = [];
    for (const range of LEDGER_RANGES) ledgers.push(await runSyncUsbrokerLedger(range, deps));
    const recosted = await recost(db, { policy: { feeSchedule: new FeeSchedule(new Decimal(22)) }, limit: null });
    // What the runs answer is what their jobs declare (the runtime refuses anything else).
    syncUsbrokerResult.parse(wires);
    syncUsbrokerTradesResult.parse(trades);
    for (const ledger of ledgers) syncUsbrokerLedgerResult.parse(ledger);
    return { wires, trades, ledgers, recosted };
  }

  it('records the broker’s quotes of held symbols as their day’s close; a sync reading the same quotes again writes nothing', async () => {
    await syncEverything();
    const again = await runSyncUsbroker({}, deps);
    const held = await heldSymbols(db);
    expect(held.length).to.be.greaterThan(0);
    const { rows } = await db.raw<{ rows: Array<{ symbol: string; source: string }> }>(
      'SELECT DISTINCT symbol, source FROM close_prices ORDER BY symbol',
    );
    expect(rows).to.deep.equal(held.map((symbol) => ({ symbol, source: 'usbroker' })));
    expect(again.close_prices).to.deep.equal({ prices: { ...noOutcomes(), duplicate: held.length }, error: null });
  });

  it('posts every completed wire, executed order, dividend, withholding and FEE row: each wallet is the broker’s cash to the cent', async () => {
    const { wires, trades, ledgers, recosted } = await syncEverything();
    const all = sandbox.data.india.all();
    const count = (pick: (d: IndiaCustomerData) => number) => all.reduce((n, d) => n + pick(d), 0);
    expect(wires.customers_failed).to.deep.equal([]);
    expect(wires.records.wires.inserted).to.equal(count((d) => d.wires.filter((w) => w.status === 'completed').length));
    expect(wires.records.wires.skipped).to.equal(count((d) => d.wires.filter((w) => w.status !== 'completed').length));
    expect(wires.records.orders.inserted).to.equal(count((d) => executed(d, 'quantity').length));
    expect(trades.records.orders.inserted).to.equal(count((d) => executed(d, 'full_portfolio_cost').length));
    expect(trades.records.orders.inserted, 'the data set has full-portfolio-cost orders').to.be.greaterThan(0);
    for (const result of [wires, trades]) expect(result.issues).to.deep.equal([]);
    const rows = all.flatMap((d) => d.rows);
    const sum = <K extends 'dividends' | 'withholdings' | 'fees'>(key: K) =>
      ledgers.reduce((n, l) => n + l.records[key].inserted, 0);
    expect(sum('dividends')).to.equal(rows.filter((r) => r.row_code === 'DIV').length);
    expect(sum('withholdings')).to.equal(rows.filter((r) => r.row_code === 'DIVNRA').length);
    expect(sum('fees'), 'the data set has FEE rows').to.be.greaterThan(0);
    expect(sum('fees')).to.equal(rows.filter((r) => r.row_code === 'FEE').length);
    expect(ledgers.reduce((n, l) => n + l.broker_fees.inserted, 0)).to.equal(
      rows.filter((r) => r.row_code === 'TRD').length,
    );
    expect(ledgers.flatMap((l) => [...l.trades_unmatched, ...l.customers_failed, ...l.dates_failed])).to.deep.equal([]);
    expect(recosted.flagged).to.deep.equal([]);
    expect(recosted.remaining).to.equal(0);
    for (const data of all) {
      // The daily ledger is the account's whole cash history, its FEE rows included.
      const expected = cents(data.rows.map((r) => r.amount));
      expect(await wallet(db, data.customer.customer_id), data.customer.customer_id).to.equal(expected);
    }
    const events = await db('dividend_events').count<Array<{ count: string }>>('* as count');
    expect(Number(events[0]!.count)).to.equal(rows.filter((r) => r.row_code === 'DIV').length);
  });

  it('records the forward and the reverse split of every holder, pays cash in lieu as a sale of the fraction: each position is the broker’s', async () => {
    const { ledgers, recosted } = await syncEverything();
    const all = sandbox.data.india.all();
    const rows = all.flatMap((d) => d.rows);
    const splitRows = rows.filter((r) => r.row_code === 'SPLIT');
    // Both of the data set's splits have holders, on the weekday their place in the period gives.
    expect(new Set(splitRows.map((r) => `${r.symbol} ${r.trade_date} ${r.per_share}`))).to.deep.equal(
      new Set(
        SPLITS.map(
          (s) => `${s.symbol} ${splitEffectiveOn(s, sandbox.data.period)} ${s.symbol === 'NVDA' ? '4' : '0.1'}`,
        ),
      ),
    );
    expect(ledgers.reduce((n, l) => n + l.stock_splits.inserted, 0)).to.equal(splitRows.length);
    expect(ledgers.reduce((n, l) => n + l.records.cash_in_lieu.inserted, 0)).to.equal(
      rows.filter((r) => r.row_code === 'CIL').length,
    );
    const { rows: recorded } = await db.raw<{
      rows: Array<{ customer_id: string; symbol: string; on: string; shares: string }>;
    }>(
      `SELECT customer_id, symbol, effective_on::text AS on, shares::text FROM stock_splits ORDER BY customer_id, symbol`,
    );
    expect(
      recorded.map((r) => `${r.customer_id} ${r.symbol} ${r.on} ${new Decimal(r.shares).toFixed()}`),
    ).to.have.members(
      all.flatMap((d) =>
        d.rows
          .filter((r) => r.row_code === 'SPLIT')
          .map((r) => `${d.customer.customer_id} ${r.symbol} ${r.trade_date} ${r.quantity}`),
      ),
    );
    expect(recosted.flagged).to.deep.equal([]);
    const broker = createUsbrokerClient({
      baseUrl: sandbox.urls.usbroker,
      apiKey: sandbox.credentials.usbroker.apiKey,
      apiSecret: sandbox.credentials.usbroker.apiSecret,
    });
    for (const d of all) {
      const theirs = (await broker.listPositions(d.account.account_no)).map((p) => `${p.symbol} ${p.qty}`);
      const ours = (await customerPositions(db, d.customer.customer_id))
        .filter((p) => p.quantity !== '0')
        .map((p) => `${p.symbol} ${p.quantity}`);
      expect(ours, d.customer.customer_id).to.deep.equal(theirs);
    }
  });

  it('a lot bought before the 4:1 split and sold after it: its shares are four times those bought, its holding period starts at the buy, its cost is shared out over the new shares', async () => {
    await syncEverything();
    // IND-000008 bought 3.357863 NVDA on 2026-02-16, held 13.431452 after the split of 2026-03-16 and sold 2 on 2026-03-18.
    const data = sandbox.data.india.all()[7]!;
    const trade = (side: string, date: string) =>
      data.rows.find((r) => r.row_code === 'TRD' && r.symbol === 'NVDA' && r.side === side && r.trade_date === date)!;
    expect(trade('BUY', '2026-02-16').quantity).to.equal('3.357863');
    expect(data.rows.find((r) => r.row_code === 'SPLIT' && r.symbol === 'NVDA')).to.include({
      trade_date: '2026-03-16',
      quantity: '10.073589',
    });
    expect(trade('SELL', '2026-03-18').quantity).to.equal('2');
    const { rows: matches } = await db.raw<{
      rows: Array<{ lot: string; acquired_on: string; transferred_on: string; quantity: string; cost_usd: string }>;
    }>(
      `SELECT m.lot_txn_id AS lot, m.acquired_on::text, m.transferred_on::text, m.quantity::text, m.cost_usd::text
         FROM lot_matches m JOIN transactions b ON b.txn_id = m.lot_txn_id
        WHERE m.customer_id = 'IND-000008' AND m.symbol = 'NVDA' AND b.txn_date = '2026-02-16'
          AND NOT EXISTS (SELECT 1 FROM transactions r WHERE r.reverses_txn_id = m.derivation_txn_id)
        ORDER BY m.transferred_on`,
    );
    // (Matches in effect: a derivation made before the split was known is reversed by the recost it re-pended.)
    // The lot was sold out over the later sales: what they took adds up to the post-split shares, at the lot's whole cost.
    const taken = matches.reduce((sum, m) => sum.plus(m.quantity), new Decimal(0));
    expect(taken.toFixed()).to.equal('13.431452');
    const lotCost = matches.reduce((sum, m) => sum.plus(m.cost_usd), new Decimal(0));
    expect(matches.every((m) => m.acquired_on === '2026-02-16')).to.equal(true);
    const first = matches[0]!;
    expect(first.transferred_on).to.equal('2026-03-18');
    expect(new Decimal(first.quantity).toFixed()).to.equal('2');
    expect(new Decimal(first.cost_usd).toFixed(2)).to.equal(lotCost.times(2).dividedBy('13.431452').toFixed(2));
  });

  it('run twice posts nothing new', async () => {
    await syncEverything();
    const before = await rowCounts(db);
    const again = await syncEverything();
    expect(
      again.wires.records.wires.inserted + again.wires.records.orders.inserted + again.trades.records.orders.inserted,
    ).to.equal(0);
    expect(
      again.ledgers.reduce(
        (n, l) =>
          n +
          l.records.dividends.inserted +
          l.records.withholdings.inserted +
          l.records.fees.inserted +
          l.records.cash_in_lieu.inserted +
          l.stock_splits.inserted +
          l.broker_fees.inserted +
          l.dividend_events.inserted,
        0,
      ),
    ).to.equal(0);
    expect(again.recosted.derivations_posted).to.equal(0);
    expect(await rowCounts(db)).to.deep.equal(before);
  });

  it('a dry run of each job writes nothing', async () => {
    const before = await rowCounts(db);
    const dry = await runSyncUsbroker({ dry_run: true }, deps);
    expect(dry.records.orders.inserted).to.be.greaterThan(0);
    await runSyncUsbrokerTrades({ dry_run: true }, deps);
    const ledger = await runSyncUsbrokerLedger({ ...LEDGER_RANGES[0]!, dry_run: true }, deps);
    expect(ledger.broker_fees.offered).to.be.greaterThan(0);
    expect(await rowCounts(db)).to.deep.equal(before);
  });

  it('a customer the broker fails for is isolated: failed with the reason, nothing of it posted; the others synced', async () => {
    sandbox.faults.add({ upstream: 'usbroker', customer: 'IND-000002', fault: '500' });
    const result = await runSyncUsbroker({}, deps);
    expect(result.customers_failed.map((f) => f.customer_id)).to.deep.equal(['IND-000002']);
    expect(result.customers_failed[0]!.reason.code).to.equal('upstream_unavailable');
    expect(result.customers_failed[0]!.reason.detail).to.deep.include({ upstream: 'usbroker', status: 500 });
    expect(result.customers_synced).to.equal(7);
    expect(await wallet(db, 'IND-000002')).to.equal('0.00');
    expect(await wallet(db, 'IND-000001')).to.not.equal('0.00');
    const ledger = await runSyncUsbrokerLedger(LEDGER_RANGES[0]!, deps);
    expect(ledger.customers_failed.map((f) => f.customer_id)).to.deep.equal(['IND-000002']);
  });

  it('broker down: every customer (or date) failed with the reason, the runs end, nothing posted', async () => {
    sandbox.faults.add({ upstream: 'usbroker', fault: '500' });
    const result = await runSyncUsbroker({}, deps);
    expect(result.customers_failed).to.have.length(8);
    for (const { reason } of result.customers_failed) {
      expect(reason.code).to.equal('upstream_unavailable');
      expect(reason.detail).to.deep.include({ step: 'funding_wires', upstream: 'usbroker', status: 500 });
    }
    const trades = await runSyncUsbrokerTrades({}, deps);
    expect(trades.customers_failed).to.have.length(8);
    const ledger = await runSyncUsbrokerLedger({ start: '2026-01-05', end: '2026-01-06' }, deps);
    expect(ledger.dates_failed.map((d) => d.date)).to.deep.equal(['2026-01-05', '2026-01-06']);
    expect(await rowCounts(db)).to.deep.equal({
      transactions: 0,
      journal_lines: 0,
      broker_fees: 0,
      dividend_events: 0,
      stock_splits: 0,
      exceptions: 0,
    });
  });
});
