import { recost as recostBook } from '@ledger/core/store';
import { z } from 'zod';
import { defineJob, recostPolicyOf } from '../job-settings.js';
import { recostResult } from '../kit/results.js';

/** The most pending transactions one run may take: a bound on the run, not on the book. */
export const RECOST_LIMIT_MAX = 1_000_000;

export const recostInput = z
  .object({
    limit: z
      .number()
      .int()
      .min(1)
      .max(RECOST_LIMIT_MAX)
      .optional()
      .describe(
        'At most this many pending transactions are taken, oldest first (txn_date, then posted_at); pending trades of the same customer and symbol are recosted with them. Absent: all.',
      ),
  })
  .strict()
  .meta({ examples: [{ limit: 10_000 }] });
export type RecostInput = z.infer<typeof recostInput>;

/**
 * recost (contract: Recost; docs/posting-rules.md#recost): the fee split of each pending trade
 * and each sell's FIFO cost relief, posted as `recost` entries linked to the trade; a changed
 * derivation is superseded by reversing it. Result: `RecostResult` (kit/results.ts).
 */
export const recostJob = defineJob('recost', {
  mode: 'sync',
  family: 'recost',
  books: ['ENTITY_UAE', 'ENTITY_IND_IFSC'],
  why: 'decided: bounded by `limit`, and the caller usually wants its counts',
  input: recostInput,
  result: recostResult,
  // Every call is a run of its own: a run finding nothing pending posts nothing.
  businessKey: () => null,
  run: async ({ limit }, { db, progress, settings, logger }) => {
    const result = await recostBook(db, {
      policy: recostPolicyOf(settings),
      limit: limit ?? null,
      progress: (done, total) => progress({ done, total, unit: 'transactions' }),
    });
    logger.info('recost done', {
      recosted: result.recosted,
      derivations_posted: result.derivations_posted,
      superseded: result.superseded,
      flagged: result.flagged.length,
      remaining: result.remaining,
    });
    return result;
  },
});
