import { Decimal, draftFromEntry, FeeSchedule } from '@ledger/core/posting';
import { createLogger } from '@ledger/core/runtime';
import { postEntry, recost, upsertCustomer } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import {
  DEFAULT_JOB_SETTINGS,
  type JobDeps,
  runSyncRemit,
  runSyncUsbroker,
  runSyncUsbrokerLedger,
  runSyncUsbrokerTrades,
} from '@ledger/jobs';
import { startSandbox, usbrokerFirmAccountOf, type Sandbox } from '@ledger/sandbox';
import { createRemitClient, createUsbrokerClient, NO_UPSTREAMS, type UpstreamClients } from '@ledger/upstream-clients';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { DEFAULT_RECON_SETTINGS, OnDemandRuns, runReconciliation, type ReconciliationRun } from '../src/index.js';

const logger = createLogger({ level: 'error', service: 'recon-test', book: 'ENTITY_IND_IFSC', silent: true });
/** The sandbox's period (2026-01..06) in ranges the daily-ledger job takes. */
const LEDGER_RANGES = [
  { start: '2026-01-01', end: '2026-03-31' },
  { start: '2026-04-01', end: '2026-06-30' },
];

describe('the India checks on a fully synced sandbox book', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let database: TestDatabase;
  let upstreams: UpstreamClients;
  let run: ReconciliationRun;
  let db: TestDatabase['db'];

  before(async () => {
    sandbox = await startSandbox({ seed: 42, customers: 8, recordsPerCustomer: 30 });
    database = await createTestDatabase({ runtimeRole: true });
    db = database.runtime!.db;
    for (const c of sandbox.data.india.customers) {
      await upsertCustomer(db, c.customer_id, {
        references: { usbroker_account_no: c.usbroker_account_no, remit_customer_id: c.remit_customer_id },
      });
    }
    const { apiKey, apiSecret, firmId } = sandbox.credentials.usbroker;
    upstreams = {
      ...NO_UPSTREAMS,
      usbroker: createUsbrokerClient({
        baseUrl: sandbox.urls.usbroker,
        apiKey,
        apiSecret,
        retryLimit: 1,
        backoffMs: 5,
      }),
      remit: createRemitClient({
        baseUrl: sandbox.urls.remit,
        apiKey: sandbox.credentials.remit.apiKey,
        retryLimit: 1,
        backoffMs: 5,
      }),
      usbrokerFirmId: firmId,
      usbrokerFirmAccount: usbrokerFirmAccountOf(firmId),
    };
    const deps: JobDeps = {
      book: 'ENTITY_IND_IFSC',
      db,
      logger,
      progress: () => undefined,
      settings: DEFAULT_JOB_SETTINGS,
      upstreams,
    };
    await runSyncRemit({}, deps);
    await runSyncUsbroker({}, deps);
    await runSyncUsbrokerTrades({}, deps);
    for (const range of LEDGER_RANGES) await runSyncUsbrokerLedger(range, deps);
    await recost(db, { policy: { feeSchedule: new FeeSchedule(new Decimal(22)) }, limit: null });
    run = await runReconciliation(
      { db, book: 'ENTITY_IND_IFSC', settings: DEFAULT_RECON_SETTINGS, upstreams },
      { category: 'C' },
    );
  });
  after(async () => {
    await database?.drop();
    await sandbox?.close();
  });

  const of = (name: string) => run.metadata.variances.filter((v) => v.check_name === name);

  it('the broker’s share counts tie out with the ledger’s: ok, no variance', () => {
    expect(run.results.find((r) => r.check_name === 'usbroker_holdings_recon')).to.deep.include({ status: 'ok' });
    expect(of('usbroker_holdings_recon')).to.deep.equal([]);
  });

  it('every paid remittance arrived in a completed funding wire within its window: ok, no variance; the customers’ own wires counted, not variances', () => {
    const tieOut = run.results.find((r) => r.check_name === 'lrs_usbroker_tie_out')!;
    expect(tieOut).to.deep.include({ status: 'ok' });
    expect(of('lrs_usbroker_tie_out')).to.deep.equal([]);
    const paid = sandbox.data.india.all().flatMap((d) => d.remittances.filter((r) => r.order.status === 'paid'));
    expect(tieOut.metrics).to.deep.include({ remittances: paid.length, matched: paid.length, aged_in_transit: 0 });
    expect(tieOut.metrics.unmatched_funding).to.be.above(0);
  });

  it('each customer’s ledger cash ties out with the broker’s to the cent, FEE rows included (posted as broker_fee): ok, no variance', () => {
    expect(
      sandbox.data.india.all().some((d) => d.rows.some((r) => r.row_code === 'FEE')),
      'the data set has FEE rows',
    ).to.equal(true);
    expect(run.results.find((r) => r.check_name === 'usbroker_ledger_recon')).to.deep.include({ status: 'ok' });
    expect(of('usbroker_ledger_recon')).to.deep.equal([]);
  });

  it('the omnibus ties out: ledger 1100 is the customers’ broker cash plus the firm account’s (the platform’s part of every fee), to the cent; 2340 holds nothing', async () => {
    const omnibus = run.results.find((r) => r.check_name === 'usbroker_omnibus_cash')!;
    expect(omnibus, JSON.stringify(of('usbroker_omnibus_cash'))).to.deep.include({ status: 'ok' });
    // The firm account's cash is the platform's part of every TRD row (other_fee), as the daily ledger recorded it.
    const otherFees = sandbox.data.india
      .all()
      .flatMap((d) => d.rows.filter((r) => r.row_code === 'TRD'))
      .reduce((sum, r) => sum.minus(r.other_fee === '' ? 0 : r.other_fee), new Decimal(0));
    const { rows } = await db.raw<{ rows: Array<{ platform: string; payable: string | null }> }>(
      `SELECT (SELECT sum(platform_fee_usd) FROM broker_fees)::text AS platform,
              (SELECT sum(credit - debit) FROM journal_lines WHERE account_code = '2340')::text AS payable`,
    );
    expect(otherFees.isGreaterThan(0)).to.equal(true);
    expect(omnibus.metrics).to.deep.include({ firm_cash: otherFees.toFixed(2), difference: '0.00', pending_recost: 0 });
    expect(new Decimal(rows[0]!.platform).toFixed(2)).to.equal(otherFees.toFixed(2));
    expect(new Decimal(rows[0]!.payable ?? 0).toFixed(2)).to.equal('0.00');
  });

  it('drift planted in 1100 (a broker cost booked again by hand, out of the omnibus) › the next on-demand run names it on usbroker_omnibus_cash alone', async () => {
    const runs = new OnDemandRuns({ db, book: 'ENTITY_IND_IFSC', settings: DEFAULT_RECON_SETTINGS, upstreams, logger });
    try {
      const txnId = randomUUID();
      const entry = {
        txn_type: 'adjustment' as const,
        source: 'manual' as const,
        source_txn_id: `planted-${txnId}`,
        txn_date: '2026-06-30',
        amount_usd: '0.37',
        memo: 'broker cost booked twice',
        lines: [
          { account_code: '5010', debit: '0.37', credit: '0' },
          { account_code: '1100', debit: '0', credit: '0.37' },
        ],
      };
      await postEntry(db, draftFromEntry(entry, txnId, { feeSchedule: new FeeSchedule(new Decimal(22)) }));
      const planted = await runs.run({ category: 'C' });
      expect(
        planted.results.filter((r) => r.status !== 'ok').map((r) => r.check_name),
        JSON.stringify(planted.metadata.variances),
      ).to.deep.equal(['usbroker_omnibus_cash']);
      const named = planted.metadata.variances.filter((v) => v.check_name === 'usbroker_omnibus_cash');
      expect(named.map((v) => [v.account_code, v.difference, v.detail.problem, v.detail.pending_recost])).to.deep.equal(
        [['1100', '0.37', 'omnibus_cash_differs', 0]],
      );
    } finally {
      await runs.close();
    }
  });
});
