import { createLogger } from '@ledger/core/runtime';
import { recost, upsertCustomer } from '@ledger/core/store';
import type { TestDatabase } from '@ledger/core/testing';
import {
  DEFAULT_JOB_SETTINGS,
  LEDGER_DAYS_MAX,
  recostPolicyOf,
  runSyncRemit,
  runSyncUsbroker,
  runSyncUsbrokerLedger,
  type JobDeps,
} from '@ledger/jobs';
import {
  addDays,
  indiaSettingsOf,
  indiaSettingsSchema,
  loadCostInflationIndex,
  loadFxRates,
  loadIssuers,
  parseFinancialYear,
  shippedCiiCsv,
  shippedIssuersCsv,
  shippedRatesCsv,
  taxPackReport,
  type IndiaReportContext,
} from '@ledger/india';
import { createDataset } from '@ledger/sandbox';
import { createUpstreamClients, upstreamConfigSchema } from '@ledger/upstream-clients';
import { loadavg } from 'node:os';
import { startSandboxProcess } from './sync-sandbox.js';

/** The quickstart's demo data set (packages/quickstart DEMO): seed 42, 48 records per customer, 24 months. */
const DEMO = { seed: 42, recordsPerCustomer: 48, months: 24, startMonth: '2024-11' };
const FY = '2025-26';

export interface TaxPackBenchResult {
  customers: number;
  pans: number;
  loadSeconds: number;
  /** Milliseconds per PAN's pack: median, 95th percentile (nearest rank) and the slowest. */
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  /** What the packs held, summed (so a fast pack is not an empty one): transfers, dividends, remittances with TCS, open lots. */
  held: { transfers: number; dividends: number; tcsLines: number; openLots: number };
  /** The 1-minute load average before and after the packs. */
  load: [before: number, after: number];
}

/**
 * The tax pack of every PAN of a book loaded the quickstart's way: the sandbox's India data set
 * (the quickstart's seed, size and 24 months) synced through the real jobs (sync-remit,
 * sync-usbroker with recost, sync-usbroker-ledger), the shipped rates, index and issuers loaded;
 * then each PAN's FY 2025-26 pack timed one after another.
 */
export async function benchTaxPack(database: TestDatabase, customers: number): Promise<TaxPackBenchResult> {
  const db = database.runtime?.db ?? database.db;
  const { seed, recordsPerCustomer, months, startMonth } = DEMO;
  const sandbox = await startSandboxProcess(seed, customers, recordsPerCustomer, [
    '--start-month',
    startMonth,
    '--months',
    String(months),
  ]);
  try {
    const started = process.hrtime.bigint();
    const data = createDataset({ seed, customers, recordsPerCustomer, months, startMonth });
    for (const c of data.india.customers)
      await upsertCustomer(db, c.customer_id, {
        references: { usbroker_account_no: c.usbroker_account_no, remit_customer_id: c.remit_customer_id, pan: c.pan },
      });
    const deps: JobDeps = {
      book: 'ENTITY_IND_IFSC',
      db,
      logger: createLogger({ level: 'error', service: 'bench', book: 'ENTITY_IND_IFSC', silent: true }),
      progress: () => undefined,
      settings: DEFAULT_JOB_SETTINGS,
      upstreams: createUpstreamClients(upstreamConfigSchema.parse(sandbox.env)),
    };
    await runSyncRemit({ fx_spread_bps: 75 }, deps);
    await runSyncUsbroker({}, deps);
    for (let start = data.period.from; start <= data.period.to; start = addDays(start, LEDGER_DAYS_MAX)) {
      const end = addDays(start, LEDGER_DAYS_MAX - 1);
      await runSyncUsbrokerLedger({ start, end: end < data.period.to ? end : data.period.to }, deps);
    }
    await recost(db, { policy: recostPolicyOf(deps.settings), limit: null });
    await loadFxRates(db, await shippedRatesCsv('sbi-usd-inr-rates'), 'sbi-usd-inr-rates');
    await loadCostInflationIndex(db, await shippedCiiCsv('cost-inflation-index'), 'cost-inflation-index');
    await loadIssuers(db, await shippedIssuersCsv('us-issuers'), 'us-issuers');
    const loadSeconds = Number(process.hrtime.bigint() - started) / 1e9;

    const india: IndiaReportContext = {
      book: 'ENTITY_IND_IFSC',
      db,
      settings: indiaSettingsOf(indiaSettingsSchema.parse({}), deps.settings.feeSchedule),
    };
    const pans = [...new Set(data.india.customers.map((c) => c.pan).filter((p): p is string => p !== null))];
    const fy = parseFinancialYear(FY);
    await taxPackReport(india, fy, pans[0]!);
    const before = loadavg()[0]!;
    const times: number[] = [];
    const held = { transfers: 0, dividends: 0, tcsLines: 0, openLots: 0 };
    for (const pan of pans) {
      const t0 = process.hrtime.bigint();
      const pack = await taxPackReport(india, fy, pan);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      held.transfers += pack.ScheduleCG.lines.length;
      held.dividends += pack.Form67.lines.length;
      held.tcsLines += pack.ScheduleTCS.lines.length;
      held.openLots += pack.ScheduleAL.lots.length;
    }
    times.sort((a, b) => a - b);
    return {
      customers,
      pans: pans.length,
      loadSeconds,
      medianMs: times[Math.floor(times.length / 2)]!,
      p95Ms: times[Math.ceil(times.length * 0.95) - 1]!,
      maxMs: times.at(-1)!,
      held,
      load: [before, loadavg()[0]!],
    };
  } finally {
    sandbox.close();
  }
}
