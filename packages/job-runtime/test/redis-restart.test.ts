import { randomUUID } from 'node:crypto';
import { createLogger } from '@ledger/core/runtime';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { expect } from 'chai';
import { z } from 'zod';
import { OwnRedis } from './own-redis.js';
import { createJobProducer, createJobWorkers, JobQueueUnavailable, type JobCatalog } from '../src/testing.js';

const logger = createLogger({ level: 'error', service: 'jobs-test', book: 'ENTITY_UAE', silent: true });

/** Every run of the test jobs, by their n. */
const runs: number[] = [];

const echo = {
  kind: 'echo',
  mode: 'sync' as const,
  family: 'syncs' as const,
  books: ['ENTITY_UAE' as const],
  why: 'a test job',
  input: z.object({ n: z.number() }),
  result: z.strictObject({ echoed: z.number() }),
  businessKey: () => null,
  run: async ({ n }: { n: number }) => {
    runs.push(n);
    return { echoed: n };
  },
};
/** The same job, answered at once (background), for polling while the worker reconnects. */
const CATALOG: JobCatalog = { echo, later: { ...echo, kind: 'later', mode: 'background' } };

describe('jobs platform when Redis restarts', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let redis: OwnRedis | undefined;
  before(async () => {
    database = await createTestDatabase({ poolMax: 4 });
  });
  after(async () => {
    await redis?.kill();
    await database.drop();
  });

  it('api and worker reconnect by themselves: while it is down enqueue is refused at once, after it is back the next job runs', async () => {
    redis = await OwnRedis.start();
    const redisUrl = redis.url;
    const options = {
      book: 'ENTITY_UAE' as const,
      redisUrl,
      queuePrefix: `restart-${randomUUID().slice(0, 8)}`,
      logger,
    };
    const producer = createJobProducer({ ...options, db: database.db, catalog: CATALOG, syncWaitMs: 10_000 });
    const workers = createJobWorkers({ ...options, db: database.db, catalog: CATALOG, settings: null });
    try {
      await workers.waitUntilReady();
      expect((await producer.enqueue('echo', { n: 1 })).status).to.equal('done');

      await redis.kill();
      const refused = await producer.enqueue('echo', { n: 2 }).catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(JobQueueUnavailable);

      await redis.restart();
      // The producer takes jobs again as soon as it has reconnected...
      let queued;
      for (let i = 0; i < 200 && !queued; i += 1) {
        queued = await producer.enqueue('later', { n: 3 }).catch(() => undefined);
        if (!queued) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(queued, 'the producer reconnected').to.not.equal(undefined);
      // ...and the worker, reconnecting on its own, runs it.
      let status = queued;
      for (let i = 0; i < 600 && status?.status !== 'done'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await producer.status(queued!.job_id).catch(() => null)) ?? status;
      }
      expect(status?.result).to.deep.equal({ echoed: 3 });
      // Refused means never queued: not when Redis came back either.
      expect(runs.filter((n) => n === 2)).to.deep.equal([]);
    } finally {
      await producer.close();
      await workers.close();
    }
  });
});
