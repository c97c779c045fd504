import { NO_UPSTREAMS } from '@ledger/upstream-clients';
import { expect } from 'chai';
import { advisoryLockId, createDb } from '@ledger/core/store';
import {
  BOTH_BOOKS,
  CHECKS,
  DEFAULT_RECON_SETTINGS,
  findRun,
  listRuns,
  runReconciliation,
  variance,
  type Check,
} from '../src/index.js';
import { cleanBook, corrupt } from './book.js';

type Book = Awaited<ReturnType<typeof cleanBook>>;

const fixed = (name: string, status: 'ok' | 'warn' | 'fail', variances = 0): Check => ({
  name,
  category: 'A',
  books: BOTH_BOOKS,
  run: async () => ({
    status,
    metrics: { fixed: true },
    variances: Array.from({ length: variances }, (_, i) =>
      variance({ customer_id: `C-${i}`, expected: '1.00', actual: '2.00', difference: '1.00' }),
    ),
  }),
});
const throwing: Check = {
  name: 'throws',
  category: 'A',
  books: BOTH_BOOKS,
  run: async () => Promise.reject(new Error('relation "nowhere" does not exist')),
};

describe('reconciliation runs', function () {
  this.timeout(60_000);
  let book: Book;
  before(async () => {
    book = await cleanBook();
  });
  after(async () => book?.drop());
  const deps = () => ({
    db: book.runtimeDb,
    book: 'ENTITY_UAE' as const,
    settings: DEFAULT_RECON_SETTINGS,
    upstreams: NO_UPSTREAMS,
  });

  it('a run of every category runs every check registered for its book once and stores the run as it answers it', async () => {
    const run = await runReconciliation(deps());
    const ofTheBook = CHECKS.filter((c) => c.books.includes('ENTITY_UAE'));
    // usbroker_omnibus_cash is the India book's alone.
    expect(ofTheBook.length).to.equal(CHECKS.length - 1);
    expect(run.results.map((r) => r.check_name)).to.deep.equal(ofTheBook.map((c) => c.name));
    expect(run).to.include({ category: null, status: 'ok' });
    expect(await findRun(book.db, run.run_id)).to.deep.equal(run);
  });

  it('a run of one category runs only its checks', async () => {
    const run = await runReconciliation(deps(), { category: 'A' });
    expect(run.category).to.equal('A');
    expect(run.results.every((r) => r.category === 'A')).to.equal(true);
    expect(run.results.length).to.equal(CHECKS.filter((c) => c.category === 'A').length);
  });

  it('a check that throws is a fail with its error, and the others still run', async () => {
    const run = await runReconciliation(deps(), { checks: [fixed('first', 'ok'), throwing, fixed('last', 'warn', 1)] });
    expect(run.results.map((r) => [r.check_name, r.status])).to.deep.equal([
      ['first', 'ok'],
      ['throws', 'fail'],
      ['last', 'warn'],
    ]);
    expect(run.results[1]!.metrics).to.deep.equal({ error: 'relation "nowhere" does not exist' });
    expect(run.status).to.equal('fail');
  });

  it('a check that answers ok with variances is a fail (a bug in the check), named', async () => {
    const run = await runReconciliation(deps(), {
      checks: [
        { ...fixed('confused', 'ok'), run: async () => ({ status: 'ok', metrics: {}, variances: [variance({})] }) },
      ],
    });
    expect(run.results[0]).to.include({ status: 'fail' });
    expect(run.results[0]!.metrics).to.deep.equal({
      error: 'invariant violated: confused answered ok with 1 variances',
    });
  });

  it('with alert_persist_enabled › each variance is also a row of reconciliation_variances; without › none', async () => {
    const kept = await runReconciliation(deps(), { checks: [fixed('drifts', 'warn', 2)] });
    const rows = await book.db('reconciliation_variances').where({ run_id: kept.run_id }).orderBy('ordinal');
    expect(rows.map((r) => [r.ordinal, r.check_name, r.customer_id, r.expected, r.actual, r.difference])).to.deep.equal(
      [
        [0, 'drifts', 'C-0', '1.00', '2.00', '1.00'],
        [1, 'drifts', 'C-1', '1.00', '2.00', '1.00'],
      ],
    );
    const notKept = await runReconciliation(
      { ...deps(), settings: { ...DEFAULT_RECON_SETTINGS, alertPersistEnabled: false } },
      { checks: [fixed('drifts', 'warn', 2)] },
    );
    expect(notKept.metadata.variances).to.have.length(2);
    expect(await book.db('reconciliation_variances').where({ run_id: notKept.run_id })).to.deep.equal([]);
  });

  it('a check keeps at most RECON_VARIANCES_PER_CHECK_MAX variances', async () => {
    const run = await runReconciliation(
      { ...deps(), settings: { ...DEFAULT_RECON_SETTINGS, variancesPerCheckMax: 3 } },
      { checks: [fixed('many', 'fail', 5)] },
    );
    expect(run.metadata.variances).to.have.length(3);
  });

  it('in a scheduled run, a check whose lock another instance holds is skipped this cycle and named in the run', async () => {
    const other = createDb({ url: book.url, poolMax: 1, applicationName: 'other-recon' });
    try {
      await other.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(?::bigint)', [advisoryLockId('recon:held')]);
        const run = await runReconciliation(deps(), {
          checks: [fixed('held', 'fail', 1), fixed('free', 'ok')],
          cycle: { intervalMs: 3_600_000 },
        });
        expect(run.results.map((r) => r.check_name)).to.deep.equal(['free']);
        expect(run.metadata.skipped).to.deep.equal([
          { check_name: 'held', category: 'A', reason: 'another instance holds its lock: it runs there this cycle' },
        ]);
        expect(run.status).to.equal('ok');
      });
    } finally {
      await other.destroy();
    }
  });

  it('a run asked for waits for a check another instance is running, then runs it (never ok for a check it skipped)', async () => {
    const other = createDb({ url: book.url, poolMax: 1, applicationName: 'other-recon' });
    try {
      await other.raw('SELECT pg_advisory_lock(?::bigint)', [advisoryLockId('recon:busy')]);
      let finished = false;
      const running = runReconciliation(deps(), { checks: [fixed('busy', 'warn', 1)] }).finally(() => {
        finished = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(finished, 'the run waits while the other instance holds the check').to.equal(false);
      await other.raw('SELECT pg_advisory_unlock(?::bigint)', [advisoryLockId('recon:busy')]);
      const run = await running;
      expect(run.results.map((r) => [r.check_name, r.status])).to.deep.equal([['busy', 'warn']]);
      expect(run.metadata.skipped).to.deep.equal([]);
      expect(run.status).to.equal('warn');
    } finally {
      await other.destroy();
    }
  });

  it('a run stopped part-way (shutdown) writes nothing', async () => {
    const before = await book.db('reconciliation_runs').count<Array<{ n: string }>>({ n: '*' });
    const abort = new AbortController();
    const stopping: Check = {
      ...fixed('stops', 'ok'),
      run: async () => (abort.abort(), { status: 'ok', metrics: {}, variances: [] }),
    };
    const failure = await runReconciliation(deps(), {
      checks: [stopping, fixed('never', 'ok')],
      signal: abort.signal,
    }).catch((e: Error) => e);
    expect(failure).to.be.instanceOf(Error);
    const after = await book.db('reconciliation_runs').count<Array<{ n: string }>>({ n: '*' });
    expect(after).to.deep.equal(before);
  });

  /** Polls `condition` until it holds (a state another connection reaches, not a time). */
  const until = async (condition: () => Promise<boolean> | boolean) => {
    while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const backends = async (where: string, bindings: string[]) =>
    (
      await book.db.raw<{ rows: Array<{ n: number }> }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND ${where}`,
        bindings,
      )
    ).rows[0]!.n;

  it('a run works on one connection of the pool: with the pool’s only one taken, it waits for it and opens none of its own', async () => {
    const name = 'recon-pool-of-one';
    const db = createDb({ url: book.runtime!.url, poolMax: 1, applicationName: name });
    const held = await db.transaction();
    const running = runReconciliation({ ...deps(), db }, { checks: [fixed('pooled', 'ok')] });
    try {
      await held.raw('SELECT 1');
      await until(() => db.client.pool.numPendingAcquires() > 0);
      expect(await backends('application_name = ?', [name])).to.equal(1);
      await held.commit();
      expect((await running).status).to.equal('ok');
    } finally {
      if (!held.isCompleted()) await held.rollback();
      await running.catch(() => undefined);
      await db.destroy();
    }
  });

  it('aborting a run (shutdown) cancels its statement in flight: the run ends at once and no query outlives it', async () => {
    const sleeping: Check = {
      ...fixed('sleeps', 'ok'),
      run: async ({ db }) => {
        await db.raw('SELECT pg_sleep(600)');
        return { status: 'ok', metrics: {}, variances: [] };
      },
    };
    const abort = new AbortController();
    const running = runReconciliation(deps(), { checks: [sleeping], signal: abort.signal }).catch((e: unknown) => e);
    const sleepers = () => backends(`state = 'active' AND query LIKE 'SELECT pg_sleep(600)%'`, []);
    await until(async () => (await sleepers()) === 1);
    abort.abort();
    expect(await running).to.equal(abort.signal.reason);
    expect(await sleepers()).to.equal(0);
  });

  it('aborting a run that waits for a check’s lock ends the wait: no backend is left waiting', async () => {
    const other = createDb({ url: book.url, poolMax: 1, applicationName: 'other-recon' });
    // Held by a transaction: its connection is in use, never reaped from the pool as idle.
    const holder = await other.transaction();
    try {
      await holder.raw('SELECT pg_advisory_xact_lock(?::bigint)', [advisoryLockId('recon:held-long')]);
      const abort = new AbortController();
      const running = runReconciliation(deps(), { checks: [fixed('held-long', 'ok')], signal: abort.signal }).catch(
        (e: unknown) => e,
      );
      const waiting = () => backends(`wait_event = 'advisory' AND query LIKE '%pg_advisory_lock%'`, []);
      await until(async () => (await waiting()) === 1);
      abort.abort();
      expect(await running).to.equal(abort.signal.reason);
      expect(await waiting()).to.equal(0);
    } finally {
      await holder.rollback();
      await other.destroy();
    }
  });

  it('a run asked for with full sweeps every incremental check whole, whatever its mark', async () => {
    await runReconciliation(deps(), { category: 'A' });
    const incremental = await runReconciliation(deps(), { category: 'A' });
    const full = await runReconciliation(deps(), { category: 'A', full: true });
    const sweep = (run: typeof full) =>
      run.results.find((r) => r.check_name === 'source_txn_uniqueness')!.metrics.sweep;
    expect([sweep(incremental), sweep(full)]).to.deep.equal(['incremental', 'full']);
  });

  it('runs are listed newest first, filtered by status, category, check and day', async () => {
    await corrupt(
      book.db,
      `INSERT INTO account_totals (account_code, slot, debit_total, credit_total, line_count) VALUES ('1010', 98, 1.00, 0, 0)`,
    );
    const failed = await runReconciliation(deps(), { category: 'A' });
    await corrupt(book.db, `DELETE FROM account_totals WHERE slot = 98`);
    const page = { limit: 50, offset: 0 };
    const all = await listRuns(book.db, {}, page);
    expect(all.items[0]!.run_id).to.equal(failed.run_id);
    expect(all.items[0]!.variance_count).to.equal(1);
    expect((await listRuns(book.db, { status: 'fail', category: 'A' }, page)).items.map((r) => r.run_id)).to.deep.equal(
      [failed.run_id],
    );
    expect((await listRuns(book.db, { check_name: 'drifts' }, page)).total).to.equal(2);
    const today = failed.started_at.slice(0, 10);
    expect((await listRuns(book.db, { from: today, to: today }, page)).total).to.equal(all.total);
    expect((await listRuns(book.db, { to: '2000-01-01' }, page)).total).to.equal(0);
  });
});

describe('scheduled runs, cycle by cycle', function () {
  this.timeout(60_000);
  let book: Book;
  before(async () => {
    book = await cleanBook();
  });
  after(async () => book?.drop());

  it('a check already run this cycle (by another instance) is skipped; the next cycle runs it again', async () => {
    const deps = {
      db: book.runtimeDb,
      book: 'ENTITY_UAE' as const,
      settings: DEFAULT_RECON_SETTINGS,
      upstreams: NO_UPSTREAMS,
    };
    const counted = (name: string) => {
      let runs = 0;
      return {
        check: {
          ...fixed(name, 'ok'),
          run: async () => ((runs += 1), { status: 'ok' as const, metrics: {}, variances: [] }),
        },
        runs: () => runs,
      };
    };
    const each = counted('hourly');
    const hour = { intervalMs: 3_600_000 };
    const first = await runReconciliation(deps, { checks: [each.check], cycle: hour });
    const second = await runReconciliation(deps, { checks: [each.check], cycle: hour });
    expect(first.results.map((r) => r.check_name)).to.deep.equal(['hourly']);
    expect(second.results).to.deep.equal([]);
    expect(second.metadata.skipped).to.deep.equal([
      { check_name: 'hourly', category: 'A', reason: 'already run this cycle by another instance' },
    ]);
    // A run not on the schedule (POST /v1/reconciliation/run) always runs.
    await runReconciliation(deps, { checks: [each.check] });
    expect(each.runs()).to.equal(2);
    // The next cycle: the claim set back, as the clock moving on past the hour would leave it.
    await book.db('reconciliation_check_cycles').where({ check_name: 'hourly' }).update({ cycle: 0 });
    await runReconciliation(deps, { checks: [each.check], cycle: hour });
    expect(each.runs()).to.equal(3);
  });
});
