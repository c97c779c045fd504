import { Decimal, FeeSchedule } from '@ledger/core/posting';
import { upsertCustomer, type Db } from '@ledger/core/store';
import type { JobProgress } from '@ledger/job-runtime';
import type { UsbrokerClient, UsbrokerOrder } from '@ledger/upstream-clients';
import { expect } from 'chai';
import nock from 'nock';
import {
  JOBS,
  runSyncUsbroker,
  runSyncUsbrokerTrades,
  syncUsbrokerJob,
  syncUsbrokerResult,
  syncUsbrokerTradesJob,
  syncUsbrokerTradesResult,
} from '../src/testing.js';
import {
  brokerBookPerTest,
  brokerClient,
  depsOf,
  derivationOf,
  fakeBroker,
  linesOf,
  order,
  rowCounts,
  wallet,
  wire,
  type FakeBroker,
} from './usbroker-support.js';

/**
 * IND-1 (USB-1): 5,000.00 in, 400.00 out (completed); a pending wire in and a returned wire out
 * move nothing. Buys 10 AAPL at 187.45 (1,874.50 executed), sells 5 at 190.12 (950.60), a
 * cancelled order, and a full-portfolio-cost buy (sync-usbroker-trades' only).
 * IND-2 (USB-2): 2,000.00 in; buys 3 MSFT at 100.00 (300.00).
 * A completed wire of USB-9, an account no customer holds.
 */
function broker(): FakeBroker {
  return {
    wires: [
      wire({ transfer_id: 'WIR-001', account_no: 'USB-1', amount: '5000.00', value_date: '2026-01-05' }),
      wire({
        transfer_id: 'WIR-002',
        account_no: 'USB-1',
        amount: '300.00',
        status: 'pending',
        value_date: '2026-01-06',
      }),
      wire({ transfer_id: 'WIR-003', account_no: 'USB-2', amount: '2000.00', value_date: '2026-01-05' }),
      wire({
        transfer_id: 'WIR-004',
        account_no: 'USB-1',
        direction: 'OUT',
        amount: '100.00',
        status: 'returned',
        value_date: '2026-01-12',
      }),
      wire({
        transfer_id: 'WIR-005',
        account_no: 'USB-1',
        direction: 'OUT',
        amount: '400.00',
        value_date: '2026-01-20',
      }),
      wire({ transfer_id: 'WIR-006', account_no: 'USB-9', amount: '700.00', value_date: '2026-01-05' }),
    ],
    orders: {
      'USB-1': [
        order({ order_id: 'ORD-1' }),
        order({
          order_id: 'ORD-2',
          side: 'SELL',
          qty: '5',
          filled_qty: '5',
          avg_fill_price: '190.12',
          filled_at: '2026-01-09T15:00:00Z',
        }),
        order({ order_id: 'ORD-3', status: 'cancelled', filled_qty: '0', avg_fill_price: null, filled_at: null }),
        order({
          order_id: 'ORD-4',
          cost_type: 'full_portfolio_cost',
          qty: null,
          notional: '100.00',
          filled_qty: '0.532221',
          avg_fill_price: '187.890000',
          filled_at: '2026-01-08T15:00:00Z',
        } as Partial<UsbrokerOrder>),
      ],
      'USB-2': [order({ order_id: 'ORD-21', symbol: 'MSFT', qty: '3', filled_qty: '3', avg_fill_price: '100.00' })],
    },
  };
}

describe('sync-usbroker and sync-usbroker-trades against a nock’ed broker', function () {
  this.timeout(60_000);
  let db: Db;
  brokerBookPerTest((opened) => (db = opened));

  it('are in the catalog, background on the India book, with the spec’s body and its defaults', () => {
    expect(JOBS['sync-usbroker']).to.equal(syncUsbrokerJob);
    expect(JOBS['sync-usbroker-trades']).to.equal(syncUsbrokerTradesJob);
    expect(syncUsbrokerJob).to.include({ mode: 'background', family: 'syncs' });
    expect(syncUsbrokerJob.books).to.deep.equal(['ENTITY_IND_IFSC']);
    expect(syncUsbrokerJob.input.parse({})).to.deep.equal({ customer_ids: null, recost: true, dry_run: false });
    expect(
      syncUsbrokerJob.input.parse({ customer_ids: ['IND-1'], recost: false, dry_run: true, brokerage_bps: 30.5 }),
    ).to.deep.equal({
      customer_ids: ['IND-1'],
      recost: false,
      dry_run: true,
      brokerage_bps: 30.5,
    });
    for (const bad of [
      { customer_ids: [] },
      { customer_ids: [''] },
      { brokerage_bps: -1 },
      { brokerage_bps: 1001 },
      { brokerage_bps: '22' },
      { other: 1 },
    ]) {
      expect(() => syncUsbrokerJob.input.parse(bad), JSON.stringify(bad)).to.throw();
    }
  });

  it('posts completed wires and executed quantity orders, recosts, and leaves each wallet moved by exactly the executed amounts', async () => {
    fakeBroker(broker());
    const result = await runSyncUsbroker({}, depsOf(db, brokerClient()));
    syncUsbrokerResult.parse(result);
    expect(result).to.deep.include({
      dry_run: false,
      customers: 2,
      customers_synced: 2,
      customers_failed: [],
      records: {
        wires: { inserted: 3, updated: 0, duplicate: 0, conflict: 0, skipped: 2, rejected: 0 },
        orders: { inserted: 3, updated: 0, duplicate: 0, conflict: 0, skipped: 1, rejected: 0 },
      },
      wires_of_unknown_accounts: 1,
      issues: [],
    });
    expect(result.recost, 'the three trades; wires are not pending recost').to.include({ recosted: 3, remaining: 0 });
    expect(await linesOf(db, 'WIR-001')).to.deep.equal([
      ['1100', '5000.00', '0.00', 'deposit'],
      ['2010', '0.00', '5000.00', 'deposit'],
    ]);
    expect(await linesOf(db, 'WIR-005')).to.deep.equal([
      ['2010', '400.00', '0.00', 'withdrawal'],
      ['1100', '0.00', '400.00', 'withdrawal'],
    ]);
    // 1,874.50 executed at 22 bps: shares 1,870.39, fee 4.11.
    expect(await linesOf(db, 'ORD-1')).to.deep.equal([
      ['1200', '1870.39', '0.00', 'security_cost'],
      ['1100', '0.00', '1870.39', 'security_cost'],
      ['2010', '1870.39', '0.00', 'securities_liability'],
      ['2100', '0.00', '1870.39', 'securities_liability'],
      ['2010', '4.11', '0.00', 'brokerage_fee'],
      ['4010', '0.00', '4.11', 'brokerage_fee'],
    ]);
    // 950.60 executed: proceeds 952.70, recost's fee 2.10 (22 bps), the lot's cost 1,870.39 × 5/10 = 935.20 (half up).
    expect(await linesOf(db, 'ORD-2')).to.deep.equal([
      ['1100', '952.70', '0.00', 'sale_proceeds'],
      ['2010', '0.00', '952.70', 'sale_proceeds'],
    ]);
    expect(await derivationOf(db, 'ORD-2')).to.deep.equal([
      ['2010', '2.10', '0.00', 'brokerage_fee'],
      ['4010', '0.00', '2.10', 'brokerage_fee'],
      ['5010', '0.38', '0.00', 'broker_cost'],
      ['2340', '0.00', '0.38', 'broker_cost'],
      ['2340', '0.38', '0.00', 'broker_cost_settled'],
      ['1100', '0.00', '0.38', 'broker_cost_settled'],
      ['2100', '935.20', '0.00', 'cost_relief'],
      ['1200', '0.00', '935.20', 'cost_relief'],
    ]);
    expect(await linesOf(db, 'ORD-3')).to.deep.equal([]);
    expect(await linesOf(db, 'ORD-4')).to.deep.equal([]);
    // 5,000.00 − 400.00 − 1,874.50 + 950.60; 2,000.00 − 300.00.
    expect(await wallet(db, 'IND-1')).to.equal('3676.10');
    expect(await wallet(db, 'IND-2')).to.equal('1700.00');
  });

  it('reports progress in customers from the start, before the firm-wide wire list, then as each customer finishes, to n of n', async () => {
    fakeBroker(broker());
    const reported: JobProgress[] = [];
    let whileListingWires: JobProgress[] | null = null;
    const client = brokerClient();
    const deps = {
      ...depsOf(db, {
        ...client,
        listWires: (...args: Parameters<UsbrokerClient['listWires']>) => {
          whileListingWires = [...reported];
          return client.listWires(...args);
        },
      }),
      progress: (p: JobProgress) => reported.push(p),
    };
    await runSyncUsbroker({}, deps);
    // The status record says how far the run is while the one firm-wide read runs, not null.
    expect(whileListingWires).to.deep.equal([{ done: 0, total: 2, unit: 'customers' }]);
    expect([...new Set(reported.map((p) => `${p.done}/${p.total} ${p.unit}`))]).to.deep.equal([
      '0/2 customers',
      '1/2 customers',
      '2/2 customers',
    ]);
  });

  it('run twice posts nothing new: every record a duplicate, nothing left to recost', async () => {
    fakeBroker(broker());
    await runSyncUsbroker({}, depsOf(db, brokerClient()));
    const before = await rowCounts(db);
    const again = await runSyncUsbroker({}, depsOf(db, brokerClient()));
    expect(again.records).to.deep.equal({
      wires: { inserted: 0, updated: 0, duplicate: 3, conflict: 0, skipped: 2, rejected: 0 },
      orders: { inserted: 0, updated: 0, duplicate: 3, conflict: 0, skipped: 1, rejected: 0 },
    });
    expect(again.recost, 'nothing posted: no recost').to.equal(null);
    expect(await rowCounts(db)).to.deep.equal(before);
  });

  it('a dry run writes nothing and reports what a live run would post; after the live run, what it would find posted', async () => {
    fakeBroker(broker());
    const before = await rowCounts(db);
    const dry = await runSyncUsbroker({ dry_run: true }, depsOf(db, brokerClient()));
    expect(await rowCounts(db)).to.deep.equal(before);
    expect(dry).to.deep.include({ dry_run: true, customers_failed: [], recost: null });
    expect(dry.records).to.deep.equal({
      wires: { inserted: 3, updated: 0, duplicate: 0, conflict: 0, skipped: 2, rejected: 0 },
      orders: { inserted: 3, updated: 0, duplicate: 0, conflict: 0, skipped: 1, rejected: 0 },
    });
    await runSyncUsbroker({ recost: false }, depsOf(db, brokerClient()));
    const after = await rowCounts(db);
    const dryAgain = await runSyncUsbroker({ dry_run: true }, depsOf(db, brokerClient()));
    expect(dryAgain.records.orders).to.deep.include({ inserted: 0, duplicate: 3 });
    expect(await rowCounts(db)).to.deep.equal(after);
  });

  it('a customer whose orders call fails is failed with the reason, and nothing of it is posted; the others are synced', async () => {
    fakeBroker({ ...broker(), failing: { '/v1/accounts/USB-2/orders': 500 } });
    const result = await runSyncUsbroker({}, depsOf(db, brokerClient()));
    expect(result.customers_synced).to.equal(1);
    expect(result.customers_failed).to.have.length(1);
    expect(result.customers_failed[0]!.customer_id).to.equal('IND-2');
    expect(result.customers_failed[0]!.reason.code).to.equal('upstream_unavailable');
    expect(result.customers_failed[0]!.reason.detail).to.deep.include({
      upstream: 'usbroker',
      method: 'GET',
      path: '/v1/accounts/USB-2/orders',
      status: 500,
    });
    expect(await linesOf(db, 'WIR-003')).to.deep.equal([]);
    expect(await wallet(db, 'IND-2')).to.equal('0.00');
    expect(await wallet(db, 'IND-1')).to.equal('3676.10');
  });

  it('broker down (the firm-wide wire list fails): every customer failed with the reason, nothing posted, the run ends', async () => {
    fakeBroker({ ...broker(), failing: { '/v1/funding/wires': 503 } });
    const result = await runSyncUsbroker({}, depsOf(db, brokerClient()));
    expect(result.customers_synced).to.equal(0);
    expect(result.customers_failed.map((f) => f.customer_id)).to.deep.equal(['IND-1', 'IND-2']);
    for (const { reason } of result.customers_failed) {
      expect(reason.code).to.equal('upstream_unavailable');
      expect(reason.detail).to.deep.include({
        step: 'funding_wires',
        upstream: 'usbroker',
        method: 'GET',
        path: '/v1/funding/wires',
        status: 503,
      });
    }
    expect((await rowCounts(db)).transactions).to.equal(0);
  });

  it('broker unreachable (connection refused): every customer failed, nothing posted', async () => {
    nock.enableNetConnect('127.0.0.1');
    try {
      const result = await runSyncUsbroker({}, depsOf(db, brokerClient('http://127.0.0.1:9')));
      expect(result.customers_failed.map((f) => f.customer_id)).to.deep.equal(['IND-1', 'IND-2']);
      expect(result.customers_failed[0]!.reason.code).to.equal('upstream_unavailable');
      expect(result.customers_failed[0]!.reason.detail).to.deep.include({
        step: 'funding_wires',
        status: null,
        error_code: 'ECONNREFUSED',
      });
      expect((await rowCounts(db)).transactions).to.equal(0);
    } finally {
      nock.disableNetConnect();
    }
  });

  it('fails a named customer the book does not know or that has no broker account, and every customer when usbroker is not configured', async () => {
    await upsertCustomer(db, 'IND-3', {});
    fakeBroker(broker());
    const result = await runSyncUsbroker({ customer_ids: ['IND-1', 'IND-3', 'NOPE'] }, depsOf(db, brokerClient()));
    expect(result.customers).to.equal(3);
    const notLinked = (id: string) => ({
      customer_id: id,
      reason: {
        code: 'not_linked',
        detail: {
          reference: 'usbroker_account_no',
          message: `the book has no customer ${id} with a usbroker_account_no`,
        },
      },
    });
    expect(result.customers_failed).to.deep.equal([notLinked('IND-3'), notLinked('NOPE')]);
    syncUsbrokerResult.parse(result);
    expect(result.records.wires).to.deep.include({ inserted: 2 });
    expect(result.wires_of_unknown_accounts, 'counted only in a run for every customer').to.equal(0);
    const off = await runSyncUsbroker({ customer_ids: ['IND-2'] }, depsOf(db, null));
    expect(off.customers_failed).to.deep.equal([
      {
        customer_id: 'IND-2',
        reason: {
          code: 'upstream_not_configured',
          detail: { upstream: 'usbroker', message: 'usbroker is not configured on this book' },
        },
      },
    ]);
  });

  it('sync-usbroker-trades posts only the full-portfolio-cost orders, no wires, at the body’s brokerage_bps', async () => {
    fakeBroker(broker());
    const result = await runSyncUsbrokerTrades(
      { customer_ids: ['IND-1'], brokerage_bps: 50, recost: false },
      depsOf(db, brokerClient()),
    );
    expect(result).to.not.have.property('wires_of_unknown_accounts');
    syncUsbrokerTradesResult.parse(result);
    expect(result.records).to.deep.equal({
      orders: { inserted: 1, updated: 0, duplicate: 0, conflict: 0, skipped: 0, rejected: 0 },
    });
    // 0.532221 × 187.89 = 99.9990... → 100.00 executed; at 50 bps the shares cost 99.50 and the fee is 0.50.
    expect(await linesOf(db, 'ORD-4')).to.deep.equal([
      ['1200', '99.50', '0.00', 'security_cost'],
      ['1100', '0.00', '99.50', 'security_cost'],
      ['2010', '99.50', '0.00', 'securities_liability'],
      ['2100', '0.00', '99.50', 'securities_liability'],
      ['2010', '0.50', '0.00', 'brokerage_fee'],
      ['4010', '0.00', '0.50', 'brokerage_fee'],
    ]);
    const { rows } = await db.raw<{ rows: Array<{ metadata: Record<string, unknown>; quantity: string }> }>(
      `SELECT metadata, quantity::text FROM transactions WHERE source_txn_id = 'ORD-4'`,
    );
    expect(rows[0]!.metadata).to.include({
      brokerage_bps: '50',
      cost_type: 'full_portfolio_cost',
      executed_usd: '100.00',
    });
    expect(rows[0]!.quantity).to.equal('0.532221');
    expect(await linesOf(db, 'ORD-1')).to.deep.equal([]);
  });

  it('without a body brokerage_bps, prices the trades at the fee schedule’s for usbroker (CUSTOMER_FEE_BPS_USBROKER)', async () => {
    fakeBroker(broker());
    const deps = depsOf(db, brokerClient());
    const settings = {
      ...deps.settings,
      feeSchedule: new FeeSchedule(new Decimal(22), { usbroker: new Decimal(50), manual: new Decimal(10) }),
    };
    await runSyncUsbrokerTrades({ customer_ids: ['IND-1'], recost: false }, { ...deps, settings });
    // As at a body's 50 bps (above): the shares cost 99.50 of the 100.00 executed, the fee 0.50.
    expect((await linesOf(db, 'ORD-4')).filter((l) => l[3] === 'brokerage_fee')).to.deep.equal([
      ['2010', '0.50', '0.00', 'brokerage_fee'],
      ['4010', '0.00', '0.50', 'brokerage_fee'],
    ]);
    const { rows } = await db.raw<{ rows: Array<{ brokerage_bps: string }> }>(
      `SELECT metadata->>'brokerage_bps' AS brokerage_bps FROM transactions WHERE source_txn_id = 'ORD-4'`,
    );
    expect(rows).to.deep.equal([{ brokerage_bps: '50' }]);
  });

  it('an order posted by one job is a duplicate to a re-run at another bps: reported as a conflict, the stored one stands', async () => {
    fakeBroker(broker());
    await runSyncUsbroker({ customer_ids: ['IND-2'], recost: false }, depsOf(db, brokerClient()));
    const again = await runSyncUsbroker(
      { customer_ids: ['IND-2'], recost: false, brokerage_bps: 30 },
      depsOf(db, brokerClient()),
    );
    expect(again.records.orders).to.deep.include({ inserted: 0, conflict: 1 });
    expect(again.issues).to.have.length(1);
    expect(again.issues[0]).to.deep.include({
      customer_id: 'IND-2',
      kind: 'orders',
      source_txn_id: 'ORD-21',
      outcome: 'conflict',
    });
    expect(again.issues[0]!.reason).to.deep.include({ code: 'idempotency_conflict' });
    expect(await wallet(db, 'IND-2')).to.equal('1700.00');
  });
});
