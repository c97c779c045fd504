import { randomUUID } from 'node:crypto';
import { Decimal, draftFromEntry, FeeSchedule } from '@ledger/core/posting';
import { postTransactions } from '@ledger/core/store';
import { z } from 'zod';
import type { JobCatalog } from '../../src/testing.js';

const input = z.object({
  /** The job's business key: its id. */
  key: z.string(),
  /** The deposits' source ids are `<source>-<i>`: a run of another key with the same source re-sends them. */
  source: z.string(),
  customer_id: z.string(),
  count: z.number().int().positive(),
  delay_ms: z.number().int().min(0),
  /** The first run (in a process) throws a transient error before this deposit. */
  fail_once_at: z.number().int().optional(),
});
export type PostSlowly = z.infer<typeof input>;

/** Keys whose first run failed already, in this process. */
const failed = new Set<string>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The fault-injection suite's job: posts `count` deposits of 10.00 one at a time, `delay_ms`
 * apart, so a test can kill its worker, or Redis, part-way. Each run prints
 * `{"event":"run","key":…}` on stdout, so the test counts runs.
 */
export const FAULT_CATALOG: JobCatalog = {
  'post-slowly': {
    kind: 'post-slowly',
    mode: 'background',
    family: 'syncs',
    books: ['ENTITY_UAE'],
    why: 'a test job: slow on purpose, to be interrupted',
    input,
    result: z.strictObject({ inserted: z.number().int(), duplicate: z.number().int() }),
    businessKey: ({ key }: PostSlowly) => key,
    run: async ({ key, source, customer_id, count, delay_ms, fail_once_at }: PostSlowly, { db, progress }) => {
      process.stdout.write(`${JSON.stringify({ event: 'run', key })}\n`);
      let inserted = 0;
      let duplicate = 0;
      for (let i = 0; i < count; i += 1) {
        if (i === fail_once_at && !failed.has(key)) {
          failed.add(key);
          throw new Error('ECONNRESET: the upstream went away (a transient failure)');
        }
        const entry = {
          txn_type: 'deposit',
          customer_id,
          source: 'manual',
          source_txn_id: `${source}-${i}`,
          txn_date: '2026-01-15',
          amount_usd: '10.00',
        } as const;
        const result = await postTransactions(db, [
          draftFromEntry(entry, randomUUID(), { feeSchedule: new FeeSchedule(new Decimal(22)) }),
        ]);
        inserted += result.inserted;
        duplicate += result.duplicate;
        progress({ done: i + 1, total: count, unit: 'deposits' });
        await sleep(delay_ms);
      }
      return { inserted, duplicate };
    },
  },
};
