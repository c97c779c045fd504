import { savePortfolioSnapshots } from '@ledger/core/store';
import { z } from 'zod';
import { defineJob } from '../job-settings.js';
import { customerSelection, isoDay } from './customers.js';
import { forEachLinked, selectCustomers } from '../kit/per-customer.js';
import { customerFailure, noOutcomes, outcomeCounts, RESULT_SCHEMAS } from '../kit/results.js';
import { holdingsSnapshotOf } from './sync-holdings.js';

export const refreshSnapshotsInput = z
  .object({ ...customerSelection })
  .strict()
  .meta({ examples: [{ customer_ids: ['UAE-000001'], dry_run: false }, {}] });
export type RefreshSnapshotsInput = z.infer<typeof refreshSnapshotsInput>;

export const refreshSnapshotsResult = z
  .strictObject({
    dry_run: z.boolean(),
    as_of: z.string().describe('The day of the holdings read (UTC).'),
    snapshots: outcomeCounts.describe(
      'Cached portfolios `inserted` (a customer’s first) or `updated` (replaced); in a dry run: would be.',
    ),
    customers_failed: z.array(customerFailure),
  })
  .register(RESULT_SCHEMAS, { id: 'RefreshSnapshotsResult' });

/**
 * refresh-snapshots (docs/jobs.md#refresh-snapshots): each linked customer's custodian holdings
 * as of today replace its cached portfolio (`portfolio_snapshots`), the fallback of the customer
 * views when the custodian is down. A customer whose read fails keeps its older snapshot.
 */
export const refreshSnapshotsJob = defineJob('refresh-snapshots', {
  mode: 'background',
  family: 'syncs',
  books: ['ENTITY_UAE'],
  why: 'the spec',
  input: refreshSnapshotsInput,
  result: refreshSnapshotsResult,
  businessKey: () => null,
  run: async (input, { db, upstreams, progress, logger }) => {
    const dryRun = input.dry_run ?? false;
    const asOf = isoDay(new Date());
    const { customers, failed: notLinked } = await selectCustomers(db, 'custodian_account', input.customer_ids);
    const fetched = await forEachLinked(
      customers,
      'custodian',
      upstreams.custodian,
      async (custodian, { customerId, reference }) => {
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
      progress,
    );
    const saved = await savePortfolioSnapshots(
      db,
      fetched.done.map((d) => d.value),
      { dryRun },
    );
    const snapshots = { ...noOutcomes(), ...saved };
    const customersFailed = [...notLinked, ...fetched.failed];
    logger.info('refresh-snapshots done', {
      dry_run: dryRun,
      ...saved,
      customers_failed: customersFailed.length,
    });
    return { dry_run: dryRun, as_of: asOf, snapshots, customers_failed: customersFailed };
  },
});
