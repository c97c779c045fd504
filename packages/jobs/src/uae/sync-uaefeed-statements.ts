import { createHash } from 'node:crypto';
import { previousMonth } from '@ledger/core/posting';
import { insertUaefeedStatements, type UaefeedStatementSnapshot } from '@ledger/core/store';
import { z } from 'zod';
import { defineJob } from '../job-settings.js';
import { customerSelection } from './customers.js';
import { calendarMonth, forEachLinked, selectCustomers } from '../kit/per-customer.js';
import { customerFailure, noOutcomes, outcomeCounts, RESULT_SCHEMAS } from '../kit/results.js';

export const syncUaefeedStatementsInput = z
  .object({
    ...customerSelection,
    month: calendarMonth
      .optional()
      .describe('The month, YYYY-MM. Absent: the last closed month (the one before the current, UTC).'),
  })
  .strict()
  .meta({ examples: [{ month: '2026-03' }] });
export type SyncUaefeedStatementsInput = z.infer<typeof syncUaefeedStatementsInput>;

export const syncUaefeedStatementsResult = z
  .strictObject({
    dry_run: z.boolean(),
    month: z.string(),
    statements: outcomeCounts.describe(
      'Statements (a customer’s cash and holdings statements: two each) `inserted` now, or `duplicate`: the same body was already stored. All 0 in a dry run.',
    ),
    customers: z.array(z.strictObject({ customer_id: z.string(), statements: z.number().int().min(0) })),
    customers_failed: z.array(customerFailure),
  })
  .register(RESULT_SCHEMAS, { id: 'SyncUaefeedStatementsResult' });

const sha256 = (body: string) => createHash('sha256').update(body).digest('hex');

/**
 * sync-uaefeed-statements (docs/jobs.md#sync-uaefeed-statements): each linked customer's uaefeed
 * monthly cash and holdings statements, validated, then stored exactly as received in
 * `uaefeed_statements` (insert-only per content). Nothing is posted from them.
 */
export const syncUaefeedStatementsJob = defineJob('sync-uaefeed-statements', {
  mode: 'background',
  family: 'syncs',
  books: ['ENTITY_UAE'],
  why: 'the spec',
  input: syncUaefeedStatementsInput,
  result: syncUaefeedStatementsResult,
  businessKey: () => null,
  run: async (input, { db, upstreams, progress, logger }) => {
    const dryRun = input.dry_run ?? false;
    const month = input.month ?? previousMonth(new Date());
    const [year, monthNumber] = month.split('-').map(Number) as [number, number];
    const { customers, failed: notLinked } = await selectCustomers(db, 'uaefeed_customer_number', input.customer_ids);
    const fetched = await forEachLinked(
      customers,
      'uaefeed',
      upstreams.uaefeed,
      async (uaefeed, { customerId, reference }): Promise<UaefeedStatementSnapshot[]> => {
        const query = { customerNumber: reference, year, month: monthNumber };
        const [cash, holdings] = await Promise.all([
          uaefeed.getCashStatement(query),
          uaefeed.getHoldingsStatement(query),
        ]);
        return [
          { customerId, kind: 'cash', month, body: cash.raw, bodySha256: sha256(cash.raw) },
          { customerId, kind: 'holdings', month, body: holdings.raw, bodySha256: sha256(holdings.raw) },
        ];
      },
      progress,
    );
    const statements = fetched.done.flatMap((d) => d.value);
    const { inserted, existing } = dryRun
      ? { inserted: 0, existing: 0 }
      : await insertUaefeedStatements(db, statements);
    const customersFailed = [...notLinked, ...fetched.failed];
    logger.info('sync-uaefeed-statements done', {
      dry_run: dryRun,
      month,
      inserted,
      duplicate: existing,
      customers_failed: customersFailed.length,
    });
    return {
      dry_run: dryRun,
      month,
      statements: { ...noOutcomes(), inserted, duplicate: existing },
      customers: fetched.done.map((d) => ({ customer_id: d.customer.customerId, statements: d.value.length })),
      customers_failed: customersFailed,
    };
  },
});
