import { insertHoldingsSnapshots, type HoldingsSnapshot } from '@ledger/core/store';
import type { CustodianHoldings } from '@ledger/upstream-clients';
import { z } from 'zod';
import { defineJob } from '../job-settings.js';
import { customerSelection, isoDay } from './customers.js';
import { calendarDate, forEachLinked, selectCustomers } from '../kit/per-customer.js';
import { customerFailure, noOutcomes, outcomeCounts, RESULT_SCHEMAS } from '../kit/results.js';

export const syncHoldingsInput = z
  .object({
    ...customerSelection,
    as_of: calendarDate
      .optional()
      .describe('The day whose end-of-day holdings are taken. Absent: yesterday (UTC), the last closed day.'),
  })
  .strict()
  .meta({ examples: [{ as_of: '2026-03-31' }, { customer_ids: ['UAE-000001'] }] });
export type SyncHoldingsInput = z.infer<typeof syncHoldingsInput>;

export const syncHoldingsResult = z
  .strictObject({
    dry_run: z.boolean(),
    as_of: z.string(),
    snapshots: outcomeCounts.describe(
      'Snapshots `inserted` now, or `duplicate`: the day was already stored for that customer (left as it was). All 0 in a dry run.',
    ),
    customers: z.array(
      z.strictObject({ customer_id: z.string(), account: z.string(), positions: z.number().int().min(0) }),
    ),
    customers_failed: z.array(customerFailure),
  })
  .register(RESULT_SCHEMAS, { id: 'SyncHoldingsResult' });
export type SyncHoldingsResult = z.infer<typeof syncHoldingsResult>;

/** A custodian holdings answer as the customer's snapshot: positions and cash as received (AED decimal strings). */
export function holdingsSnapshotOf(customerId: string, holdings: CustodianHoldings): HoldingsSnapshot {
  return {
    customerId,
    upstream: 'custodian',
    asOf: holdings.as_of,
    account: holdings.account,
    currency: holdings.currency,
    // The custodian states an average cost per share, not a cost basis: kept as received.
    positions: holdings.positions.map((p) => ({
      symbol: p.symbol,
      quantity: p.qty,
      cost: null,
      market_value: p.market_value,
      isin: p.isin,
      avg_cost: p.avg_cost,
    })),
    cash: { balance: holdings.cash.balance, available: holdings.cash.available },
  };
}

/**
 * sync-holdings (docs/jobs.md#sync-holdings): each linked customer's custodian holdings at the
 * end of `as_of` into `holdings_snapshots`, insert-only per (customer, upstream, day): a re-run
 * of the same day stores nothing new and changes nothing.
 */
export const syncHoldingsJob = defineJob('sync-holdings', {
  mode: 'background',
  family: 'syncs',
  books: ['ENTITY_UAE'],
  why: 'the spec',
  input: syncHoldingsInput,
  result: syncHoldingsResult,
  // One run per day (or per customer set and day) at a time; the table's key makes a re-run a no-op anyway.
  businessKey: () => null,
  run: async (input, { db, upstreams, progress, logger }) => {
    const dryRun = input.dry_run ?? false;
    const asOf = input.as_of ?? isoDay(new Date(), 1);
    const { customers, failed: notLinked } = await selectCustomers(db, 'custodian_account', input.customer_ids);
    const fetched = await forEachLinked(
      customers,
      'custodian',
      upstreams.custodian,
      async (custodian, { customerId, reference }) =>
        holdingsSnapshotOf(customerId, await custodian.getHoldings({ account: reference, asOf })),
      progress,
    );
    const snapshots = fetched.done.map((d) => d.value);
    const { inserted, existing } = dryRun ? { inserted: 0, existing: 0 } : await insertHoldingsSnapshots(db, snapshots);
    const customersFailed = [...notLinked, ...fetched.failed];
    logger.info('sync-holdings done', {
      dry_run: dryRun,
      as_of: asOf,
      inserted,
      duplicate: existing,
      customers_failed: customersFailed.length,
    });
    return {
      dry_run: dryRun,
      as_of: asOf,
      snapshots: { ...noOutcomes(), inserted, duplicate: existing },
      customers: snapshots.map((s) => ({
        customer_id: s.customerId,
        account: s.account,
        positions: s.positions.length,
      })),
      customers_failed: customersFailed,
    };
  },
});
