import { createLogger, Decimal, recost, trialBalance, upsertCustomer } from '@ledger/core';
import type { TestDatabase } from '@ledger/core/testing';
import { DEFAULT_JOB_SETTINGS, draftMappings, mapCashTransfer, mapOrder, syncUaefeedJob } from '@ledger/jobs';
import { startSandbox } from '@ledger/sandbox';
import { createUpstreamClients, upstreamConfigSchema } from '@ledger/upstream-clients';
import { rawCopyLinesPerSecond } from './bulk.js';

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
  rawCopyLinesPerSecond: number;
}

/**
 * sync-uaefeed end to end against the sandbox (real HTTP, the real clients, the job's own
 * logic: fetch every linked customer's transfers and orders, map, post in bulk), over
 * `customers` × `recordsPerCustomer` records; then the recost of what it posted, timed apart.
 * The yardstick is a raw COPY of the same journal lines into a bare table, in the same run.
 */
export async function benchSyncUaefeed(database: TestDatabase, customers: number, recordsPerCustomer: number): Promise<UaefeedBenchResult> {
  const db = database.runtime?.db ?? database.db;
  const sandbox = await startSandbox({ seed: 2026, customers, recordsPerCustomer });
  try {
    for (const c of sandbox.data.customers) {
      await upsertCustomer(db, c.customer_id, { name: c.name, references: { uaefeed_customer_number: c.uaefeed_customer_number, custodian_account: c.custodian_account } });
    }
    const credentials = sandbox.credentials.uaefeed;
    const upstreams = createUpstreamClients(
      upstreamConfigSchema.parse({
        UAEFEED_BASE_URL: sandbox.urls.uaefeed,
        UAEFEED_API_KEY: credentials.appKey,
        UAEFEED_API_SECRET: credentials.appSecret,
        UAEFEED_PRIVATE_KEY: credentials.privateKeyPem,
        UAEFEED_INST_CODE: credentials.instCode,
      }),
    );
    // Generated before the clock starts: the sandbox makes a customer's records on first request.
    for (const c of sandbox.data.customers) sandbox.data.dataOf(c);
    const logger = createLogger({ level: 'error', service: 'bench', book: 'ENTITY_UAE', silent: true });
    const deps = { book: 'ENTITY_UAE' as const, db, logger, progress: () => undefined, settings: DEFAULT_JOB_SETTINGS, upstreams };

    let started = process.hrtime.bigint();
    const result = await syncUaefeedJob.run({ recost: false }, deps);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (result.customers_failed.length > 0 || result.totals.rejected > 0) throw new Error(`sync-uaefeed: ${JSON.stringify(result.totals)} ${JSON.stringify(result.customers_failed.slice(0, 3))}`);

    started = process.hrtime.bigint();
    const recosted = await recost(db, { policy: { customerFeeBps: new Decimal(22), brokerCostBps: new Decimal(4) }, limit: null });
    const recostSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (recosted.flagged.length > 0) throw new Error(`recost flagged ${recosted.flagged.length} trades`);
    if (!(await trialBalance(db)).balanced) throw new Error('trial balance does not balance');

    const peg = new Decimal(DEFAULT_JOB_SETTINGS.aedPerUsd);
    const { drafts } = draftMappings(
      sandbox.data.customers.flatMap((c) => {
        const data = sandbox.data.dataOf(c);
        return [...data.transfers.map((t) => mapCashTransfer(t, c.customer_id, peg)), ...data.orders.map((o) => mapOrder(o, c.customer_id, peg))];
      }),
      DEFAULT_JOB_SETTINGS,
    );
    return {
      customers,
      records: result.totals.fetched,
      posted: result.totals.posted,
      skipped: result.totals.skipped,
      seconds,
      recordsPerSecond: result.totals.fetched / seconds,
      postedPerSecond: result.totals.posted / seconds,
      recostSeconds,
      trades: recosted.recosted,
      rawCopyLinesPerSecond: await rawCopyLinesPerSecond(database, drafts),
    };
  } finally {
    await sandbox.close();
  }
}
