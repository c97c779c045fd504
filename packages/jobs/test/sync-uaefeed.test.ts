import { randomUUID } from 'node:crypto';
import { Decimal, draftFromEntry, FeeSchedule, jobActor } from '@ledger/core/posting';
import { withActor } from '@ledger/core/runtime';
import { postTransactions, type Db } from '@ledger/core/store';
import type { CustomerData } from '@ledger/sandbox';
import { expect } from 'chai';
import { JOBS, syncUaefeedJob, type SyncUaefeedResult } from '../src/testing.js';
import { NOWHERE, PEG, rowCounts, sandboxUpstreams, uaeFixture, type UaeFixture } from './uae-fixture.js';

const LEDGER_TABLES = ['transactions', 'journal_lines', 'recost_flags'];

/** USD of an amount in its currency: AED at the peg, half up to cents (worked out here, not with the mapper). */
function usd(amount: string, currency: string): string {
  const value = new Decimal(amount);
  return (currency === 'AED' ? value.dividedBy(PEG) : value).decimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}

/**
 * What a customer's records must post, by hand from the sandbox's data: per record, its type,
 * amount and lines as `account Dr|Cr amount`, sorted.
 */
function expectedPostings(
  data: CustomerData,
): Array<{ source_txn_id: string; txn_type: string; amount_usd: string; lines: string[] }> {
  const expected = [];
  for (const t of data.transfers) {
    if (t.status !== 'COMPLETED') continue;
    const amount = usd(t.amount, t.currency);
    const [cash, wallet] = t.currency === 'AED' ? ['1020', '2020'] : ['1100', '2010'];
    const deposit = t.type === 'DEPOSIT';
    expected.push({
      source_txn_id: t.transferId,
      txn_type: deposit ? 'deposit' : 'withdrawal',
      amount_usd: amount,
      lines: deposit
        ? [`${cash} Dr ${amount}`, `${wallet} Cr ${amount}`]
        : [`${wallet} Dr ${amount}`, `${cash} Cr ${amount}`],
    });
  }
  for (const o of data.orders) {
    if (o.cumQty === '0') continue;
    const [cash, wallet] = o.currency === 'AED' ? ['1020', '2020'] : ['1100', '2010'];
    const gross = new Decimal(o.cumQty).times(o.avgPx!);
    if (o.side === 'BUY') {
      // The settlement converted once, the fee the difference.
      const cost = usd(gross.toFixed(2), o.currency);
      const fee = new Decimal(usd(o.netSettle, o.currency)).minus(cost).toFixed(2);
      const lines = [`1200 Dr ${cost}`, `${cash} Cr ${cost}`, `${wallet} Dr ${cost}`, `2100 Cr ${cost}`];
      if (fee !== '0.00') lines.push(`${wallet} Dr ${fee}`, `4010 Cr ${fee}`);
      expected.push({ source_txn_id: o.orderId, txn_type: 'buy_security', amount_usd: cost, lines });
    } else {
      const proceeds = usd(gross.toFixed(2), o.currency);
      const fee = new Decimal(proceeds).minus(usd(o.netSettle, o.currency)).toFixed(2);
      const lines = [`${cash} Dr ${proceeds}`, `${wallet} Cr ${proceeds}`];
      if (fee !== '0.00') lines.push(`${wallet} Dr ${fee}`, `4010 Cr ${fee}`);
      expected.push({ source_txn_id: o.orderId, txn_type: 'sell_security', amount_usd: proceeds, lines });
    }
  }
  return expected
    .map((e) => ({ ...e, lines: e.lines.sort() }))
    .sort((a, b) => a.source_txn_id.localeCompare(b.source_txn_id));
}

async function postedFromUaefeed(db: Db, customerId: string) {
  const rows = (
    await db.raw(
      `SELECT t.source_txn_id, t.txn_type, t.amount_usd::text,
            array_agg(l.account_code || CASE WHEN l.debit > 0 THEN ' Dr ' || l.debit::text ELSE ' Cr ' || l.credit::text END ORDER BY 1) AS lines
       FROM transactions t JOIN journal_lines l USING (txn_id)
      WHERE t.source = 'uaefeed' AND t.customer_id = ?
      GROUP BY t.txn_id ORDER BY t.source_txn_id`,
      [customerId],
    )
  ).rows as Array<{ source_txn_id: string; txn_type: string; amount_usd: string; lines: string[] }>;
  return rows
    .map((r) => ({ ...r, lines: [...r.lines].sort() }))
    .sort((a, b) => a.source_txn_id.localeCompare(b.source_txn_id));
}

describe('sync-uaefeed against the sandbox', function () {
  this.timeout(120_000);
  let fixture: UaeFixture;

  before(async () => {
    fixture = await uaeFixture({ seed: 11, customers: 4, recordsPerCustomer: 30, startMonth: '2026-01', months: 3 });
  });
  after(() => fixture?.close());

  it('is in the catalog: sync, UAE only, every call a run of its own', () => {
    expect(JOBS['sync-uaefeed']).to.equal(syncUaefeedJob);
    expect(syncUaefeedJob).to.include({ mode: 'sync', family: 'syncs' });
    expect(syncUaefeedJob.books).to.deep.equal(['ENTITY_UAE']);
    expect(syncUaefeedJob.businessKey({})).to.equal(null);
  });

  it('takes customer_ids, from, to, dry_run and recost, and nothing else', () => {
    expect(
      syncUaefeedJob.input.parse({
        customer_ids: null,
        from: '2026-01-01',
        to: '2026-01-31',
        dry_run: true,
        recost: false,
      }),
    ).to.include({ dry_run: true });
    for (const bad of [
      { customer_ids: [] },
      { from: '2026-13-01' },
      { from: '2026-02-01', to: '2026-01-01' },
      { dry_run: 'yes' },
      { other: 1 },
    ]) {
      expect(() => syncUaefeedJob.input.parse(bad), JSON.stringify(bad)).to.throw();
    }
  });

  it('posts exactly the transactions the records make, never 4020; a second run posts nothing new; a dry run writes nothing', async () => {
    const { db, deps } = await fixture.freshBook();
    const { sandbox } = fixture;

    const before = await rowCounts(db, LEDGER_TABLES);
    const dry = await syncUaefeedJob.run({ dry_run: true }, deps);
    expect(await rowCounts(db, LEDGER_TABLES)).to.deep.equal(before);
    expect(dry.recost).to.equal(null);

    const first = await syncUaefeedJob.run({}, deps);
    expect(first.customers_failed).to.deep.equal([]);
    expect(first.dry_run).to.equal(false);
    expect(dry.records).to.deep.equal(first.records);
    const counts = { cash_transfers: { inserted: 0, skipped: 0 }, orders: { inserted: 0, skipped: 0 } };
    for (const customer of sandbox.data.customers) {
      const data = sandbox.data.dataOf(customer);
      const expected = expectedPostings(data);
      expect(await postedFromUaefeed(db, customer.customer_id), customer.customer_id).to.deep.equal(expected);
      const transfers = data.transfers.filter((t) => t.status === 'COMPLETED').length;
      const orders = data.orders.filter((o) => o.cumQty !== '0').length;
      counts.cash_transfers.inserted += transfers;
      counts.cash_transfers.skipped += data.transfers.length - transfers;
      counts.orders.inserted += orders;
      counts.orders.skipped += data.orders.length - orders;
    }
    expect(first).to.deep.include({ customers: 4, customers_synced: 4, issues: [] });
    expect(first.records).to.deep.equal({
      cash_transfers: { ...counts.cash_transfers, updated: 0, duplicate: 0, conflict: 0, rejected: 0 },
      orders: { ...counts.orders, updated: 0, duplicate: 0, conflict: 0, rejected: 0 },
    });
    // The trades are recosted: a buy's broker cost, a sell's relief; no sell is flagged.
    expect(first.recost).to.deep.include({ remaining: 0, flagged: [] });
    expect(first.recost!.recosted).to.be.greaterThan(0);
    const custodyFee = (await db('journal_lines').where({ account_code: '4020' }).count({ n: '*' })) as Array<{
      n: string;
    }>;
    expect(custodyFee, '4020 is never posted').to.deep.equal([{ n: '0' }]);

    const after = await rowCounts(db, LEDGER_TABLES);
    const second = await syncUaefeedJob.run({}, deps);
    expect(await rowCounts(db, LEDGER_TABLES)).to.deep.equal(after);
    expect(second.records).to.deep.equal({
      cash_transfers: { ...first.records.cash_transfers, inserted: 0, duplicate: counts.cash_transfers.inserted },
      orders: { ...first.records.orders, inserted: 0, duplicate: counts.orders.inserted },
    });
    expect(second.recost).to.equal(null);
  });

  it('runs for the customers named; one the book has not linked fails with not_linked', async () => {
    const { deps } = await fixture.freshBook();
    const result = await syncUaefeedJob.run({ customer_ids: ['UAE-000002', 'UAE-999999'], dry_run: true }, deps);
    expect(result).to.deep.include({ customers: 2, customers_synced: 1 });
    expect(result.customers_failed).to.have.length(1);
    expect(result.customers_failed[0]).to.deep.equal({
      customer_id: 'UAE-999999',
      reason: {
        code: 'not_linked',
        detail: {
          reference: 'uaefeed_customer_number',
          message: 'the book has no customer UAE-999999 with a uaefeed_customer_number',
        },
      },
    });
  });

  it('a customer whose upstream fails (500, malformed body) lands in customers_failed with nothing of it posted; the others post', async () => {
    const { db, deps } = await fixture.freshBook();
    const { sandbox } = fixture;
    sandbox.faults.add({ upstream: 'uaefeed', customer: 'UAE-000002', fault: '500' });
    sandbox.faults.add({ upstream: 'uaefeed', customer: 'UAE-000003', fault: 'malformed' });
    let result: SyncUaefeedResult;
    try {
      result = await syncUaefeedJob.run({}, deps);
    } finally {
      sandbox.faults.clear();
    }
    expect(result.customers_failed.map((f) => f.customer_id)).to.deep.equal(['UAE-000002', 'UAE-000003']);
    const [unavailable, badPayload] = result.customers_failed.map((f) => f.reason);
    expect(unavailable).to.deep.include({ code: 'upstream_unavailable' });
    expect(unavailable!.detail).to.deep.include({
      upstream: 'uaefeed',
      method: 'GET',
      status: 500,
      failure: 'http_status',
    });
    expect(unavailable!.detail.path).to.match(/^\/v1\.2\//);
    expect(unavailable!.detail.message).to.match(/^uaefeed GET \/v1\.2\/.* answered 500/);
    expect(badPayload).to.deep.include({ code: 'upstream_bad_payload' });
    expect(badPayload!.detail).to.deep.include({ upstream: 'uaefeed', method: 'GET' });
    expect(badPayload!.detail).to.have.keys('upstream', 'method', 'path', 'field', 'problem', 'message');
    expect(result).to.deep.include({ customers: 4, customers_synced: 2 });
    for (const failed of ['UAE-000002', 'UAE-000003']) expect(await postedFromUaefeed(db, failed)).to.deep.equal([]);
    const fourth = sandbox.data.customers[3]!;
    expect(await postedFromUaefeed(db, fourth.customer_id)).to.deep.equal(
      expectedPostings(sandbox.data.dataOf(fourth)),
    );
  });

  it('a record it cannot post is an exception: one row however often the sync runs, naming the job that last saw it', async () => {
    const { db, deps } = await fixture.freshBook();
    const customer = fixture.sandbox.data.customers[0]!;
    const transfer = fixture.sandbox.data.dataOf(customer).transfers.find((t) => t.status === 'COMPLETED')!;
    // The transfer's key, posted before with another amount: the sync's record conflicts with it.
    const entry = {
      txn_type: 'deposit',
      customer_id: customer.customer_id,
      source: 'uaefeed',
      source_txn_id: transfer.transferId,
      txn_date: '2026-01-01',
      amount_usd: '0.01',
    } as const;
    await postTransactions(db, [
      draftFromEntry(entry, randomUUID(), { feeSchedule: new FeeSchedule(new Decimal(22)) }),
    ]);
    for (const run of ['run-1', 'run-2'])
      await withActor(jobActor('sync-uaefeed', run), () =>
        syncUaefeedJob.run({ customer_ids: [customer.customer_id], recost: false }, deps),
      );
    const rows = await db('exceptions').select(
      'upstream',
      'record_key',
      'customer_id',
      'reason_code',
      'job',
      'times_seen',
      'state',
    );
    expect(rows).to.deep.equal([
      {
        upstream: 'uaefeed',
        record_key: transfer.transferId,
        customer_id: customer.customer_id,
        reason_code: 'idempotency_conflict',
        job: 'job:sync-uaefeed:run-2',
        times_seen: 2,
        state: 'open',
      },
    ]);
  });

  it('upstream down (connection refused): every customer failed with the reason, the run ends with nothing posted', async () => {
    const { db, deps } = await fixture.freshBook(sandboxUpstreams(fixture.sandbox, { uaefeed: NOWHERE }));
    const result = await syncUaefeedJob.run({}, deps);
    expect(result).to.deep.include({ customers: 4, customers_synced: 0 });
    expect(result.customers_failed.map((f) => f.customer_id)).to.deep.equal([
      'UAE-000001',
      'UAE-000002',
      'UAE-000003',
      'UAE-000004',
    ]);
    for (const { reason } of result.customers_failed) {
      expect(reason.code).to.equal('upstream_unavailable');
      expect(reason.detail).to.deep.include({
        upstream: 'uaefeed',
        status: null,
        failure: 'network',
        error_code: 'ECONNREFUSED',
      });
    }
    expect(await rowCounts(db, ['transactions'])).to.deep.equal({ transactions: 0 });
  });

  it('uaefeed not configured: every customer failed, nothing posted', async () => {
    const { db, deps } = await fixture.freshBook({ ...sandboxUpstreams(fixture.sandbox), uaefeed: null });
    const result = await syncUaefeedJob.run({}, deps);
    expect(result.customers_failed).to.have.length(4);
    expect(result.customers_failed[0]!.reason).to.deep.equal({
      code: 'upstream_not_configured',
      detail: { upstream: 'uaefeed', message: 'uaefeed is not configured on this book' },
    });
    expect(await rowCounts(db, ['transactions'])).to.deep.equal({ transactions: 0 });
  });
});
