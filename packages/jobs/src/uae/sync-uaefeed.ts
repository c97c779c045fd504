import { Decimal, recordExceptions, recost as recostBook, type RecordOutcome, type RecostResult } from '@ledger/core';
import { z } from 'zod';
import { defineJob, recostPolicyOf } from '../catalog.js';
import { customerSelection, linkedCustomers, notConfigured, type CustomerFailure, idOfLinked } from './customers.js';
import { calendarDate, forEachCustomer } from '../per-customer.js';
import { mapCashTransfer, mapOrder } from './mapping.js';
import { draftMappings, PostingPipeline, type UaefeedRecordOutcome } from './posting.js';

export const syncUaefeedInput = z
  .object({
    ...customerSelection,
    from: calendarDate.optional().describe("First day (transfers' valueDate, orders' tradeDate), inclusive. Absent: from the start of the feed."),
    to: calendarDate.optional().describe('Last day, inclusive. Absent: up to today.'),
    recost: z.boolean().optional().describe('Recost the book after posting (what this run posted is pending recost). Default true; never in a dry run.'),
  })
  .strict()
  .refine((input) => input.from === undefined || input.to === undefined || input.from <= input.to, { message: 'from must not be after to', path: ['from'] })
  .meta({ examples: [{ customer_ids: ['UAE-000001'], from: '2026-01-01', to: '2026-06-30' }, {}] });
export type SyncUaefeedInput = z.infer<typeof syncUaefeedInput>;

/** One customer's counts; `rejected` lists each refused record with its reason. */
export interface UaefeedCustomerResult {
  customer_id: string;
  fetched: number;
  posted: number;
  duplicate: number;
  skipped: number;
  rejected: Array<{ source_txn_id: string; reason: string }>;
}

export interface SyncUaefeedResult extends Record<string, unknown> {
  dry_run: boolean;
  totals: { customers: number; fetched: number; posted: number; duplicate: number; skipped: number; rejected: number };
  customers: UaefeedCustomerResult[];
  customers_failed: CustomerFailure[];
  /** What the recost after posting did; null when it did not run. */
  recost: Pick<RecostResult, 'recosted' | 'derivations_posted' | 'superseded' | 'remaining'> & { flagged: number } | null;
}

/** A record's outcome as the exceptions keep it (skipped records post nothing by design: not an exception). */
function uaefeedRecordOutcome(customerId: string, o: UaefeedRecordOutcome): RecordOutcome[] {
  if (o.outcome === 'skipped') return [];
  if (o.outcome !== 'rejected') return [{ recordKey: o.source_txn_id, customerId, posted: true }];
  const code = /^([a-z][a-z0-9_]{0,63}): /.exec(o.reason)?.[1] ?? 'unmappable';
  return [{ recordKey: o.source_txn_id, customerId, posted: false, reasonCode: code, reason: o.reason }];
}

function customerResult(customerId: string, fetched: number, outcomes: UaefeedRecordOutcome[]): UaefeedCustomerResult {
  const result: UaefeedCustomerResult = { customer_id: customerId, fetched, posted: 0, duplicate: 0, skipped: 0, rejected: [] };
  for (const o of outcomes) {
    if (o.outcome === 'inserted') result.posted += 1;
    else if (o.outcome === 'duplicate') result.duplicate += 1;
    else if (o.outcome === 'skipped') result.skipped += 1;
    else if (o.outcome === 'rejected') result.rejected.push({ source_txn_id: o.source_txn_id, reason: o.reason });
  }
  return result;
}

/**
 * sync-uaefeed (docs/jobs.md#sync-uaefeed): per linked customer, its cash transfers and orders
 * (both fetched before anything of it is posted, so a customer whose fetch fails posts
 * nothing), mapped (uae/mapping.ts) and posted in bulk while other customers are fetched; a
 * re-run answers duplicates. Then recost.
 */
export const syncUaefeedJob = defineJob<SyncUaefeedInput, SyncUaefeedResult>('sync-uaefeed', {
  input: syncUaefeedInput,
  // Every call is a run of its own; what was posted before answers duplicate.
  businessKey: () => null,
  run: async (input, { db, settings, upstreams, progress, logger }) => {
    const dryRun = input.dry_run ?? false;
    const { customers, failed: notLinked } = await linkedCustomers(db, 'uaefeed_customer_number', input.customer_ids);
    const uaefeed = upstreams.uaefeed;
    const aedPerUsd = new Decimal(settings.aedPerUsd);
    const range = { ...(input.from !== undefined && { fromDate: input.from }), ...(input.to !== undefined && { toDate: input.to }) };
    const pipeline = new PostingPipeline(db, dryRun);
    const fetched = uaefeed
      ? await forEachCustomer(
          customers,
          idOfLinked,
          async ({ customerId, reference }) => {
            const query = { customerNumber: reference, ...range };
            const [transfers, orders] = await Promise.all([uaefeed.listCashTransfers(query), uaefeed.listOrders(query)]);
            const mappings = [...transfers.map((t) => mapCashTransfer(t, customerId, aedPerUsd)), ...orders.map((o) => mapOrder(o, customerId, aedPerUsd))];
            const { drafts, unposted } = draftMappings(mappings, settings);
            pipeline.add(customerId, drafts);
            return { fetched: mappings.length, unposted };
          },
          (done) => progress({ done, total: customers.length, unit: 'customers' }),
        )
      : { done: [], failed: notConfigured(customers, 'uaefeed') };
    const posted = await pipeline.finish();
    const outcomes = fetched.done.map(({ customer: { customerId }, value }) => ({ customerId, fetched: value.fetched, records: [...(posted.get(customerId) ?? []), ...value.unposted] }));
    if (!dryRun) await recordExceptions(db, { upstream: 'uaefeed' }, outcomes.flatMap(({ customerId, records }) => records.flatMap((r) => uaefeedRecordOutcome(customerId, r))));
    const results = outcomes.map(({ customerId, fetched: count, records }) => customerResult(customerId, count, records));

    const postedCount = results.reduce((n, r) => n + r.posted, 0);
    let recost: SyncUaefeedResult['recost'] = null;
    if (!dryRun && (input.recost ?? true) && postedCount > 0) {
      const done = await recostBook(db, {
        policy: recostPolicyOf(settings),
        limit: null,
      });
      recost = { recosted: done.recosted, derivations_posted: done.derivations_posted, superseded: done.superseded, remaining: done.remaining, flagged: done.flagged.length };
    }
    const totals = {
      customers: results.length,
      fetched: results.reduce((n, r) => n + r.fetched, 0),
      posted: postedCount,
      duplicate: results.reduce((n, r) => n + r.duplicate, 0),
      skipped: results.reduce((n, r) => n + r.skipped, 0),
      rejected: results.reduce((n, r) => n + r.rejected.length, 0),
    };
    const customersFailed = [...notLinked, ...fetched.failed];
    logger.info('sync-uaefeed done', { dry_run: dryRun, ...totals, customers_failed: customersFailed.length });
    return { dry_run: dryRun, totals, customers: results, customers_failed: customersFailed, recost };
  },
});
