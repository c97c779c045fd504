import { BOOKS } from '@ledger/core/runtime';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { JOB_FAMILIES, jobIdOf, queueName, type JobFamily } from '../src/testing.js';

const FAMILIES = Object.keys(JOB_FAMILIES) as JobFamily[];

describe('job queues', () => {
  it('name each book and family its own queue, so two books can share one Redis', () => {
    const names = BOOKS.flatMap((book) => FAMILIES.map((family) => queueName(book, family)));
    expect(new Set(names).size).to.equal(BOOKS.length * FAMILIES.length);
    for (const book of BOOKS)
      for (const family of FAMILIES) expect(queueName(book, family)).to.include(book).and.include(family);
  });

  it('are names BullMQ accepts (no ":")', async () => {
    const connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
    try {
      for (const book of BOOKS) {
        for (const family of FAMILIES) {
          expect(queueName(book, family)).to.not.include(':');
          const queue = new Queue(queueName(book, family), { connection });
          await queue.close();
        }
      }
    } finally {
      connection.disconnect();
    }
  });

  it('turn business keys into job ids BullMQ accepts, keeping distinct keys distinct', () => {
    const keys = ['sync-remit:cust_1', 'sync-remit%3Acust_1', 'sync-remit%253Acust_1', 'plain'];
    const ids = keys.map(jobIdOf);
    for (const id of ids) expect(id).not.to.include(':');
    expect(new Set(ids).size).to.equal(keys.length);
    expect(jobIdOf('plain')).to.equal('plain');
  });
});
