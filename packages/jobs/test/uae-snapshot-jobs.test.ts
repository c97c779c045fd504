import { createHash, randomUUID } from 'node:crypto';
import { Decimal } from '@ledger/core/posting';
import { reverseTransaction } from '@ledger/core/store';
import { custodianHoldings, uaefeedCashStatement } from '@ledger/sandbox';
import { expect } from 'chai';
import {
  JOBS,
  noOutcomes,
  refreshSnapshotsJob,
  syncCashStatementsJob,
  syncHoldingsJob,
  syncUaefeedJob,
  syncUaefeedStatementsJob,
  type SyncHoldingsResult,
} from '../src/testing.js';
import { NOWHERE, rowCounts, sandboxUpstreams, uaeFixture, type UaeFixture } from './uae-fixture.js';

/** Outcome counts: these, and none of the others. */
const counts = (some: Partial<ReturnType<typeof noOutcomes>>) => ({ ...noOutcomes(), ...some });

const CUSTOMERS = ['UAE-000001', 'UAE-000002', 'UAE-000003', 'UAE-000004'];

describe('the UAE snapshot and statement jobs against the sandbox', function () {
  this.timeout(120_000);
  let fixture: UaeFixture;

  before(async () => {
    fixture = await uaeFixture({ seed: 13, customers: 4, recordsPerCustomer: 30, startMonth: '2026-01', months: 3 });
  });
  after(() => fixture?.close());

  it('are in the catalog as background jobs of the UAE book', () => {
    for (const job of [syncHoldingsJob, syncCashStatementsJob, syncUaefeedStatementsJob, refreshSnapshotsJob]) {
      expect(JOBS[job.kind], job.kind).to.equal(job);
      expect(job, job.kind).to.include({ mode: 'background', family: 'syncs' });
      expect(job.books, job.kind).to.deep.equal(['ENTITY_UAE']);
    }
    expect(() => syncHoldingsJob.input.parse({ as_of: '2026-02-30x' })).to.throw();
    expect(() => syncCashStatementsJob.input.parse({ month: '2026-13' })).to.throw();
    expect(() => refreshSnapshotsJob.input.parse({ month: '2026-01' })).to.throw();
  });

  describe('sync-holdings', () => {
    it('stores each customer’s custodian holdings of the day as received; the same day again stores nothing new; a dry run nothing', async () => {
      const { db, deps } = await fixture.freshBook();
      const { sandbox } = fixture;
      const dry = await syncHoldingsJob.run({ as_of: '2026-02-15', dry_run: true }, deps);
      expect(await rowCounts(db, ['holdings_snapshots'])).to.deep.equal({ holdings_snapshots: 0 });
      expect(dry).to.deep.include({ snapshots: counts({}), as_of: '2026-02-15' });
      expect(dry.customers).to.have.length(4);

      const first = await syncHoldingsJob.run({ as_of: '2026-02-15' }, deps);
      expect(first).to.deep.include({ dry_run: false, snapshots: counts({ inserted: 4 }), customers_failed: [] });
      for (const customer of sandbox.data.customers) {
        const expected = custodianHoldings(sandbox.data.config, sandbox.data.dataOf(customer), '2026-02-15');
        const [row] = await db('holdings_snapshots').where({ customer_id: customer.customer_id, as_of: '2026-02-15' });
        expect(row).to.include({ upstream: 'custodian', account: customer.custodian_account, currency: 'AED' });
        expect(row.positions).to.deep.equal(
          expected.positions.map((p) => ({
            symbol: p.symbol,
            quantity: p.qty,
            cost: null,
            market_value: p.market_value,
            isin: p.isin,
            avg_cost: p.avg_cost,
          })),
        );
        expect(row.cash).to.deep.equal(expected.cash);
      }
      const second = await syncHoldingsJob.run({ as_of: '2026-02-15' }, deps);
      expect(second.snapshots).to.deep.equal(counts({ duplicate: 4 }));
      expect(await rowCounts(db, ['holdings_snapshots'])).to.deep.equal({ holdings_snapshots: 4 });
    });

    it('one customer failing (500) is in customers_failed, the others are stored; custodian down fails every customer', async () => {
      const { db, deps } = await fixture.freshBook();
      const { sandbox } = fixture;
      sandbox.faults.add({ upstream: 'custodian', customer: 'UAE-000003', fault: '500' });
      let result: SyncHoldingsResult;
      try {
        result = await syncHoldingsJob.run({ as_of: '2026-03-01' }, deps);
      } finally {
        sandbox.faults.clear();
      }
      expect(result.customers_failed.map((f) => f.customer_id)).to.deep.equal(['UAE-000003']);
      expect(result.customers_failed[0]!.reason.code).to.equal('upstream_unavailable');
      expect(result.customers_failed[0]!.reason.detail).to.deep.include({
        upstream: 'custodian',
        method: 'GET',
        path: '/holdings',
        status: 500,
      });
      expect(result.snapshots.inserted).to.equal(3);

      const down = await fixture.freshBook(sandboxUpstreams(sandbox, { custodian: NOWHERE }));
      const none = await syncHoldingsJob.run({ as_of: '2026-03-01' }, down.deps);
      expect(none.customers_failed.map((f) => f.customer_id)).to.deep.equal(CUSTOMERS);
      expect(none.customers_failed[0]!.reason).to.deep.include({ code: 'upstream_unavailable' });
      expect(none.customers_failed[0]!.reason.detail).to.deep.include({ error_code: 'ECONNREFUSED' });
      expect(await rowCounts(down.db, ['holdings_snapshots'])).to.deep.equal({ holdings_snapshots: 0 });
      expect(await rowCounts(db, ['holdings_snapshots'])).to.deep.equal({ holdings_snapshots: 3 });
    });
  });

  describe('refresh-snapshots', () => {
    it('replaces each customer’s cached portfolio with today’s custodian holdings; a failing customer keeps its older one', async () => {
      const { db, deps } = await fixture.freshBook();
      const { sandbox } = fixture;
      expect((await refreshSnapshotsJob.run({ dry_run: true }, deps)).snapshots).to.deep.equal(counts({ inserted: 4 }));
      expect(await rowCounts(db, ['portfolio_snapshots'])).to.deep.equal({ portfolio_snapshots: 0 });
      const first = await refreshSnapshotsJob.run({}, deps);
      expect(first).to.deep.include({ snapshots: counts({ inserted: 4 }), customers_failed: [] });
      const customer = sandbox.data.customers[0]!;
      const expected = custodianHoldings(sandbox.data.config, sandbox.data.dataOf(customer), first.as_of);
      const [row] = await db('portfolio_snapshots').where({ customer_id: customer.customer_id });
      expect(row.positions.map((p: { symbol: string; quantity: string }) => [p.symbol, p.quantity])).to.deep.equal(
        expected.positions.map((p) => [p.symbol, p.qty]),
      );
      expect(row.cash).to.deep.equal({ ...expected.cash, currency: 'AED' });
      const takenAt = row.taken_at as Date;

      sandbox.faults.add({ upstream: 'custodian', customer: customer.customer_id, fault: 'malformed' });
      try {
        const second = await refreshSnapshotsJob.run({}, deps);
        expect(second.snapshots).to.deep.equal(counts({ updated: 3 }));
        expect(second.customers_failed.map((f) => f.customer_id)).to.deep.equal([customer.customer_id]);
        expect(second.customers_failed[0]!.reason.code).to.equal('upstream_bad_payload');
        expect(second.customers_failed[0]!.reason.detail).to.deep.include({ upstream: 'custodian', path: '/holdings' });
      } finally {
        sandbox.faults.clear();
      }
      const [kept] = await db('portfolio_snapshots').where({ customer_id: customer.customer_id });
      expect(kept.taken_at).to.deep.equal(takenAt);
      expect(await rowCounts(db, ['portfolio_snapshots'])).to.deep.equal({ portfolio_snapshots: 4 });
    });
  });

  describe('sync-cash-statements', () => {
    it('stores each custodian statement once and finds it agrees with the ledger’s uaefeed postings of the month', async () => {
      const { db, deps } = await fixture.freshBook();
      const { sandbox } = fixture;
      // Before anything is posted, every customer with AED activity in February differs by all of it.
      const unposted = await syncCashStatementsJob.run({ month: '2026-02', dry_run: true }, deps);
      expect(await rowCounts(db, ['cash_statements'])).to.deep.equal({ cash_statements: 0 });
      expect(unposted.differences.length).to.be.greaterThan(0);
      for (const d of unposted.differences) expect(d).to.include({ ledger_net: '0.00', ledger_transactions: 0 });

      await syncUaefeedJob.run({ recost: false }, deps);
      const result = await syncCashStatementsJob.run({ month: '2026-02' }, deps);
      expect(result).to.deep.include({
        month: '2026-02',
        statements: counts({ inserted: 4 }),
        differences: [],
        customers_failed: [],
      });
      for (const customer of sandbox.data.customers) {
        const aed = uaefeedCashStatement(sandbox.data.dataOf(customer), 2026, 2).list.find(
          (a) => a.currency === 'AED',
        )!;
        const comparison = result.customers.find((c) => c.customer_id === customer.customer_id)!;
        expect(comparison.statement_net, customer.customer_id).to.equal(
          new Decimal(aed.tradeClosingBalance).minus(aed.tradeOpeningBalance).toFixed(2),
        );
        expect(comparison).to.include({
          ledger_net: comparison.statement_net,
          difference: '0.00',
          statement_lines: aed.list.length,
          ledger_transactions: aed.list.length,
        });
      }
      const again = await syncCashStatementsJob.run({ month: '2026-02' }, deps);
      expect(again.statements).to.deep.equal(counts({ duplicate: 4 }));
      expect(await rowCounts(db, ['cash_statements'])).to.deep.equal({ cash_statements: 4 });
    });

    it('a transaction reversed in the ledger shows as a difference of its amount', async () => {
      const { db, deps } = await fixture.freshBook();
      await syncUaefeedJob.run({ customer_ids: ['UAE-000001'], recost: false }, deps);
      const [deposit] = await db('transactions')
        .where({ customer_id: 'UAE-000001', txn_type: 'deposit', original_currency: 'AED' })
        .whereBetween('txn_date', ['2026-01-01', '2026-01-31'])
        .orderBy('txn_date');
      expect(deposit, 'an AED deposit in January').to.not.equal(undefined);
      await reverseTransaction(db, deposit.txn_id, {
        txnId: randomUUID(),
        txnDate: deposit.txn_date,
        memo: 'entered in error',
      });
      const result = await syncCashStatementsJob.run(
        { customer_ids: ['UAE-000001'], month: '2026-01', dry_run: true },
        deps,
      );
      expect(result.differences).to.have.length(1);
      expect(result.differences[0]).to.include({ difference: deposit.metadata.cash_movement });
      expect(result.differences[0]!.statement_lines - result.differences[0]!.ledger_transactions).to.equal(1);
    });
  });

  describe('sync-uaefeed-statements', () => {
    it('stores each customer’s cash and holdings statements exactly as received, once; posts nothing', async () => {
      const { db, deps } = await fixture.freshBook();
      const dry = await syncUaefeedStatementsJob.run({ month: '2026-03', dry_run: true }, deps);
      expect(dry.statements).to.deep.equal(counts({}));
      expect(await rowCounts(db, ['uaefeed_statements'])).to.deep.equal({ uaefeed_statements: 0 });
      const first = await syncUaefeedStatementsJob.run({ month: '2026-03' }, deps);
      expect(first).to.deep.include({ statements: counts({ inserted: 8 }), customers_failed: [] });
      const client = deps.upstreams.uaefeed!;
      const cash = await client.getCashStatement({ customerNumber: '7000002', year: 2026, month: 3 });
      const [row] = await db('uaefeed_statements').where({ customer_id: 'UAE-000002', kind: 'cash', month: '2026-03' });
      expect(row.body).to.equal(cash.raw);
      expect(row.body_sha256).to.equal(createHash('sha256').update(cash.raw).digest('hex'));
      expect((await syncUaefeedStatementsJob.run({ month: '2026-03' }, deps)).statements).to.deep.equal(
        counts({ duplicate: 8 }),
      );
      expect(await rowCounts(db, ['uaefeed_statements', 'transactions'])).to.deep.equal({
        uaefeed_statements: 8,
        transactions: 0,
      });
    });

    it('uaefeed down: every customer failed, nothing stored', async () => {
      const { db, deps } = await fixture.freshBook(sandboxUpstreams(fixture.sandbox, { uaefeed: NOWHERE }));
      const result = await syncUaefeedStatementsJob.run({ month: '2026-03' }, deps);
      expect(result.customers_failed.map((f) => f.customer_id)).to.deep.equal(CUSTOMERS);
      expect(await rowCounts(db, ['uaefeed_statements'])).to.deep.equal({ uaefeed_statements: 0 });
    });
  });
});
