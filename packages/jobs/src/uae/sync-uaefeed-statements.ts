import { createHash } from 'node:crypto';
import { previousMonth } from '@ledger/core/posting';
import { insertUaefeedStatements, type UaefeedStatementSnapshot } from '@ledger/core/store';
import { z } from 'zod';
import { defineJob } from '../job-settings.js';
import { customerSelection } from './customers.js';
import {
  calendarMonth,
  forEachCustomer,
  idOfLinked,
  notConfigured,
  selectCustomers,
  type CustomerFailure,
} from '../kit/per-customer.js';

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

export interface SyncUaefeedStatementsResult extends Record<string, unknown> {
  dry_run: boolean;
  month: string;
  /** Statements (a customer's cash and holdings statements: two each) stored now; `existing`: the same body was already stored. */
  stored: number;
  existing: number;
  customers: Array<{ customer_id: string; statements: number }>;
  customers_failed: CustomerFailure[];
}

const sha256 = (body: string) => createHash('sha256').update(body).digest('hex');

/**
 * sync-uaefeed-statements (docs/jobs.md#sync-uaefeed-statements): each linked customer's uaefeed
 * monthly cash and holdings statements, validated, then stored exactly as received in
 * `uaefeed_statements` (insert-only per content). Nothing is posted from them.
 */
export const syncUaefeedStatementsJob = defineJob<SyncUaefeedStatementsInput, SyncUaefeedStatementsResult>(
  'sync-uaefeed-statements',
  {
    mode: 'background',
    family: 'syncs',
    books: ['ENTITY_UAE'],
    why: 'the spec',
    input: syncUaefeedStatementsInput,
    businessKey: () => null,
    run: async (input, { db, upstreams, progress, logger }) => {
      const dryRun = input.dry_run ?? false;
      const month = input.month ?? previousMonth(new Date());
      const [year, monthNumber] = month.split('-').map(Number) as [number, number];
      const { customers, failed: notLinked } = await selectCustomers(db, 'uaefeed_customer_number', input.customer_ids);
      const uaefeed = upstreams.uaefeed;
      const fetched = uaefeed
        ? await forEachCustomer(
            customers,
            idOfLinked,
            async ({ customerId, reference }): Promise<UaefeedStatementSnapshot[]> => {
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
            (done) => progress({ done, total: customers.length, unit: 'customers' }),
          )
        : { done: [], failed: notConfigured(customers, 'uaefeed') };
      const statements = fetched.done.flatMap((d) => d.value);
      const { inserted, existing } = dryRun
        ? { inserted: 0, existing: 0 }
        : await insertUaefeedStatements(db, statements);
      const customersFailed = [...notLinked, ...fetched.failed];
      logger.info('sync-uaefeed-statements done', {
        dry_run: dryRun,
        month,
        stored: inserted,
        existing,
        customers_failed: customersFailed.length,
      });
      return {
        dry_run: dryRun,
        month,
        stored: inserted,
        existing,
        customers: fetched.done.map((d) => ({ customer_id: d.customer.customerId, statements: d.value.length })),
        customers_failed: customersFailed,
      };
    },
  },
);
