import { expect } from 'chai';
import { migrateDownTo, migrateToHead } from '../src/store/migrate.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

/**
 * Migration 20270220 on a book whose finished runs kept their customer failures as prose: each
 * reason becomes `{code, detail}` of the closed set the api documents, what the prose said kept
 * as `detail.message`; anything else of the runs stays as it was, and down words them back.
 */
describe('migration 20270220: the customer failures of stored job runs get their code', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  before(async () => {
    t = await createTestDatabase();
  });
  after(async () => {
    await t?.drop();
  });

  const BEFORE = '20270217_check_each_customer_once';
  const failed = (...reasons: unknown[]) => reasons.map((reason, i) => ({ customer_id: `C-${i}`, reason }));
  const prose = [
    'upstream_unavailable: remit GET /api/v1/orders answered 500 after 3 attempts',
    'not_linked: the book has no customer C-1 with a remit_customer_id',
    'upstream_unavailable: uaefeed is not configured on this book',
    'funding wires: upstream_refused: usbroker GET /v1/funding/wires answered 401 after 1 attempt: credentials refused',
    'not in the customer registry',
    "conflict: usbroker_account_no is already another customer's",
    'validation_error: the registry’s pan is not a PAN: five letters, four digits, a letter',
    'unknown customer',
    'usbroker is not configured (USBROKER_BASE_URL)',
    'remit GET /api/v1/orders answered 500 after 3 attempts',
  ];
  const coded = [
    {
      code: 'upstream_unavailable',
      detail: { message: 'remit GET /api/v1/orders answered 500 after 3 attempts' },
    },
    { code: 'not_linked', detail: { message: 'the book has no customer C-1 with a remit_customer_id' } },
    {
      code: 'upstream_not_configured',
      detail: { upstream: 'uaefeed', message: 'uaefeed is not configured on this book' },
    },
    {
      code: 'upstream_refused',
      detail: {
        step: 'funding_wires',
        message: 'usbroker GET /v1/funding/wires answered 401 after 1 attempt: credentials refused',
      },
    },
    { code: 'not_in_registry', detail: { message: 'not in the customer registry' } },
    { code: 'conflict', detail: { message: "usbroker_account_no is already another customer's" } },
    {
      code: 'validation_error',
      detail: { message: 'the registry’s pan is not a PAN: five letters, four digits, a letter' },
    },
    { code: 'not_linked', detail: { message: 'unknown customer' } },
    {
      code: 'upstream_not_configured',
      detail: { upstream: 'usbroker', message: 'usbroker is not configured (USBROKER_BASE_URL)' },
    },
    { code: 'uncoded', detail: { message: 'remit GET /api/v1/orders answered 500 after 3 attempts' } },
  ];

  async function finishedRun(jobId: string, result: Record<string, unknown>) {
    await t.db('job_runs').insert({
      job_id: jobId,
      kind: 'sync-remit',
      input: {},
      status: 'done',
      attempts: 1,
      first_started_at: '2027-02-01T00:00:00Z',
      attempt_started_at: '2027-02-01T00:00:00Z',
      finished_at: '2027-02-01T00:01:00Z',
      result,
    });
  }
  const resultOf = async (jobId: string) =>
    ((await t.db('job_runs').where({ job_id: jobId }).first('result')) as { result: Record<string, unknown> }).result;

  it('rewrites each prose reason as its code and facts, leaves the rest of every run as it was, and down words them back', async () => {
    await migrateDownTo(t.db, BEFORE);
    const old = { dry_run: false, customers: 12, customers_failed: failed(...prose), records: {}, issues: [] };
    await finishedRun('old', old);
    await finishedRun('none-failed', { ...old, customers_failed: [] });
    await finishedRun('no-customers', { dry_run: false, as_of: '2027-02-01', rows: 3 });
    const mixed = failed(coded[0], prose[1]);
    await finishedRun('mixed', { ...old, customers_failed: mixed });

    await migrateToHead(t.db);
    expect(await resultOf('old')).to.deep.equal({ ...old, customers_failed: failed(...coded) });
    expect(await resultOf('none-failed')).to.deep.equal({ ...old, customers_failed: [] });
    expect(await resultOf('no-customers')).to.deep.equal({ dry_run: false, as_of: '2027-02-01', rows: 3 });
    expect(await resultOf('mixed')).to.deep.equal({ ...old, customers_failed: failed(coded[0], coded[1]) });

    await migrateDownTo(t.db, BEFORE);
    const worded = (await resultOf('old')).customers_failed as Array<{ reason: unknown }>;
    expect(worded.map((f) => f.reason)).to.deep.equal([
      ...prose.slice(0, 4),
      'not_in_registry: not in the customer registry',
      ...prose.slice(5, 7),
      'not_linked: unknown customer',
      'upstream_unavailable: usbroker is not configured (USBROKER_BASE_URL)',
      'remit GET /api/v1/orders answered 500 after 3 attempts',
    ]);
    await migrateToHead(t.db);
    expect(await resultOf('old'), 'up again: the same codes').to.deep.equal({
      ...old,
      customers_failed: failed(...coded),
    });
  });

  it('a finished run stays final for everyone else: the guard is back on', async () => {
    const error = await t
      .db('job_runs')
      .where({ job_id: 'old' })
      .update({ error: 'edited' })
      .then(
        () => null,
        (e: unknown) => e as Error,
      );
    expect(error?.message).to.match(/a finished run is final/);
  });
});
