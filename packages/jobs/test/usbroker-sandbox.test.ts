import { Decimal, FeeSchedule, recost, upsertCustomer, type Db } from '@ledger/core';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { startSandbox, type IndiaCustomerData, type Sandbox } from '@ledger/sandbox';
import { createUsbrokerClient } from '@ledger/upstream-clients';
import { expect } from 'chai';
import { heldSymbols } from '@ledger/india';
import { type JobDeps, runSyncUsbroker, runSyncUsbrokerLedger, runSyncUsbrokerTrades } from '../src/index.js';
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
    expect(again.close_prices).to.deep.equal({ recorded: 0, error: null });
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
    expect(ledgers.reduce((n, l) => n + l.broker_fees.recorded, 0)).to.equal(
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
          l.broker_fees.recorded +
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
    expect(result.customers_failed[0]!.reason).to.match(/500/);
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
    for (const f of result.customers_failed) expect(f.reason).to.match(/^funding wires: .*500/);
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
