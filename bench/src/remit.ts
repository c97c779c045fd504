import { accrualsDue, Decimal, remittanceFacts, settlementsDue } from '@ledger/core/posting';
import { trialBalance } from '@ledger/core/reports';
import { findRemittancesOf, postTransactions, upsertCustomer } from '@ledger/core/store';
import type { TestDatabase } from '@ledger/core/testing';
import { runSyncRemit } from '@ledger/jobs';
import { v7 as uuidv7 } from 'uuid';
import { startSyncSandbox } from './sync-sandbox.js';

export interface RemitBenchResult {
  customers: number;
  remittances: number;
  posted: number;
  seconds: number;
  remittancesPerSecond: number;
  postedPerSecond: number;
  /** The same postings under new keys through postTransactions alone: the bulk path's rate here, now. */
  bulkOnlyPerSecond: number;
}

/** The assumed FX-spread markup: every paid order accrues, every landed settlement clears its accrual. */
const BPS = 75;

/**
 * sync-remit end to end against the sandbox in its own process (real HTTP, the real client, the
 * job's own logic: each India customer's orders, payments, quotes and settlements read, the
 * remittance rows written, accruals and settlements posted in bulk). Yardstick, in the same run:
 * the postings the run made, drafted again from the stored rows under new keys, through the
 * bulk path alone.
 */
export async function benchSyncRemit(
  database: TestDatabase,
  customers: number,
  recordsPerCustomer: number,
): Promise<RemitBenchResult> {
  const { data, deps, close } = await startSyncSandbox(database, {
    book: 'ENTITY_IND_IFSC',
    customers,
    recordsPerCustomer,
    upstream: ['REMIT_BASE_URL', 'REMIT_API_KEY', 'REMIT_REQUESTS_PER_MINUTE'],
  });
  const { db } = deps;
  try {
    for (const c of data.india.customers) {
      await upsertCustomer(db, c.customer_id, {
        references: { remit_customer_id: c.remit_customer_id, pan: c.pan },
      });
    }
    // The sandbox makes its India records on the first request: asked once before the clock starts.
    await deps.upstreams.remit!.listOrders({ customerId: data.india.customers[0]!.remit_customer_id });

    let started = process.hrtime.bigint();
    const result = await runSyncRemit({ fx_spread_bps: BPS }, deps);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (result.customers_failed.length > 0 || result.issues.length > 0)
      throw new Error(
        `sync-remit: ${JSON.stringify(result.records)} ${JSON.stringify(result.customers_failed.slice(0, 3))}`,
      );
    const posted = Object.values(result.records).reduce((n, c) => n + c.inserted, 0);
    if (!(await trialBalance(db)).balanced) throw new Error('trial balance does not balance');

    // What the run posted, drafted again from the rows it stored (as a first run drafts them).
    const bps = new Decimal(BPS);
    const drafts = [];
    for (const c of data.india.customers) {
      const facts = (await findRemittancesOf(db, c.customer_id)).map((row) =>
        remittanceFacts({ ...row, settled_at: row.settled_at?.toISOString() ?? null }, undefined),
      );
      const accruals = accrualsDue(facts, [], bps, uuidv7).drafts;
      drafts.push(...accruals, ...settlementsDue(facts, [], accruals, uuidv7));
    }
    if (drafts.length !== posted) throw new Error(`the yardstick drafted ${drafts.length} postings, the run ${posted}`);
    const again = drafts.map((d) => ({ ...d, sourceTxnId: `yardstick-${d.sourceTxnId}` }));
    started = process.hrtime.bigint();
    const bulk = await postTransactions(db, again);
    const bulkSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (bulk.inserted !== again.length) throw new Error(`bulk yardstick posted ${bulk.inserted} of ${again.length}`);
    return {
      customers,
      remittances: result.remittances.seen,
      posted,
      seconds,
      remittancesPerSecond: result.remittances.seen / seconds,
      postedPerSecond: posted / seconds,
      bulkOnlyPerSecond: again.length / bulkSeconds,
    };
  } finally {
    close();
  }
}
