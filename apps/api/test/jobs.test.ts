import { randomUUID } from 'node:crypto';
import { JobRunStore, JobStatusStore, statusKeyPrefix } from '@ledger/job-runtime';
import { CUSTOMER_FAILURE_CODES } from '@ledger/jobs';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { apiDocument } from '../src/openapi/index.js';
import type { ResponseObject } from '../src/openapi/types.js';
import { expectError, startApi, type TestApi } from './support.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** A recost run's result, as its schema declares it: the status records' results are checked against it. */
const recostRun = (recosted: number) => ({ recosted, derivations_posted: 0, superseded: 0, flagged: [], remaining: 0 });

describe('jobs: GET /v1/jobs/status/{job_id}', () => {
  const prefix = `api-jobs-${randomUUID().slice(0, 8)}`;
  let api: TestApi;
  let redis: Redis;
  before(async () => {
    api = await startApi({ env: { QUEUE_PREFIX: prefix } });
    redis = new Redis(REDIS_URL);
  });
  after(async () => {
    await api.close();
    await redis.quit();
  });

  it('answers the status record a worker keeps, in the documented shape, to the ledger token', async () => {
    const store = new JobStatusStore(redis, statusKeyPrefix(prefix, 'ENTITY_UAE'));
    const runs = new JobRunStore(api.db);
    const jobId = randomUUID();
    const queuedAt = new Date('2026-11-25T09:59:59.000Z');
    await store.queued(jobId, 'recost', queuedAt, 'api:ana');
    const claim = await runs.claim({ jobId, kind: 'recost', input: {}, startedBy: 'api:ana' }, randomUUID(), 30_000);
    expect(claim.state).to.equal('claimed');
    await store.ofRun(claim.run, queuedAt);
    await store.progressed(jobId, { done: 5, total: 10, unit: 'trades' });
    const running = await api.get(`/v1/jobs/status/${jobId}`, { token: 'ledger' });
    expect(running.status).to.equal(200);
    expect(running.body).to.include({
      job_id: jobId,
      kind: 'recost',
      started_by: 'api:ana',
      status: 'running',
      queued_at: queuedAt.toISOString(),
      finished_at: null,
      attempts: 1,
    });
    expect(running.body.started_at).to.equal(claim.run.first_started_at.toISOString());
    expect(running.body.progress).to.deep.equal({ done: 5, total: 10, unit: 'trades' });
    const done = await runs.end(jobId, claim.run.lease_owner!, { status: 'done', result: recostRun(10) });
    await store.ofRun(done!, queuedAt);
    const answered = await api.get(`/v1/jobs/status/${jobId}`, { token: 'admin' });
    expect(answered.body).to.include({
      status: 'done',
      duration_ms: done!.finished_at!.getTime() - done!.first_started_at.getTime(),
      attempts: 1,
      error: null,
    });
    expect(answered.body.result).to.deep.equal(recostRun(10));
  });

  it('answers a run the book has when Redis lost its record (restarted without persistence)', async () => {
    const runs = new JobRunStore(api.db);
    const jobId = randomUUID();
    const owner = randomUUID();
    await runs.claim({ jobId, kind: 'recost', input: {}, startedBy: 'system' }, owner, 30_000);
    await runs.end(jobId, owner, { status: 'done', result: recostRun(3) });
    const answered = await api.get(`/v1/jobs/status/${jobId}`, { token: 'ledger' });
    expect(answered.status).to.equal(200);
    expect(answered.body).to.include({ job_id: jobId, kind: 'recost', status: 'done', queued_at: null, attempts: 1 });
    expect(answered.body.result).to.deep.equal(recostRun(3));
  });

  it('documents each job’s result by its schema: a stored result of no job’s shape fails the response check', async () => {
    const runs = new JobRunStore(api.db);
    const jobId = randomUUID();
    const owner = randomUUID();
    await runs.claim({ jobId, kind: 'recost', input: {}, startedBy: 'system' }, owner, 30_000);
    await runs.end(jobId, owner, { status: 'done', result: { ...recostRun(3), stray: true } });
    expect((await api.get(`/v1/jobs/status/${jobId}`, { token: 'ledger' })).status).to.equal(500);
    const status = apiDocument.components.schemas.JobStatus!;
    expect(status.properties!.result!.anyOf).to.deep.include({ $ref: '#/components/schemas/RecostResult' });
    const recost = apiDocument.paths['/v1/jobs/recost']!.post!.responses['200'] as ResponseObject;
    expect(recost.content!['application/json']!.schema.allOf![1]).to.deep.equal({
      type: 'object',
      properties: { result: { anyOf: [{ $ref: '#/components/schemas/RecostResult' }, { type: 'null' }] } },
    });
  });

  it('documents a customer failure’s reason as a code of the closed set and its facts: a stored prose reason (before 20270220) fails the response check', async () => {
    const runs = new JobRunStore(api.db);
    const holdings = (reason: unknown) => ({
      dry_run: false,
      as_of: '2027-02-19',
      snapshots: { inserted: 0, updated: 0, duplicate: 0, conflict: 0, rejected: 0, skipped: 0 },
      customers: [],
      customers_failed: [{ customer_id: 'UAE-000001', reason }],
    });
    const stored = async (result: unknown) => {
      const jobId = randomUUID();
      const owner = randomUUID();
      await runs.claim({ jobId, kind: 'sync-holdings', input: {}, startedBy: 'system' }, owner, 30_000);
      await runs.end(jobId, owner, { status: 'done', result: result as Record<string, unknown> });
      return api.get(`/v1/jobs/status/${jobId}`, { token: 'ledger' });
    };
    const coded = holdings({
      code: 'upstream_unavailable',
      detail: {
        upstream: 'custodian',
        method: 'GET',
        path: '/holdings',
        status: 500,
        message: 'custodian GET /holdings answered 500 after 3 attempts',
      },
    });
    const answered = await stored(coded);
    expect(answered.status, answered.text).to.equal(200);
    expect(answered.body.result).to.deep.equal(coded);
    const prose = await stored(holdings('upstream_unavailable: custodian GET /holdings answered 500 after 3 attempts'));
    expect(prose.status).to.equal(500);
    expect((await stored(holdings({ code: 'timeout', detail: {} }))).status, 'a code outside the set').to.equal(500);
    expect(apiDocument.components.schemas.CustomerFailureCode!.enum).to.deep.equal([...CUSTOMER_FAILURE_CODES]);
  });

  it('a job records who started it: the operator of X-Ledger-Actor, in its status record', async () => {
    const reply = await api.post(
      '/v1/jobs/refresh-snapshots',
      { dry_run: true },
      {
        headers: { 'X-Ledger-Actor': 'ana@example.com' },
      },
    );
    expect(reply.status, reply.text).to.equal(202);
    expect(reply.body).to.include({ kind: 'refresh-snapshots', started_by: 'api:ana@example.com' });
    const status = await api.get(`/v1/jobs/status/${reply.body.job_id}`, { token: 'ledger' });
    expect(status.body).to.include({ status: 'running', attempts: 0, started_by: 'api:ana@example.com' });
  });

  it('a job of the other book is 409 wrong_book and queues nothing', async () => {
    const keysBefore = await redis.keys(`${prefix}:*`);
    const india = await api.post('/v1/jobs/sync-remit', { customer_ids: null });
    expectError(india, 409, 'wrong_book');
    expect(india.body.error.details).to.deep.equal([{ book: 'ENTITY_UAE', books: ['ENTITY_IND_IFSC'] }]);
    expect(await redis.keys(`${prefix}:*`)).to.have.members(keysBefore);
    const other = await startApi({ env: { ENTITY_ID: 'ENTITY_IND_IFSC', QUEUE_PREFIX: prefix } });
    try {
      expectError(await other.post('/v1/jobs/sync-uaefeed', {}), 409, 'wrong_book');
    } finally {
      await other.close();
    }
  });

  it('when a job body names a day not on the calendar › 400 validation_error naming the field, and nothing is queued', async () => {
    const keysBefore = await redis.keys(`${prefix}:*`);
    for (const [kind, body, path] of [
      ['sync-uaefeed', { to: '2026-02-30' }, '/body/to'],
      ['sync-holdings', { as_of: '2026-13-01' }, '/body/as_of'],
      ['sync-cash-statements', { month: '2026-13' }, '/body/month'],
    ] as const) {
      const reply = await api.post(`/v1/jobs/${kind}`, body);
      expectError(reply, 400, 'validation_error');
      expect(reply.text, kind).to.contain(path);
    }
    expect(await redis.keys(`${prefix}:*`)).to.have.members(keysBefore);
  });

  it('an unknown job id is 404 not_found', async () => {
    expectError(await api.get(`/v1/jobs/status/${randomUUID()}`, { token: 'ledger' }), 404, 'not_found');
  });

  it('a malformed job id is 400, and no credential 401', async () => {
    expectError(await api.get('/v1/jobs/status/has:colon', { token: 'ledger' }), 400, 'validation_error');
    expectError(await api.get(`/v1/jobs/status/${randomUUID()}`), 401, 'unauthorized');
  });

  it('documents the status record and a job endpoint per job of the catalog', () => {
    expect(apiDocument.components.schemas.JobStatus).to.be.an('object');
    expect(apiDocument.paths['/v1/jobs/status/{job_id}']?.get?.operationId).to.equal('getJobStatus');
  });

  describe('with Redis unreachable', () => {
    let down: TestApi;
    before(async () => {
      down = await startApi({ env: { REDIS_URL: 'redis://127.0.0.1:1', QUEUE_PREFIX: prefix } });
    });
    after(async () => {
      await down.close();
    });

    it('answers 503 not_ready at once instead of hanging, and the rest of the api still serves', async () => {
      const started = Date.now();
      expectError(await down.get(`/v1/jobs/status/${randomUUID()}`, { token: 'ledger' }), 503, 'not_ready');
      expect(Date.now() - started).to.be.below(4_000);
      expect((await down.get('/v1/firm/trial_balance', { token: 'ledger' })).status).to.equal(200);
    });
  });
});

describe('jobs: GET /v1/jobs', () => {
  let api: TestApi;
  /** Three runs of the book, on three days: a recost done, a sync-uaefeed failed, a recost still running. */
  const runs = [
    { job_id: 'recost-1', kind: 'recost', day: '2026-11-01', status: 'done', result: recostRun(4), error: null },
    { job_id: 'uaefeed-1', kind: 'sync-uaefeed', day: '2026-11-02', status: 'error', result: null, error: 'upstream' },
    { job_id: 'recost-2', kind: 'recost', day: '2026-11-03', status: 'running', result: null, error: null },
  ] as const;
  const list = async (query = '') => {
    const reply = await api.get(`/v1/jobs${query}`, { token: 'ledger' });
    expect(reply.status, reply.text).to.equal(200);
    return reply.body as { items: Array<Record<string, unknown>>; total: number; limit: number; offset: number };
  };
  const ids = (page: { items: Array<Record<string, unknown>> }) => page.items.map((run) => run.job_id);

  before(async () => {
    api = await startApi();
    await api.db('job_runs').insert(
      runs.map(({ day, ...run }) => ({
        ...run,
        input: JSON.stringify({ limit: 10 }),
        result: run.result === null ? null : JSON.stringify(run.result),
        attempts: 1,
        first_started_at: `${day}T23:59:00Z`,
        attempt_started_at: `${day}T23:59:00Z`,
        finished_at: run.status === 'running' ? null : `${day}T23:59:30Z`,
      })),
    );
  });
  after(async () => {
    await api.close();
  });

  it('lists every job run of the book, the latest started first, with its input, duration and outcome', async () => {
    const page = await list();
    expect(page).to.include({ total: 3, limit: 50, offset: 0 });
    expect(ids(page)).to.deep.equal(['recost-2', 'uaefeed-1', 'recost-1']);
    expect(page.items[2]).to.deep.equal({
      job_id: 'recost-1',
      kind: 'recost',
      // Written by hand in SQL, as these rows are.
      started_by: 'sql',
      status: 'done',
      started_at: '2026-11-01T23:59:00.000Z',
      finished_at: '2026-11-01T23:59:30.000Z',
      duration_ms: 30_000,
      attempts: 1,
      input: { limit: 10 },
      result: recostRun(4),
      error: null,
    });
    expect(page.items[0]).to.include({ status: 'running', finished_at: null, duration_ms: null });
  });

  it('filters by kind, by status and by the UTC day of the first start (from and to inclusive), and pages', async () => {
    expect(ids(await list('?kind=recost'))).to.deep.equal(['recost-2', 'recost-1']);
    expect(ids(await list('?status=error'))).to.deep.equal(['uaefeed-1']);
    expect(ids(await list('?from=2026-11-02&to=2026-11-02'))).to.deep.equal(['uaefeed-1']);
    expect(ids(await list('?from=2026-11-02'))).to.deep.equal(['recost-2', 'uaefeed-1']);
    expect(ids(await list('?to=2026-11-01'))).to.deep.equal(['recost-1']);
    const second = await list('?limit=1&offset=1');
    expect(second).to.include({ total: 3, limit: 1, offset: 1 });
    expect(ids(second)).to.deep.equal(['uaefeed-1']);
  });

  it('an unknown kind or status, a day not on the calendar or a limit over 500 is 400; no token is 401', async () => {
    for (const query of ['?kind=no-such-job', '?status=queued', '?from=2026-02-30', '?limit=501'])
      expectError(await api.get(`/v1/jobs${query}`, { token: 'ledger' }), 400, 'validation_error');
    expectError(await api.get('/v1/jobs'), 401, 'unauthorized');
    expect((await api.get('/v1/jobs', { token: 'admin' })).status).to.equal(200);
  });
});
