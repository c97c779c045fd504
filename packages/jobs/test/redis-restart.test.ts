import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createLogger } from '@ledger/core';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { expect } from 'chai';
import { z } from 'zod';
import { createJobProducer, createJobWorkers, JobQueueUnavailable, type JobCatalog } from '../src/index.js';

const logger = createLogger({ level: 'error', service: 'jobs-test', book: 'ENTITY_UAE', silent: true });

/** Every run of the test jobs, by their n. */
const runs: number[] = [];

const echo = {
  kind: 'echo',
  mode: 'sync' as const,
  family: 'syncs' as const,
  books: ['ENTITY_UAE' as const],
  input: z.object({ n: z.number() }),
  businessKey: () => null,
  run: async ({ n }: { n: number }) => {
    runs.push(n);
    return { echoed: n };
  },
};
/** The same job, answered at once (background), for polling while the worker reconnects. */
const CATALOG: JobCatalog = { echo, later: { ...echo, kind: 'later', mode: 'background' } };

/** A free TCP port on localhost. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** A Redis server of this test's own (never the shared one, which others are using). */
async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  redis.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let i = 0; i < 100 && !output.includes('Ready to accept connections'); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(output, 'redis-server started').to.include('Ready to accept connections');
  return redis;
}

describe('jobs platform when Redis restarts', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let redis: ChildProcess | undefined;
  before(async () => {
    database = await createTestDatabase({ poolMax: 4 });
  });
  after(async () => {
    redis?.kill('SIGKILL');
    await database.drop();
  });

  it('api and worker reconnect by themselves: while it is down enqueue is refused at once, after it is back the next job runs', async () => {
    const port = await freePort();
    const redisUrl = `redis://127.0.0.1:${port}`;
    redis = await startRedis(port);
    const options = { book: 'ENTITY_UAE' as const, redisUrl, queuePrefix: `restart-${randomUUID().slice(0, 8)}`, logger };
    const producer = createJobProducer({ ...options, db: database.db, catalog: CATALOG, syncWaitMs: 10_000 });
    const workers = createJobWorkers({ ...options, db: database.db, catalog: CATALOG });
    try {
      await workers.waitUntilReady();
      expect((await producer.enqueue('echo', { n: 1 })).status).to.equal('done');

      redis.kill('SIGKILL');
      await once(redis, 'exit');
      const refused = await producer.enqueue('echo', { n: 2 }).catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(JobQueueUnavailable);

      redis = await startRedis(port);
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
