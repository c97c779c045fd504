import { randomUUID } from 'node:crypto';
import { istDate, openDayFor } from '@ledger/core/posting';
import { closedThrough, outstandingSweptPostings, reverseTransaction } from '@ledger/core/store';
import { z } from 'zod';
import { defineJob } from '../job-settings.js';
import { noOutcomes, outcomeCounts, RESULT_SCHEMAS } from '../kit/results.js';

export const refundReversalIndiaInput = z
  .object({
    dry_run: z.boolean().optional().describe('List exactly what a live run would reverse, reverse nothing.'),
  })
  .strict()
  .meta({ examples: [{ dry_run: true }] });
export type RefundReversalIndiaInput = z.infer<typeof refundReversalIndiaInput>;

/** One reversal of the sweep: the order, the posting it clears and the reversing transaction. */
const sweptReversal = z.strictObject({
  order_id: z.string(),
  status: z.string(),
  customer_id: z.string().nullable(),
  txn_id: z.string(),
  txn_type: z.literal('fx_spread'),
  amount_usd: z.string().describe('A decimal string.'),
  reversal_date: z
    .string()
    .describe('The day the order left `paid` (its updated_at, IST), never before the posting’s own date.'),
  reversal_txn_id: z.string().nullable().describe('The reversing transaction; null in a dry run.'),
});
export type SweptReversal = z.infer<typeof sweptReversal>;

export const refundReversalIndiaResult = z
  .strictObject({
    dry_run: z.boolean(),
    reversals: outcomeCounts.describe(
      '`inserted`: reversals posted now (in a dry run: would be); `duplicate`: reversals another run posted between ' +
        'this run’s sweep and its reversal (the existing one stands).',
    ),
    reversed: z.array(sweptReversal).describe('Each reversal posted (would be).'),
  })
  .register(RESULT_SCHEMAS, { id: 'RefundReversalIndiaResult' });
export type RefundReversalIndiaResult = z.infer<typeof refundReversalIndiaResult>;

/**
 * refund-reversal-india (docs/jobs.md#refund-reversal-india): every `fx_spread` accrual of a
 * cancelled, failed or expired remittance that no reversal has cleared is reversed through the
 * reversal use case (Dr 4030 / Cr 1300: the revenue only), keyed by its original, so a second run,
 * or one racing this, posts nothing more. A refund learnt after its day was closed is reversed on
 * the first open day (docs/period-close.md). A posted `fx_spread_settle` stands: that money reached
 * the bank and no refund moved it back, so 1300 shows it owed to the provider until a clawback.
 */
export const refundReversalIndiaJob = defineJob('refund-reversal-india', {
  mode: 'sync',
  family: 'syncs',
  books: ['ENTITY_IND_IFSC'],
  why: 'decided: one set-based sweep of the book, seconds',
  input: refundReversalIndiaInput,
  result: refundReversalIndiaResult,
  businessKey: () => null,
  run: async (input, { db, logger, progress }) => {
    const dryRun = input.dry_run ?? false;
    const outstanding = await outstandingSweptPostings(db);
    const closed = await closedThrough(db);
    const result: RefundReversalIndiaResult = { dry_run: dryRun, reversals: noOutcomes(), reversed: [] };
    progress({ done: 0, total: outstanding.length, unit: 'postings' });
    for (const [i, p] of outstanding.entries()) {
      progress({ done: i, total: outstanding.length, unit: 'postings' });
      const left = istDate(p.order_updated_at.toISOString());
      const reversalDate = openDayFor(left < p.txn_date ? p.txn_date : left, closed);
      let reversalTxnId: string | null = null;
      if (!dryRun) {
        const { created, transaction } = await reverseTransaction(db, p.txn_id, {
          txnId: randomUUID(),
          txnDate: reversalDate,
          memo: `${p.order_id} is ${p.status}: its ${p.txn_type} reversed`,
        });
        if (!created) {
          result.reversals.duplicate += 1;
          continue;
        }
        reversalTxnId = transaction.txn_id;
      }
      const { order_id, status, customer_id, txn_id, txn_type, amount_usd } = p;
      result.reversals.inserted += 1;
      result.reversed.push({
        order_id,
        status,
        customer_id,
        txn_id,
        txn_type,
        amount_usd,
        reversal_date: reversalDate,
        reversal_txn_id: reversalTxnId,
      });
    }
    progress({ done: outstanding.length, total: outstanding.length, unit: 'postings' });
    logger.info('refund-reversal-india done', {
      dry_run: dryRun,
      ...result.reversals,
    });
    return result;
  },
});
