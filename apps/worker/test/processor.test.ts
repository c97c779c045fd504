import { createLogger } from '@ledger/core';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { UnrecoverableError, type Job } from 'bullmq';
import { expect } from 'chai';
import type { JobHandler } from '../src/jobs/index.js';
import { JOB_HANDLERS } from '../src/jobs/index.js';
import { createProcessor } from '../src/processor.js';

const logger = createLogger({ level: 'error', service: 'worker-test', book: 'ENTITY_UAE', silent: true });

/** Just what the processor reads of a BullMQ job. */
function jobNamed(name: string, data: unknown): Job<unknown, unknown, string> {
  return { id: '1', name, data } as Job<unknown, unknown, string>;
}

describe('job processor', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrate: false, poolMax: 1 });
  });
  after(async () => {
    await database.drop();
  });

  it('hands a job to the handler registered under its name, with the book and database', async () => {
    const seen: unknown[] = [];
    const echo: JobHandler = async (job, context) => {
      seen.push([job.data, context.book, context.db === database.db]);
      return { ok: true };
    };
    const process = createProcessor({ echo }, { book: 'ENTITY_IND_IFSC', db: database.db, logger });
    expect(await process(jobNamed('echo', { n: 1 }))).to.deep.equal({ ok: true });
    expect(seen).to.deep.equal([[{ n: 1 }, 'ENTITY_IND_IFSC', true]]);
  });

  it('fails a job of an unknown name with UnrecoverableError, naming it', async () => {
    const process = createProcessor(JOB_HANDLERS, { book: 'ENTITY_UAE', db: database.db, logger });
    const error = await process(jobNamed('sync-everything', {})).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(UnrecoverableError);
    expect((error as Error).message).to.include('"sync-everything"');
  });

  it('does not take an inherited property of the registry for a handler', async () => {
    const process = createProcessor({}, { book: 'ENTITY_UAE', db: database.db, logger });
    const error = await process(jobNamed('toString', {})).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(UnrecoverableError);
  });
});
