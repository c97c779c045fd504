import {
  loadFxRates,
  loadIssuers,
  parseClosePrices,
  recordClosePrices,
  SHIPPED_ISSUER_FILES,
  SHIPPED_RATE_FILES,
  shippedIssuersCsv,
  shippedRatesCsv,
  type FxRatesLoad,
  type IssuersLoad,
} from '@ledger/india';
import { z } from 'zod';
import { defineJob } from '@ledger/job-runtime';

/** A CSV sent in the body: at most this many characters (the shipped SBI file is about 100,000). */
export const REFERENCE_CSV_LENGTH_MAX = 5_000_000;

const csvBody = {
  csv: z.string().min(1).max(REFERENCE_CSV_LENGTH_MAX).describe('The file’s text.'),
  source: z.string().min(1).max(200).describe('A name for where the rows came from, stored with them.'),
};

/** A file shipped with the service, by name, or the operator's CSV in the body. */
const shippedOrCsv = <const Names extends readonly [string, ...string[]]>(names: Names, what: string) =>
  z
    .union([
      z.object({ file: z.enum(names).describe(`${what} shipped with the service (packages/india/data).`) }).strict(),
      z.object(csvBody).strict(),
    ])
    .meta({ examples: [{ file: names[0] }] });

export const loadFxRatesInput = shippedOrCsv(
  Object.keys(SHIPPED_RATE_FILES) as [keyof typeof SHIPPED_RATE_FILES],
  'A rate file',
);
export type LoadFxRatesInput = z.infer<typeof loadFxRatesInput>;

/** load-fx-rates (docs/jobs.md#load-fx-rates): SBI's USD/INR sheets into inr_rates, idempotently. */
export const loadFxRatesJob = defineJob<LoadFxRatesInput, FxRatesLoad>('load-fx-rates', {
  mode: 'sync',
  family: 'syncs',
  books: ['ENTITY_IND_IFSC'],
  why: 'decided: one file of a few thousand rows, one statement: seconds',
  input: loadFxRatesInput,
  businessKey: () => null,
  run: async (input, { db, logger }) => {
    const [csv, source] = 'file' in input ? [await shippedRatesCsv(input.file), input.file] : [input.csv, input.source];
    const result = await loadFxRates(db, csv, source);
    logger.info('load-fx-rates done', {
      source,
      loaded: result.loaded,
      replaced: result.replaced,
      unchanged: result.unchanged,
      skipped: result.skipped,
    });
    return result;
  },
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

export const loadIssuersInput = shippedOrCsv(
  Object.keys(SHIPPED_ISSUER_FILES) as [keyof typeof SHIPPED_ISSUER_FILES],
  'An issuers file',
);
export type LoadIssuersInput = z.infer<typeof loadIssuersInput>;

/** load-issuers (docs/jobs.md#load-issuers): who stands behind each symbol, for Schedule FA, into issuers, idempotently. */
export const loadIssuersJob = defineJob<LoadIssuersInput, IssuersLoad>('load-issuers', {
  mode: 'sync',
  family: 'syncs',
  books: ['ENTITY_IND_IFSC'],
  why: 'decided: as load-fx-rates',
  input: loadIssuersInput,
  businessKey: () => null,
  run: async (input, { db, logger }) => {
    const [csv, source] =
      'file' in input ? [await shippedIssuersCsv(input.file), input.file] : [input.csv, input.source];
    const result = await loadIssuers(db, csv, source);
    logger.info('load-issuers done', {
      source,
      loaded: result.loaded,
      replaced: result.replaced,
      unchanged: result.unchanged,
      skipped: result.skipped,
    });
    return result;
  },
});
