import { Decimal, FeeSchedule } from '@ledger/core/posting';
import { trialBalance } from '@ledger/core/reports';
import { postTransactions, recost, upsertCustomer } from '@ledger/core/store';
import { v7 as uuidv7 } from 'uuid';
import type { TestDatabase } from '@ledger/core/testing';
import {
  DEFAULT_JOB_SETTINGS,
  draftOf,
  mapCashTransfer,
  mapOrder,
  RECORD_OUTCOMES,
  type RecordOutcomeName,
  syncUaefeedJob,
} from '@ledger/jobs';
import { rawCopyLinesPerSecond } from './bulk.js';
import { startSyncSandbox } from './sync-sandbox.js';

export interface UaefeedBenchResult {
  customers: number;
  records: number;
  posted: number;
  skipped: number;
  seconds: number;
  recordsPerSecond: number;
  postedPerSecond: number;
  recostSeconds: number;
  trades: number;
  /** The same drafts under new keys through postTransactions alone: the bulk path's rate here, now. */
  bulkOnlyPerSecond: number;
  rawCopyLinesPerSecond: number;
}

/**
 * sync-uaefeed end to end against the sandbox, in its own process (real HTTP, the real clients, the job's own
 * logic: fetch every linked customer's transfers and orders, map, post in bulk), over
 * `customers` × `recordsPerCustomer` records; then the recost of what it posted, timed apart.
 * Yardsticks, in the same run: the same drafts (new keys) through the bulk path alone, and a raw
 * COPY of their journal lines into a bare table.
 */
export async function benchSyncUaefeed(
  database: TestDatabase,
  customers: number,
  recordsPerCustomer: number,
): Promise<UaefeedBenchResult> {
  const { data, deps, close } = await startSyncSandbox(database, {
    book: 'ENTITY_UAE',
    customers,
    recordsPerCustomer,
    upstream: ['UAEFEED_BASE_URL', 'UAEFEED_API_KEY', 'UAEFEED_API_SECRET', 'UAEFEED_PRIVATE_KEY', 'UAEFEED_INST_CODE'],
  });
  const { db } = deps;
  try {
    for (const c of data.customers) {
      await upsertCustomer(db, c.customer_id, {
        name: c.name,
        references: { uaefeed_customer_number: c.uaefeed_customer_number, custodian_account: c.custodian_account },
      });
    }
    // The sandbox makes a customer's records on its first request: asked once before the clock
    // starts (a real upstream has them already), which also fetches the access token.
    const feed = deps.upstreams.uaefeed!;
    for (let i = 0; i < data.customers.length; i += 25) {
      await Promise.all(data.customers.slice(i, i + 25).map((c) => feed.getCashSummary(c.uaefeed_customer_number)));
    }

    let started = process.hrtime.bigint();
    const result = await syncUaefeedJob.run({ recost: false }, deps);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const counts = Object.values(result.records);
    const total = (outcome: RecordOutcomeName) => counts.reduce((n, c) => n + c[outcome], 0);
    if (result.customers_failed.length > 0 || result.issues.length > 0)
      throw new Error(
        `sync-uaefeed: ${JSON.stringify(result.records)} ${JSON.stringify(result.customers_failed.slice(0, 3))}`,
      );
    const fetched = RECORD_OUTCOMES.reduce((n, o) => n + total(o), 0);

    started = process.hrtime.bigint();
    const recosted = await recost(db, { policy: { feeSchedule: new FeeSchedule(new Decimal(22)) }, limit: null });
    const recostSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (recosted.flagged.length > 0) throw new Error(`recost flagged ${recosted.flagged.length} trades`);
    if (!(await trialBalance(db)).balanced) throw new Error('trial balance does not balance');

    const drafts = uaefeedDrafts(data);
    const again = drafts.map((d) => ({ ...d, txnId: uuidv7(), sourceTxnId: `yardstick-${d.sourceTxnId}` }));
    started = process.hrtime.bigint();
    const bulk = await postTransactions(db, again);
    const bulkSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (bulk.inserted !== again.length) throw new Error(`bulk yardstick posted ${bulk.inserted} of ${again.length}`);
    return {
      customers,
      records: fetched,
      posted: total('inserted'),
      skipped: total('skipped'),
      seconds,
      recordsPerSecond: fetched / seconds,
      postedPerSecond: total('inserted') / seconds,
      recostSeconds,
      trades: recosted.recosted,
      bulkOnlyPerSecond: again.length / bulkSeconds,
      rawCopyLinesPerSecond: await rawCopyLinesPerSecond(database, drafts),
    };
  } finally {
    close();
  }
}

/** Every record of the data set as sync-uaefeed drafts it (mapped, then drafted; the records it refuses left out). */
function uaefeedDrafts(data: Awaited<ReturnType<typeof startSyncSandbox>>['data']) {
  const peg = new Decimal(DEFAULT_JOB_SETTINGS.aedPerUsd);
  return data.customers.flatMap((c) => {
    const records = data.dataOf(c);
    return [
      ...records.transfers.map((t) =>
        mapCashTransfer(t, { customerId: c.customer_id, customerNumber: c.uaefeed_customer_number }, peg),
      ),
      ...records.orders.map((o) => mapOrder(o, c.customer_id, peg)),
    ].flatMap((m) => {
      const drafted = draftOf(m, DEFAULT_JOB_SETTINGS);
      return 'draft' in drafted ? [drafted.draft] : [];
    });
  });
}
