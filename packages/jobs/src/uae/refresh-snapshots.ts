import { savePortfolioSnapshots } from '@ledger/core/store';
import { z } from 'zod';
import { defineJob } from '../job-settings.js';
import { customerSelection, isoDay } from './customers.js';
import {
  forEachCustomer,
  idOfLinked,
  notConfigured,
  selectCustomers,
  type CustomerFailure,
} from '../kit/per-customer.js';
import { holdingsSnapshotOf } from './sync-holdings.js';

export const refreshSnapshotsInput = z
  .object({ ...customerSelection })
  .strict()
  .meta({ examples: [{ customer_ids: ['UAE-000001'], dry_run: false }, {}] });
export type RefreshSnapshotsInput = z.infer<typeof refreshSnapshotsInput>;

export interface RefreshSnapshotsResult extends Record<string, unknown> {
  dry_run: boolean;
  as_of: string;
  /** Customers whose cached portfolio was replaced (in a dry run: would be). */
  refreshed: number;
  customers_failed: CustomerFailure[];
}

/**
 * refresh-snapshots (docs/jobs.md#refresh-snapshots): each linked customer's custodian holdings
 * as of today replace its cached portfolio (`portfolio_snapshots`), the fallback of the customer
 * views when the custodian is down. A customer whose read fails keeps its older snapshot.
 */
export const refreshSnapshotsJob = defineJob<RefreshSnapshotsInput, RefreshSnapshotsResult>('refresh-snapshots', {
  mode: 'background',
  family: 'syncs',
  books: ['ENTITY_UAE'],
  why: 'the spec',
  input: refreshSnapshotsInput,
  businessKey: () => null,
  run: async (input, { db, upstreams, progress, logger }) => {
    const dryRun = input.dry_run ?? false;
    const asOf = isoDay(new Date());
    const { customers, failed: notLinked } = await selectCustomers(db, 'custodian_account', input.customer_ids);
    const custodian = upstreams.custodian;
    const fetched = custodian
      ? await forEachCustomer(
          customers,
          idOfLinked,
          async ({ customerId, reference }) => {
            const {
              customerId: id,
              upstream,
              asOf: day,
              positions,
              cash,
              currency,
            } = holdingsSnapshotOf(customerId, await custodian.getHoldings({ account: reference, asOf }));
            // The cache has no currency column: the cash says its own.
            return { customerId: id, upstream, asOf: day, positions, cash: { ...cash, currency } };
          },
          (done) => progress({ done, total: customers.length, unit: 'customers' }),
        )
      : { done: [], failed: notConfigured(customers, 'custodian') };
    const snapshots = fetched.done.map((d) => d.value);
    if (!dryRun) await savePortfolioSnapshots(db, snapshots);
    const customersFailed = [...notLinked, ...fetched.failed];
    logger.info('refresh-snapshots done', {
      dry_run: dryRun,
      refreshed: snapshots.length,
      customers_failed: customersFailed.length,
    });
    return { dry_run: dryRun, as_of: asOf, refreshed: snapshots.length, customers_failed: customersFailed };
  },
});
