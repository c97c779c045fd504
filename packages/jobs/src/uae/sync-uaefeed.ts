import { Decimal } from '@ledger/core/posting';
import { postedTradesOf } from '@ledger/core/store';
import { z } from 'zod';
import { defineJob } from '../job-settings.js';
import { calendarDate, forEachLinked, selectCustomers } from '../kit/per-customer.js';
import { PostingRun } from '../kit/posting-kit.js';
import { RESULT_SCHEMAS, syncResult } from '../kit/results.js';
import { customerSelection } from './customers.js';
import { inPostingOrder, mapCashTransfer, mapOrder, postedFills } from './mapping.js';

/** The kinds of uaefeed record a run posts. */
export const UAEFEED_KINDS = ['cash_transfers', 'orders'] as const;
export type UaefeedKind = (typeof UAEFEED_KINDS)[number];

export const syncUaefeedInput = z
  .object({
    ...customerSelection,
    from: calendarDate
      .optional()
      .describe("First day (transfers' valueDate, orders' tradeDate), inclusive. Absent: from the start of the feed."),
    to: calendarDate.optional().describe('Last day, inclusive. Absent: up to today.'),
    recost: z
      .boolean()
      .optional()
      .describe(
        'Recost the book after posting (what this run posted is pending recost). Default true; never in a dry run.',
      ),
  })
  .strict()
  .refine((input) => input.from === undefined || input.to === undefined || input.from <= input.to, {
    message: 'from must not be after to',
    path: ['from'],
  })
  .meta({ examples: [{ customer_ids: ['UAE-000001'], from: '2026-01-01', to: '2026-06-30' }, {}] });
export type SyncUaefeedInput = z.infer<typeof syncUaefeedInput>;

export const syncUaefeedResult = syncResult(UAEFEED_KINDS, {}).register(RESULT_SCHEMAS, { id: 'SyncUaefeedResult' });
export type SyncUaefeedResult = z.infer<typeof syncUaefeedResult>;

/**
 * sync-uaefeed (docs/jobs.md#sync-uaefeed): per linked customer, its cash transfers and orders
 * (both fetched before anything of it is posted, so a customer whose fetch fails posts
 * nothing), mapped (uae/mapping.ts) and posted in bulk while other customers are fetched; a
 * re-run answers duplicates. Then recost.
 */
export const syncUaefeedJob = defineJob('sync-uaefeed', {
  mode: 'sync',
  family: 'syncs',
  books: ['ENTITY_UAE'],
  why: 'the spec',
  input: syncUaefeedInput,
  result: syncUaefeedResult,
  // Every call is a run of its own; what was posted before answers duplicate.
  businessKey: () => null,
  run: async (input, { db, settings, upstreams, progress, logger }) => {
    const dryRun = input.dry_run ?? false;
    const { customers, failed: notLinked } = await selectCustomers(db, 'uaefeed_customer_number', input.customer_ids);
    const aedPerUsd = new Decimal(settings.aedPerUsd);
    const range = {
      ...(input.from !== undefined && { fromDate: input.from }),
      ...(input.to !== undefined && { toDate: input.to }),
    };
    const run = new PostingRun<UaefeedKind>(db, {
      job: 'sync-uaefeed',
      upstream: 'uaefeed',
      kinds: UAEFEED_KINDS,
      dryRun,
      settings,
    });
    const fetched = await forEachLinked(
      customers,
      'uaefeed',
      upstreams.uaefeed,
      async (uaefeed, { customerId, reference }) => {
        const query = { customerNumber: reference, ...range };
        const [transfers, orders, fills] = await Promise.all([
          uaefeed.listCashTransfers(query),
          uaefeed.listOrders(query),
          postedTradesOf(db, 'uaefeed', customerId),
        ]);
        const filled = postedFills(fills);
        const records = run.customer(customerId);
        for (const { kind, sourceTxnId, mapped, record } of inPostingOrder([
          ...transfers.map((t) => ({
            kind: 'cash_transfers' as const,
            sourceTxnId: t.transferId,
            mapped: mapCashTransfer(t, { customerId, customerNumber: reference }, aedPerUsd),
            record: t,
          })),
          ...orders.map((o) => ({
            kind: 'orders' as const,
            sourceTxnId: o.orderId,
            mapped: mapOrder(o, customerId, aedPerUsd, filled.get(o.orderId)),
            record: o,
          })),
        ])) {
          records.add(kind, sourceTxnId, mapped, record);
        }
        await run.post(records);
      },
      progress,
    );
    const recost = await run.recostIfPosted(input.recost ?? true, settings);
    const result = run.result(customers.length + notLinked.length, [...notLinked, ...fetched.failed], recost);
    logger.info('sync-uaefeed done', {
      dry_run: dryRun,
      records: result.records,
      customers_failed: result.customers_failed.length,
    });
    return result;
  },
});
