/**
 * A worker process of the fault-injection suite (faults.test.ts): the real job workers, on the
 * book's database as its runtime role and on a Redis of the test's own, running FAULT_CATALOG.
 * Prints `{"event":"ready"}` once its queues are ready; SIGTERM closes it as the worker app does.
 */
import { createLogger } from '@ledger/core/runtime';
import { createDb } from '@ledger/core/store';
import { createJobWorkers } from '../../src/index.js';
import { FAULT_CATALOG } from './catalog.js';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const logger = createLogger({ level: 'warn', service: 'fault-worker', book: 'ENTITY_UAE' });
const db = createDb({ url: env('LEDGER_DB_URL'), poolMax: 4, applicationName: 'fault-worker' });
const workers = createJobWorkers({
  book: 'ENTITY_UAE',
  redisUrl: env('REDIS_URL'),
  queuePrefix: env('QUEUE_PREFIX'),
  db,
  logger,
  catalog: FAULT_CATALOG,
  settings: null,
  stalledIntervalMs: Number(env('JOB_STALLED_INTERVAL_MS')),
});
await workers.waitUntilReady();
process.stdout.write(`${JSON.stringify({ event: 'ready' })}\n`);
process.on('SIGTERM', () => {
  void workers
    .close()
    .then(() => db.destroy())
    .then(() => process.exit(0));
});
