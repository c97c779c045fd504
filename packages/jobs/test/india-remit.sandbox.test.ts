import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import type { Db } from '@ledger/core/store';
import { startSandbox, type Remittance, type Sandbox } from '@ledger/sandbox';
import { expect } from 'chai';
import {
  noOutcomes,
  refundReversalIndiaJob,
  runProvisionIndia,
  runSyncRemit,
  provisionIndiaResult,
  syncRemitResult,
  type SweptReversal,
  type SyncRemitResult,
} from '../src/testing.js';
import { centsText, indiaDeps, remitPostings, rowCount, spreadCents, testRemitClient } from './india-support.js';

const BPS = 75;
/** The date in India of an instant (UTC+05:30), worked out apart from the code under test. */
const inIndia = (instant: string) => new Date(Date.parse(instant) + 19_800_000).toISOString().slice(0, 10);

describe('India remittance jobs against the sandbox', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let main: TestDatabase;
  let db: Db;
  const fresh: TestDatabase[] = [];

  before(async () => {
    // 13 customers: the second record of customer i shows remittance variant (i − 1) mod 13, so every variant is here.
    sandbox = await startSandbox({ seed: 7, customers: 13, recordsPerCustomer: 5 });
    main = await createTestDatabase({ runtimeRole: true });
    db = main.runtime!.db;
  });
  afterEach(() => sandbox.faults.clear());
  after(async () => {
    await sandbox?.close();
    for (const t of [main, ...fresh]) await t?.drop();
  });

  const remit = () => testRemitClient(sandbox.urls.remit, sandbox.credentials.remit.apiKey);
  const deps = (on: Db) => indiaDeps(on, remit());
  const provision = (on: Db) => runProvisionIndia({ api_global_base_url: sandbox.urls.registry }, deps(on));
  const newDatabase = async () => {
    const t = await createTestDatabase({ runtimeRole: true });
    fresh.push(t);
    return t.runtime!.db;
  };
  const freshDatabase = async () => {
    const on = await newDatabase();
    await provision(on);
    return on;
  };
  const remittances = (of: Sandbox = sandbox) =>
    of.data.india.customers.flatMap((c) => of.data.india.dataOf(c).remittances.map((r) => ({ customer: c, r })));

  /** The postings the book must hold for the data set as it stands, by the rules of docs/posting-rules.md. */
  function expectedPostings(of: Sandbox = sandbox): string[][] {
    const expected: string[][] = [];
    for (const { customer, r } of remittances(of)) {
      if (r.order.status !== 'paid') continue;
      const cents = spreadCents(BigInt(r.quote.to.amount), BigInt(BPS));
      if (cents === 0n) continue;
      expected.push([
        `fx_spread:${r.order.id}`,
        'fx_spread',
        customer.customer_id,
        inIndia(r.payment!.created_at),
        `Dr 1300 ${centsText(cents)}, Cr 4030 ${centsText(cents)}`,
      ]);
      if (r.settlement?.status === 'settled') {
        // The accrual leaves 1300; the settlement's fees (in cents on the wire) are 5030's; the bank takes or pays the rest.
        const fees = BigInt(r.settlement.fees.fx_fee.amount) + BigInt(r.settlement.fees.txn_fee.amount);
        const bank = cents - fees;
        const lines = [
          ...(bank > 0n ? [`Dr 1010 ${centsText(bank)}`] : bank < 0n ? [`Cr 1010 ${centsText(-bank)}`] : []),
          `Dr 5030 ${centsText(fees)}`,
          `Cr 1300 ${centsText(cents)}`,
        ];
        expected.push([
          `fx_spread_settle:${r.order.id}`,
          'fx_spread_settle',
          customer.customer_id,
          inIndia(r.settlement.created_at),
          lines.join(', '),
        ]);
      }
    }
    return expected.sort((a, b) => a[0]!.localeCompare(b[0]!));
  }
  const sorted = (rows: string[][]) => [...rows].sort((a, b) => a[0]!.localeCompare(b[0]!));

  it('provision-india creates every registry customer with its references; a second run changes nothing', async () => {
    const first = await provision(db);
    expect(first).to.deep.include({ customers: 13, outcomes: { ...noOutcomes(), inserted: 13 } });
    expect(first.customers_failed).to.deep.equal([]);
    for (const c of sandbox.data.india.customers) {
      const row = await db('customers').where({ customer_id: c.customer_id }).first();
      expect(row).to.include({
        name: c.name,
        email: c.email,
        pan: c.pan,
        remit_customer_id: c.remit_customer_id,
        usbroker_account_no: c.usbroker_account_no,
        partner_id: c.partner_id,
      });
    }
    expect((await provision(db)).outcomes).to.deep.equal({ ...noOutcomes(), duplicate: 13 });
  });

  it('provision-india: a customer the registry fails for is that customer’s failure alone', async () => {
    const on = await newDatabase();
    const ids = sandbox.data.india.customers.slice(0, 3).map((c) => c.customer_id);
    sandbox.faults.add({ upstream: 'registry', customer: ids[1]!, fault: '500' });
    const result = await runProvisionIndia({ customer_ids: ids, api_global_base_url: sandbox.urls.registry }, deps(on));
    expect(result.customers_failed.map((f) => f.customer_id)).to.deep.equal([ids[1]]);
    expect(result.customers_failed[0]!.reason.code).to.equal('upstream_unavailable');
    expect(result.customers_failed[0]!.reason.detail).to.deep.include({ upstream: 'registry', status: 500 });
    provisionIndiaResult.parse(result);
    expect(result.outcomes).to.include({ inserted: 2 });
    expect(
      (await on('customers').select('customer_id').orderBy('customer_id')).map(
        (c: { customer_id: string }) => c.customer_id,
      ),
    ).to.deep.equal([ids[0], ids[2]]);
  });

  it('sync-remit posts fx_spread per paid order and fx_spread_settle per landed settlement, as worked out by hand; a second run posts nothing new', async () => {
    const expected = expectedPostings();
    const settled = expected.filter((p) => p[1] === 'fx_spread_settle').length;
    // Every seeded paid order settles (one paid, not yet settled is the concurrent-runs test's, below).
    expect(settled, 'the data set has settled paid orders').to.be.above(0);
    const first = await runSyncRemit({ customer_ids: null, fx_spread_bps: BPS }, deps(db));
    expect(first.customers_failed).to.deep.equal([]);
    expect(first.remittances).to.deep.equal({
      ...noOutcomes(),
      seen: remittances().length,
      inserted: remittances().length,
    });
    expect(first.records.fx_spread).to.include({ inserted: expected.length - settled, duplicate: 0 });
    expect(first.records.fx_spread_settle).to.include({ inserted: settled });
    expect(sorted(await remitPostings(db))).to.deep.equal(expected);
    // The remittance's USD is not a deposit: nothing but the spread postings came from remit.
    expect(await rowCount(db, 'transactions')).to.equal(expected.length);

    const second = await runSyncRemit({ customer_ids: null, fx_spread_bps: BPS }, deps(db));
    expect(second.records.fx_spread.inserted + second.records.fx_spread_settle.inserted).to.equal(0);
    // Nothing changed upstream: every order a duplicate, none "updated".
    expect(second.remittances).to.deep.equal({
      ...noOutcomes(),
      seen: remittances().length,
      duplicate: remittances().length,
    });
    expect(await rowCount(db, 'transactions')).to.equal(expected.length);
  });

  it('stores each remittance with its PAN, amounts, quote, payment, settlement, UTR, purpose code and TCS', async () => {
    for (const { customer, r } of remittances()) {
      const row = await db('remittances').where({ order_id: r.order.id }).first();
      expect(row, r.order.id).to.include({
        customer_id: customer.customer_id,
        pan: customer.pan,
        status: r.order.status,
        purpose_code: r.order.purpose_code,
        amount_inr: centsText(BigInt(r.order.amount)),
        amount_usd: centsText(BigInt(r.quote.to.amount)),
        quote_id: r.quote.id,
        fx_rate: r.quote.fx_rate,
        tcs_inr: r.quote.total_tax,
        payment_id: r.payment?.id ?? null,
        settlement_id: r.settlement?.id ?? null,
        utr: r.settlement?.utr ?? null,
      });
    }
  });

  it('a dry run reports what the live run then does, and writes nothing', async () => {
    const on = await freshDatabase();
    const dry = await runSyncRemit({ customer_ids: null, dry_run: true, fx_spread_bps: BPS }, deps(on));
    expect(await rowCount(on, 'remittances')).to.equal(0);
    expect(await rowCount(on, 'transactions')).to.equal(0);
    const live = await runSyncRemit({ customer_ids: null, fx_spread_bps: BPS }, deps(on));
    const counts = (r: SyncRemitResult) => [
      r.remittances,
      r.records.fx_spread.inserted,
      r.records.fx_spread_settle.inserted,
      r.customers_failed,
    ];
    expect(counts(dry)).to.deep.equal(counts(live));
    expect(dry.dry_run).to.equal(true);
  });

  it('a customer remit fails for is that customer’s failure alone', async () => {
    const on = await freshDatabase();
    const [, , third] = sandbox.data.india.customers;
    sandbox.faults.add({ upstream: 'remit', customer: third!.customer_id, fault: '500' });
    const result = await runSyncRemit({ customer_ids: null, fx_spread_bps: BPS }, deps(on));
    expect(result.customers_failed.map((f) => f.customer_id)).to.deep.equal([third!.customer_id]);
    expect(result.customers_failed[0]!.reason.code).to.equal('upstream_unavailable');
    expect(result.customers_failed[0]!.reason.detail).to.deep.include({
      upstream: 'remit',
      method: 'GET',
      status: 500,
    });
    expect(result.customers_failed[0]!.reason.detail.message).to.match(/remit GET .* answered 500/);
    syncRemitResult.parse(result);
    expect(result.customers_synced).to.equal(12);
    expect(await rowCount(on, 'remittances', { customer_id: third!.customer_id })).to.equal(0);
    expect(await rowCount(on, 'transactions', { customer_id: third!.customer_id })).to.equal(0);
    expect(await rowCount(on, 'transactions')).to.equal(
      expectedPostings().filter((p) => p[2] !== third!.customer_id).length,
    );
  });

  it('a run over more customers than it writes at once posts every one’s as worked out by hand, reports progress as each batch is written, and a customer remit fails for in a later batch fails alone', async () => {
    // 120 customers: three of the run's batches of 50, each read while the one before is written.
    const many = await startSandbox({ seed: 11, customers: 120, recordsPerCustomer: 2 });
    try {
      const on = await newDatabase();
      const client = () => testRemitClient(many.urls.remit, many.credentials.remit.apiKey);
      await runProvisionIndia({ api_global_base_url: many.urls.registry }, indiaDeps(on, client()));
      const failing = many.data.india.customers[110]!;
      many.faults.add({ upstream: 'remit', customer: failing.customer_id, fault: '500' });
      const syncDeps = indiaDeps(on, client());
      const result = await runSyncRemit({ customer_ids: null, fx_spread_bps: BPS }, syncDeps);
      expect(result.customers_failed.map((f) => f.customer_id)).to.deep.equal([failing.customer_id]);
      expect(result.customers_synced).to.equal(119);
      expect(sorted(await remitPostings(on))).to.deep.equal(
        expectedPostings(many).filter((p) => p[2] !== failing.customer_id),
      );
      expect(await rowCount(on, 'remittances')).to.equal(
        remittances(many).filter(({ customer }) => customer.customer_id !== failing.customer_id).length,
      );
      expect(syncDeps.reported.map((p) => [p.done, p.total])).to.deep.equal([
        [0, 120],
        [50, 120],
        [100, 120],
        [120, 120],
      ]);
    } finally {
      await many.close();
    }
  });

  it('remit down: every customer failed with the reason, nothing written, the job done', async () => {
    const on = await freshDatabase();
    sandbox.faults.add({ upstream: 'remit', fault: '500' });
    const result = await runSyncRemit({ customer_ids: null, fx_spread_bps: BPS }, deps(on));
    expect(result.customers_failed).to.have.length(13);
    expect(result.customers_synced).to.equal(0);
    expect(await rowCount(on, 'remittances')).to.equal(0);
    expect(await rowCount(on, 'transactions')).to.equal(0);
  });

  it('remit not configured: every customer failed, nothing written', async () => {
    const on = await freshDatabase();
    const result = await runSyncRemit({ customer_ids: null, fx_spread_bps: BPS }, indiaDeps(on, null));
    expect(result.customers_failed).to.have.length(13);
    expect(result.customers_failed[0]!.reason).to.deep.equal({
      code: 'upstream_not_configured',
      detail: { upstream: 'remit', message: 'remit is not configured on this book' },
    });
    syncRemitResult.parse(result);
    expect(await rowCount(on, 'remittances')).to.equal(0);
  });

  it('10 concurrent runs for one newly paid order post exactly one fx_spread, and after its settlement exactly one fx_spread_settle', async () => {
    const { customer, r } = remittances().find(({ r: x }) => x.order.status === 'active')!;
    const runs = () =>
      Promise.all(
        Array.from({ length: 10 }, () =>
          runSyncRemit({ customer_ids: [customer.customer_id], fx_spread_bps: BPS }, deps(db)),
        ),
      );
    // The customer's other orders are in the books already: what follows is this order's alone.
    await runSyncRemit({ customer_ids: [customer.customer_id], fx_spread_bps: BPS }, deps(db));
    await sandbox.webhooks.advance(r.order.id, 'paid');
    const paid = await runs();
    expect(paid.reduce((n, x) => n + x.records.fx_spread.inserted, 0)).to.equal(1);
    expect(paid.flatMap((x) => x.customers_failed)).to.deep.equal([]);
    expect(await rowCount(db, 'transactions', { source: 'remit', source_txn_id: `fx_spread:${r.order.id}` })).to.equal(
      1,
    );
    await sandbox.webhooks.advance(r.order.id, 'settled');
    const settled = await runs();
    expect(settled.reduce((n, x) => n + x.records.fx_spread_settle.inserted, 0)).to.equal(1);
    const spread = await db('transactions')
      .where({ source: 'remit' })
      .whereIn('source_txn_id', [`fx_spread:${r.order.id}`, `fx_spread_settle:${r.order.id}`])
      .select('amount_usd');
    expect(spread.map((t: { amount_usd: string }) => t.amount_usd)).to.deep.equal(
      Array(2).fill(centsText(spreadCents(BigInt(r.quote.to.amount), BigInt(BPS)))),
    );
    expect(sorted(await remitPostings(db))).to.deep.equal(expectedPostings());
  });

  it('refund-reversal-india reverses a refunded order’s accrual: the dry run lists exactly what the live run posts, a second run posts nothing', async () => {
    // Every seeded paid order is settled: pay one waiting for review, accrue it, then refund it.
    const { customer, r } = remittances().find(({ r: x }: { r: Remittance }) => x.order.status === 'under_review')!;
    await sandbox.webhooks.advance(r.order.id, 'paid');
    await runSyncRemit({ customer_ids: [customer.customer_id], fx_spread_bps: BPS }, deps(db));
    await sandbox.webhooks.advance(r.order.id, 'failed');
    await runSyncRemit({ customer_ids: [customer.customer_id], fx_spread_bps: BPS }, deps(db));
    expect(await db('remittances').where({ order_id: r.order.id }).first()).to.include({ status: 'failed' });
    const accrual = await db('transactions')
      .where({ source: 'remit', source_txn_id: `fx_spread:${r.order.id}` })
      .first();

    const before = await rowCount(db, 'transactions');
    const dry = await refundReversalIndiaJob.run({ dry_run: true }, deps(db));
    expect(await rowCount(db, 'transactions')).to.equal(before);
    expect(dry.reversed.map((x) => [x.order_id, x.txn_id, x.txn_type, x.amount_usd, x.reversal_txn_id])).to.deep.equal([
      [r.order.id, accrual.txn_id, 'fx_spread', accrual.amount_usd, null],
    ]);
    const live = await refundReversalIndiaJob.run({}, deps(db));
    const planned = (x: SweptReversal) => ({ ...x, reversal_txn_id: null });
    expect(live.reversed.map(planned)).to.deep.equal(dry.reversed);
    const reversal = await db('transactions').where({ txn_id: live.reversed[0]!.reversal_txn_id }).first();
    expect(reversal).to.include({ reverses_txn_id: accrual.txn_id, txn_type: 'reversal' });
    const net = await db('journal_lines as l')
      .join('transactions as t', 't.txn_id', 'l.txn_id')
      .whereIn('t.txn_id', [accrual.txn_id, reversal.txn_id])
      .where('l.account_code', '1300')
      .select(db.raw('sum(l.debit) - sum(l.credit) AS net'));
    expect(Number(net[0].net)).to.equal(0);
    expect((await refundReversalIndiaJob.run({}, deps(db))).reversed).to.deep.equal([]);
    expect(await rowCount(db, 'transactions')).to.equal(before + 1);
  });
});
