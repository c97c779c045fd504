import { createLogger } from '@ledger/core/runtime';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import {
  DEFAULT_JOB_SETTINGS,
  recostInput,
  recostJob,
  runProvisionIndia,
  runSyncRemit,
  runSyncUsbroker,
  runSyncUsbrokerLedger,
  runSyncUsbrokerTrades,
  type JobDeps,
} from '@ledger/jobs';
import { PLANTED_MISMATCH_CUSTOMER, startSandbox, usbrokerFirmAccountOf, type Sandbox } from '@ledger/sandbox';
import { createRemitClient, createUsbrokerClient, NO_UPSTREAMS } from '@ledger/upstream-clients';
import { expect } from 'chai';
import { CHECKS, DEFAULT_RECON_SETTINGS, runReconciliation, type ReconciliationRun } from '../src/index.js';

const logger = createLogger({ level: 'error', service: 'recon-test', book: 'ENTITY_IND_IFSC', silent: true });

/**
 * The quickstart's demo India book (docs/quickstart.md: seed 42, 200 customers, 48 records each
 * over the 24 whole months before the current one, the planted mismatch), loaded by the demo's
 * India jobs in its order. A tie-out that made each of the customers' own funding wires a variance,
 * or ended a remittance's window RECON_TIE_OUT_DAY_WINDOW days after its payment alone (a wire may
 * come that long after a late settlement), showed variances here that are none. About half a
 * minute once the sandbox is up.
 */
const CUSTOMERS = 200;
const DEMO = { seed: 42, recordsPerCustomer: 48, months: 24 };
/** The checks of the quickstart's India run that compare with the broker and age remittances. */
const CHECKED = [
  'usbroker_ledger_recon',
  'usbroker_holdings_recon',
  'usbroker_omnibus_cash',
  'lrs_usbroker_tie_out',
  'pending_flow_age',
];

/** `[start, end]` windows of at most 92 days covering `from`..`to` (the daily-ledger job's limit). */
function ledgerWindows(from: string, to: string): Array<{ start: string; end: string }> {
  const windows = [];
  const day = (d: string, n: number) =>
    new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  for (let start = from; start <= to; start = day(start, 91)) {
    const end = day(start, 90);
    windows.push({ start, end: end < to ? end : to });
  }
  return windows;
}

describe('the quickstart’s demo India book: only the planted mismatch', function () {
  this.timeout(900_000);
  let sandbox: Sandbox;
  let database: TestDatabase;
  let run: ReconciliationRun;

  before(async () => {
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - DEMO.months, 1));
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
    sandbox = await startSandbox({
      seed: DEMO.seed,
      customers: CUSTOMERS,
      recordsPerCustomer: DEMO.recordsPerCustomer,
      startMonth: first.toISOString().slice(0, 7),
      months: DEMO.months,
      plantedMismatch: true,
    });
    database = await createTestDatabase({ runtimeRole: true });
    const db = database.runtime!.db;
    const { apiKey, apiSecret, firmId } = sandbox.credentials.usbroker;
    const upstreams = {
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
    // The demo load's India steps, in its order (packages/quickstart/src/demo.ts).
    expect(
      (await runProvisionIndia({ api_global_base_url: sandbox.urls.registry }, deps)).customers_failed,
    ).to.deep.equal([]);
    await runSyncUsbrokerTrades({ recost: false }, deps);
    await runSyncUsbroker({ recost: false }, deps);
    for (const window of ledgerWindows(first.toISOString().slice(0, 10), last.toISOString().slice(0, 10)))
      await runSyncUsbrokerLedger(window, deps);
    await runSyncRemit({}, deps);
    await recostJob.run(recostInput.parse({}), deps);
    run = await runReconciliation(
      { db, book: 'ENTITY_IND_IFSC', settings: DEFAULT_RECON_SETTINGS, upstreams },
      { checks: CHECKS.filter((c) => CHECKED.includes(c.name)) },
    );
  });
  after(async () => {
    await database?.drop();
    await sandbox?.close();
  });

  const of = (name: string) => run.metadata.variances.filter((v) => v.check_name === name);
  const all = () => sandbox.data.india.all();

  it('lrs_usbroker_tie_out: every paid remittance carried by its wire, and the customers’ own funding wires counted, not variances', () => {
    const tieOut = run.results.find((r) => r.check_name === 'lrs_usbroker_tie_out')!;
    expect(of('lrs_usbroker_tie_out')).to.deep.equal([]);
    expect(tieOut.status).to.equal('ok');
    const wires = all().flatMap((d) => d.wires.filter((w) => w.direction === 'IN' && w.status === 'completed'));
    const carrying = new Set(
      all().flatMap((d) => d.remittances.flatMap((r) => (r.wire_id === null ? [] : [r.wire_id]))),
    );
    const own = wires.filter((w) => !carrying.has(w.transfer_id));
    const paid = all().flatMap((d) => d.remittances.filter((r) => r.order.status === 'paid'));
    expect(own.length, 'the data set has the customers’ own funding wires').to.be.greaterThan(0);
    // Remittances settled days after they were paid, and wires a day after their settlement, are in the data set.
    expect(paid.some((r) => r.settlement!.created_at.slice(0, 10) > r.payment!.created_at.slice(0, 10))).to.equal(true);
    expect(tieOut.metrics).to.deep.include({
      remittances: paid.length,
      matched: paid.length,
      in_transit: 0,
      aged_in_transit: 0,
      unmatched_funding: own.length,
      variances: 0,
    });
  });

  it('the planted mismatch is the run’s only variance: one share more at the broker for customer 7 (the omnibus ties out: ok)', () => {
    expect(run.results.find((r) => r.check_name === 'usbroker_omnibus_cash')).to.deep.include({ status: 'ok' });
    const planted = `IND-${String(PLANTED_MISMATCH_CUSTOMER).padStart(6, '0')}`;
    expect(run.metadata.variances.map((v) => [v.check_name, v.customer_id, v.difference])).to.deep.equal([
      ['usbroker_holdings_recon', planted, '1'],
    ]);
  });
});
