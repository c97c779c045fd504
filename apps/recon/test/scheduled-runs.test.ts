import { fileURLToPath } from 'node:url';
import { AppProcess, createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { CHECKS, type ReconciliationRun } from '@ledger/reconciliation';
import { expect } from 'chai';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

describe('recon processes on one book', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let processes: AppProcess[] = [];
  before(async () => {
    database = await createTestDatabase({ runtimeRole: true });
  });
  afterEach(async () => {
    await Promise.all(processes.map((p) => p.kill()));
    processes = [];
  });
  after(async () => database?.drop());

  const start = (env: Record<string, string> = {}) =>
    new AppProcess(APP_DIR, {
      ENTITY_ID: 'ENTITY_UAE',
      LEDGER_DB_URL: database.runtime!.url,
      LEDGER_MIGRATION_DB_URL: database.url,
      RECON_SCHEDULE_INITIAL_DELAY_SECONDS: '0',
      ...env,
    });

  it('three recon processes run each check once per cycle; the others say they skipped it', async () => {
    processes = [start(), start(), start()];
    await Promise.all(processes.map((p) => p.waitForLog('ready')));
    const categories = [...new Set(CHECKS.map((c) => c.category))];
    // Each process writes one run per category once its first tick comes.
    const runs = async () =>
      (await database.db('reconciliation_runs').select('*')) as Array<
        ReconciliationRun & { results: ReconciliationRun['results'] }
      >;
    for (let i = 0; i < 200 && (await runs()).length < 3 * categories.length; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const stored = await runs();
    expect(stored).to.have.length(3 * categories.length);
    // The UAE book's checks (usbroker_omnibus_cash is the India book's alone).
    const checks = CHECKS.filter((c) => c.books.includes('ENTITY_UAE'));
    const ran = stored.flatMap((run) => run.results.map((r) => r.check_name)).sort();
    expect(ran).to.deep.equal(checks.map((c) => c.name).sort());
    const skipped = stored.flatMap((run) => run.metadata.skipped.map((s) => s.check_name)).sort();
    expect(skipped).to.deep.equal(checks.flatMap((c) => [c.name, c.name]).sort());
  });

  it('SIGTERM during a run stops it: no run row is written, and the process exits 0', async () => {
    const before = Number((await database.db('reconciliation_runs').count<Array<{ n: string }>>({ n: '*' }))[0]!.n);
    // A new cycle for every check (the test before ran this hour's).
    await database.db('reconciliation_check_cycles').del();
    await database.db.transaction(async (trx) => {
      // The first check (the trial balance) waits on this lock: the run is in hand when SIGTERM comes.
      await trx.raw('LOCK TABLE account_totals IN ACCESS EXCLUSIVE MODE');
      const proc = start({ RECON_INTERVAL_SECONDS: '3600' });
      processes = [proc];
      await proc.waitForLog('ready');
      for (let i = 0; i < 200; i += 1) {
        const { rows } = await database.db.raw<{ rows: unknown[] }>(
          // This database's: another suite's recon (the quickstart's) may be waiting on a lock of its own.
          `SELECT 1 FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'ledger-recon' AND wait_event_type = 'Lock'`,
        );
        if (rows.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      proc.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const exit = await processes[0]!.exited;
    expect(exit.code).to.equal(0);
    const messages = processes[0]!.logs.map((l) => l.message);
    expect(messages, JSON.stringify(processes[0]!.logs)).to.not.include('reconciliation run');
    expect(messages).to.include('reconciliation run stopped by shutdown: nothing written');
    expect(messages).to.not.include('task failed');
    expect(Number((await database.db('reconciliation_runs').count<Array<{ n: string }>>({ n: '*' }))[0]!.n)).to.equal(
      before,
    );
  });
});
