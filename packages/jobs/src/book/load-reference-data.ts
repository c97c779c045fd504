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
import { assert } from '@ledger/core/posting';
import type { Db } from '@ledger/core/store';
import { z } from 'zod';
import { defineJob } from '../job-settings.js';
import {
  isRecordReasonCode,
  outcomeCounts,
  reason,
  recordReason,
  RESULT_SCHEMAS,
  type OutcomeCounts,
} from '../kit/results.js';

/** A CSV sent in the body: at most this many characters (the shipped SBI file is about 100,000). */
export const REFERENCE_CSV_LENGTH_MAX = 5_000_000;

const csvBody = {
  csv: z.string().min(1).max(REFERENCE_CSV_LENGTH_MAX).describe('The file’s text.'),
  source: z.string().min(1).max(200).describe('A name for where the rows came from, stored with them.'),
};

/** A row of the file a loader did not take, as it names it: its line (null: a day's stored later sheet), its key and why. */
interface LoaderSkip {
  line: number | null;
  date?: string | null;
  symbol?: string | null;
  fy?: string | null;
  reason: string;
}

/** What a loader answers of a whole file: rows new, replaced, already there, not taken. */
interface FileLoad {
  loaded: number;
  replaced: number;
  unchanged: number;
  skipped_rows: LoaderSkip[];
}

/**
 * Rows with nothing to load, by design: another one supersedes them (later in the file, a later
 * sheet of the day, one stored), or SBI published no TT rate that day. Any other is refused.
 */
const NOTHING_TO_LOAD = new Set([
  'superseded_in_file',
  'revised_same_day',
  'older_than_stored',
  'no_tt_rate',
  'no_tt_rate_saturday',
]);

const rowNotLoaded = z.strictObject({
  line: z.number().int().min(1).nullable().describe('Its line in the file; null: a day whose later sheet is stored.'),
  key: z.string().nullable().describe('The date, symbol or fiscal year it was for, when it could be read.'),
  outcome: z.enum(['skipped', 'rejected']),
  reason: recordReason,
});

/** What every reference load answers: its rows' outcomes, and each row not loaded with why. */
export const referenceLoadResult = z
  .strictObject({
    source: z.string().describe('Where the rows came from, as stored with them.'),
    rows: outcomeCounts,
    rows_not_loaded: z.array(rowNotLoaded),
  })
  .describe(
    'Rows `inserted` (new), `updated` (replaced: another sheet of the day, another row for the key), `duplicate` ' +
      '(already held), `skipped` (nothing to load: superseded, or no rate published) and `rejected` (malformed), each ' +
      'not loaded listed.',
  )
  .register(RESULT_SCHEMAS, { id: 'ReferenceLoadResult' });
export type ReferenceLoadResult = z.infer<typeof referenceLoadResult>;

/**
 * A row a loader did not take, in the one vocabulary: nothing to load is skipped, anything else
 * refused; the issuers' `missing_<column>` and `too_long_<column>` name their column in the detail.
 */
function notLoaded(row: LoaderSkip): z.infer<typeof rowNotLoaded> {
  const [, problem, field] = /^(missing|too_long)_(.+)$/.exec(row.reason) ?? [];
  const code = problem === undefined ? row.reason : problem === 'missing' ? 'missing_field' : 'field_too_long';
  assert(isRecordReasonCode(code), `${row.reason} is no reason code of docs/outcomes.md`);
  return {
    line: row.line,
    key: row.date ?? row.symbol ?? row.fy ?? null,
    outcome: NOTHING_TO_LOAD.has(code) ? 'skipped' : 'rejected',
    reason: reason(code, field === undefined ? {} : { field }),
  };
}

/** A load's rows and those not loaded, in the one vocabulary. */
function loadResult(
  source: string,
  written: Omit<OutcomeCounts, 'skipped' | 'rejected' | 'conflict'>,
  skipped: LoaderSkip[],
) {
  const rows_not_loaded = skipped.map(notLoaded);
  const count = (outcome: 'skipped' | 'rejected') => rows_not_loaded.filter((r) => r.outcome === outcome).length;
  const rows = { ...written, conflict: 0, skipped: count('skipped'), rejected: count('rejected') };
  return { source, rows, rows_not_loaded } satisfies ReferenceLoadResult;
}

/**
 * A job loading reference data from a file shipped with the service (named: a job never takes a
 * path, so it cannot read any other file) or the operator's CSV in the body, idempotently.
 */
function fileLoadJob<Name extends string>(
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
    load: (db: Db, csv: string, source: string) => Promise<FileLoad>;
  },
) {
  const names = Object.keys(files) as [Name, ...Name[]];
  const input = z
    .union([
      z.object({ file: z.enum(names).describe(`${what} shipped with the service (packages/india/data).`) }).strict(),
      z.object(csvBody).strict(),
    ])
    .meta({ examples: [{ file: names[0] }] });
  return defineJob(kind, {
    mode: 'sync',
    family: 'syncs',
    books: ['ENTITY_IND_IFSC'],
    why,
    input,
    result: referenceLoadResult,
    businessKey: () => null,
    run: async (body, { db, logger }) => {
      const [csv, source] = 'file' in body ? [await shipped(body.file), body.file] : [body.csv, body.source];
      const { loaded, replaced, unchanged, skipped_rows } = await load(db, csv, source);
      const result = loadResult(source, { inserted: loaded, updated: replaced, duplicate: unchanged }, skipped_rows);
      logger.info(`${kind} done`, { source, ...result.rows });
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
export const loadClosePricesJob = defineJob('load-close-prices', {
  mode: 'sync',
  family: 'syncs',
  books: ['ENTITY_IND_IFSC'],
  why: 'decided: as load-fx-rates',
  input: loadClosePricesInput,
  result: referenceLoadResult,
  businessKey: () => null,
  run: async ({ csv, source }, { db }) => {
    const { prices, skipped } = parseClosePrices(csv);
    const { inserted, updated, unchanged } = await recordClosePrices(db, prices, source);
    return loadResult(source, { inserted, updated, duplicate: unchanged }, skipped);
  },
});
