import {
  loadCostInflationIndex,
  loadFxRates,
  loadIssuers,
  parseClosePrices,
  recordClosePrices,
  SHIPPED_CII_FILES,
  SHIPPED_ISSUER_FILES,
  SHIPPED_RATE_FILES,
  shippedCiiCsv,
  shippedIssuersCsv,
  shippedRatesCsv,
} from '@ledger/india';
import type { Db } from '@ledger/core/store';
import { z } from 'zod';
import { defineJob } from '../job-settings.js';

/** A CSV sent in the body: at most this many characters (the shipped SBI file is about 100,000). */
export const REFERENCE_CSV_LENGTH_MAX = 5_000_000;

const csvBody = {
  csv: z.string().min(1).max(REFERENCE_CSV_LENGTH_MAX).describe('The file’s text.'),
  source: z.string().min(1).max(200).describe('A name for where the rows came from, stored with them.'),
};

/** What a load of a whole file answers: rows new, replaced, already there, skipped. */
interface FileLoad extends Record<string, unknown> {
  loaded: number;
  replaced: number;
  unchanged: number;
  skipped: number;
}

/**
 * A job loading reference data from a file shipped with the service (named: a job never takes a
 * path, so it cannot read any other file) or the operator's CSV in the body, idempotently.
 */
function fileLoadJob<Name extends string, Result extends FileLoad>(
  kind: string,
  {
    files,
    what,
    why,
    shipped,
    load,
  }: {
    files: Record<Name, string>;
    what: string;
    why: string;
    shipped: (name: Name) => Promise<string>;
    load: (db: Db, csv: string, source: string) => Promise<Result>;
  },
) {
  const names = Object.keys(files) as [Name, ...Name[]];
  const input = z
    .union([
      z.object({ file: z.enum(names).describe(`${what} shipped with the service (packages/india/data).`) }).strict(),
      z.object(csvBody).strict(),
    ])
    .meta({ examples: [{ file: names[0] }] });
  return defineJob<z.infer<typeof input>, Result>(kind, {
    mode: 'sync',
    family: 'syncs',
    books: ['ENTITY_IND_IFSC'],
    why,
    input,
    businessKey: () => null,
    run: async (body, { db, logger }) => {
      const [csv, source] = 'file' in body ? [await shipped(body.file), body.file] : [body.csv, body.source];
      const result = await load(db, csv, source);
      const { loaded, replaced, unchanged, skipped } = result;
      logger.info(`${kind} done`, { source, loaded, replaced, unchanged, skipped });
      return result;
    },
  });
}

/** load-fx-rates (docs/jobs.md#load-fx-rates): SBI's USD/INR sheets into inr_rates, idempotently. */
export const loadFxRatesJob = fileLoadJob('load-fx-rates', {
  files: SHIPPED_RATE_FILES,
  what: 'A rate file',
  why: 'decided: one file of a few thousand rows, one statement: seconds',
  shipped: shippedRatesCsv,
  load: loadFxRates,
});

/** load-issuers (docs/jobs.md#load-issuers): who stands behind each symbol, for Schedule FA, into issuers, idempotently. */
export const loadIssuersJob = fileLoadJob('load-issuers', {
  files: SHIPPED_ISSUER_FILES,
  what: 'An issuers file',
  why: 'decided: as load-fx-rates',
  shipped: shippedIssuersCsv,
  load: loadIssuers,
});

/** load-cost-inflation-index (docs/jobs.md#load-cost-inflation-index): the CII per FY, for indexed capital gains, into cost_inflation_index, idempotently. */
export const loadCostInflationIndexJob = fileLoadJob('load-cost-inflation-index', {
  files: SHIPPED_CII_FILES,
  what: 'A Cost Inflation Index file',
  why: 'decided: as load-fx-rates',
  shipped: shippedCiiCsv,
  load: loadCostInflationIndex,
});

export const loadClosePricesInput = z
  .object(csvBody)
  .strict()
  .meta({ examples: [{ csv: 'symbol,date,close\nAAPL,2024-06-14,212.49\n', source: 'vendor-eod' }] });
export type LoadClosePricesInput = z.infer<typeof loadClosePricesInput>;

/** load-close-prices (docs/jobs.md#load-close-prices): `symbol,date,close` rows into close_prices. */
export const loadClosePricesJob = defineJob<
  LoadClosePricesInput,
  { source: string; recorded: number; skipped_rows: Array<{ line: number; reason: string }> }
>('load-close-prices', {
  mode: 'sync',
  family: 'syncs',
  books: ['ENTITY_IND_IFSC'],
  why: 'decided: as load-fx-rates',
  input: loadClosePricesInput,
  businessKey: () => null,
  run: async ({ csv, source }, { db }) => {
    const { prices, skipped } = parseClosePrices(csv);
    return { source, recorded: await recordClosePrices(db, prices, source), skipped_rows: skipped };
  },
});
