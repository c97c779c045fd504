import { createLogger, Decimal, FeeSchedule, recost, upsertCustomer } from '@ledger/core';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import {
  DEFAULT_JOB_SETTINGS,
  type JobDeps,
  runSyncRemit,
  runSyncUsbroker,
  runSyncUsbrokerLedger,
  runSyncUsbrokerTrades,
} from '@ledger/jobs';
import { startSandbox, type Sandbox } from '@ledger/sandbox';
import { createRemitClient, createUsbrokerClient, NO_UPSTREAMS, type UpstreamClients } from '@ledger/upstream-clients';
import { expect } from 'chai';
import { DEFAULT_RECON_SETTINGS, runReconciliation, type ReconciliationRun } from '../src/index.js';

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

  before(async () => {
    sandbox = await startSandbox({ seed: 42, customers: 8, recordsPerCustomer: 30 });
    database = await createTestDatabase({ runtimeRole: true });
    const db = database.runtime!.db;
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
});
