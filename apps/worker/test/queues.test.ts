import { BOOKS } from '@ledger/core';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { jobsQueueName } from '../src/queues.js';

describe('job queues', () => {
  it('name each book its own queue, so two books can share one Redis', () => {
    const names = BOOKS.map(jobsQueueName);
    expect(new Set(names).size).to.equal(BOOKS.length);
    for (const [i, book] of BOOKS.entries()) expect(names[i]).to.include(book);
  });

  it('are names BullMQ accepts (no ":")', async () => {
    const connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
    try {
      for (const book of BOOKS) {
        expect(jobsQueueName(book)).to.not.include(':');
        const queue = new Queue(jobsQueueName(book), { connection });
        await queue.close();
      }
    } finally {
      connection.disconnect();
    }
  });
});
