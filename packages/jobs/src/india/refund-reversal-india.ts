import { randomUUID } from 'node:crypto';
import { istDate, openDayFor } from '@ledger/core/posting';
import { closedThrough, outstandingSweptPostings, reverseTransaction } from '@ledger/core/store';
import { z } from 'zod';
import { defineJob } from '../job-settings.js';

export const refundReversalIndiaInput = z
  .object({
    dry_run: z.boolean().optional().describe('List exactly what a live run would reverse, reverse nothing.'),
  })
  .strict()
  .meta({ examples: [{ dry_run: true }] });
export type RefundReversalIndiaInput = z.infer<typeof refundReversalIndiaInput>;

/** One reversal of the sweep: the order, the posting it clears and the reversing transaction. */
export interface SweptReversal {
  order_id: string;
  status: string;
  customer_id: string | null;
  txn_id: string;
  txn_type: 'fx_spread';
  amount_usd: string;
  /** The reversal's date: the day the order left `paid` (its updated_at, IST), never before the posting's own date. */
  reversal_date: string;
  /** The reversing transaction; null in a dry run. */
  reversal_txn_id: string | null;
}

export interface RefundReversalIndiaResult extends Record<string, unknown> {
  dry_run: boolean;
  reversed: SweptReversal[];
  /** Reversals another run posted between this run's sweep and its reversal (the existing one stands). */
  already_reversed: number;
}

/**
 * refund-reversal-india (docs/jobs.md#refund-reversal-india): every `fx_spread` accrual of a
 * cancelled, failed or expired remittance that no reversal has cleared is reversed through the
 * reversal use case (Dr 4030 / Cr 1300: the revenue only), keyed by its original, so a second run,
 * or one racing this, posts nothing more. A refund learnt after its day was closed is reversed on
 * the first open day (docs/period-close.md). A posted `fx_spread_settle` stands: that money reached
 * the bank and no refund moved it back, so 1300 shows it owed to the provider until a clawback.
 */
export const refundReversalIndiaJob = defineJob<RefundReversalIndiaInput, RefundReversalIndiaResult>(
  'refund-reversal-india',
  {
    mode: 'sync',
    family: 'syncs',
    books: ['ENTITY_IND_IFSC'],
    why: 'decided: one set-based sweep of the book, seconds',
    input: refundReversalIndiaInput,
    businessKey: () => null,
    run: async (input, { db, logger, progress }) => {
      const dryRun = input.dry_run ?? false;
      const outstanding = await outstandingSweptPostings(db);
      const closed = await closedThrough(db);
      const result: RefundReversalIndiaResult = { dry_run: dryRun, reversed: [], already_reversed: 0 };
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
            result.already_reversed += 1;
            continue;
          }
          reversalTxnId = transaction.txn_id;
        }
        const { order_id, status, customer_id, txn_id, txn_type, amount_usd } = p;
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
        reversed: result.reversed.length,
        already_reversed: result.already_reversed,
      });
      return result;
    },
  },
);
