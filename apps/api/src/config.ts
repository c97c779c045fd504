import { Decimal, DECIMAL_PATTERN_SOURCE, type FeeSchedule } from '@ledger/core/posting';
import {
  commonConfigOf,
  commonConfigSchema,
  feeScheduleConfigSchema,
  feeScheduleOf,
  FISCAL_YEAR_START_MONTH_DEFAULT,
  parseConfig,
  queueConfigOf,
  redisConfigSchema,
  type CommonConfig,
} from '@ledger/core/runtime';
import { indiaSettingsOf, indiaSettingsSchema, type IndiaSettings } from '@ledger/india';
import { reconSettingsOf, reconSettingsSchema, type ReconSettings } from '@ledger/reconciliation';
import { createUpstreamClients, upstreamConfigSchema, type UpstreamClients } from '@ledger/upstream-clients';
import { z } from 'zod';

/** A token shorter than this is a password, not an API key: refused at start. */
const TOKEN_LENGTH_MIN = 16;

/** An unset variable and an empty one both mean "not configured": requests needing it get 503. */
const optionalToken = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z
    .string()
    .min(TOKEN_LENGTH_MIN, `must be at least ${TOKEN_LENGTH_MIN} characters (an API-key-style secret)`)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
);

export const apiConfigSchema = commonConfigSchema
  .extend(redisConfigSchema.shape)
  .extend(upstreamConfigSchema.shape)
  .extend(feeScheduleConfigSchema.shape)
  .extend(reconSettingsSchema.shape)
  .extend(indiaSettingsSchema.shape)
  .extend({
    /** The HMAC-SHA256 key of the remit webhook's `X-Remit-Signature`; unset: the webhook answers 503 to every payload. */
    REMIT_WEBHOOK_SECRET: optionalToken,
    PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
    LEDGER_TOKEN: optionalToken,
    LEDGER_ADMIN_TOKEN: optionalToken,
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1_024)
      .max(64 * 1_024 * 1_024)
      .default(1_024 * 1_024),
    /** The AED peg: AED per USD that cash requests in AED convert at (decimal string, greater than zero). */
    AED_PER_USD: z
      .string()
      .regex(new RegExp(DECIMAL_PATTERN_SOURCE), 'must be a decimal string like "3.6725"')
      // Only a decimal string is weighed (zod runs this check after a failed regex too).
      .refine(
        (value) => !new RegExp(DECIMAL_PATTERN_SOURCE).test(value) || new Decimal(value).isGreaterThan(0),
        'must be greater than zero',
      )
      .default('3.6725'),
    /** Headers and body of a request must arrive within this, or it is answered 408 and cut. */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
    /** How long a synchronous job's caller waits for its result before being answered 202 to poll. */
    JOB_SYNC_WAIT_MS: z.coerce.number().int().min(0).max(300_000).default(25_000),
    /** The other book's api (its origin): the console's header links to its `/console/`. Unset: no link. */
    CONSOLE_PEER_URL: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.url({ protocol: /^https?$/ }).optional(),
    ),
    /** How long /health/ready waits for the database before answering 503. */
    READY_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(2_000),
    /** Customers whose broker the live India reports read at once: enough to hide latency, few enough to spare the broker. */
    INDIA_LIVE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
    /** The month the book's financial year starts in (1-12), for closing a year; unset: the book's (FISCAL_YEAR_START_MONTH_DEFAULT). */
    FISCAL_YEAR_START_MONTH: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.coerce.number().int().min(1).max(12).optional(),
    ),
    /**
     * The old name of the LRS-to-broker window, when `/v1/india/reconciliation` matched by its own:
     * refused, so a deployment still setting it learns at start that RECON_TIE_OUT_DAY_WINDOW (the
     * window `lrs_usbroker_tie_out` shares with the report) took its place, rather than being ignored.
     */
    INDIA_WIRE_MATCH_DAYS: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.undefined({
        error:
          'renamed RECON_TIE_OUT_DAY_WINDOW: /v1/india/reconciliation and lrs_usbroker_tie_out share that one window',
      }),
    ),
  })
  .refine((c) => c.LEDGER_TOKEN === undefined || c.LEDGER_TOKEN !== c.LEDGER_ADMIN_TOKEN, {
    message: 'must differ from LEDGER_TOKEN (a read token must not grant admin rights)',
    path: ['LEDGER_ADMIN_TOKEN'],
  });

export interface ApiConfig extends CommonConfig {
  port: number;
  /** Unset: every request that needs it is answered 503 `not_configured` (fail closed). */
  ledgerToken: string | undefined;
  adminToken: string | undefined;
  bodyLimitBytes: number;
  /** The customer's fee, per source, on a trade that does not state it: ingest posts a buy's. */
  feeSchedule: FeeSchedule;
  /** AED per USD: the peg AED cash requests convert at. */
  aedPerUsd: Decimal;
  readyTimeoutMs: number;
  requestTimeoutMs: number;
  redisUrl: string;
  queuePrefix: string;
  jobSyncWaitMs: number;
  /** The book's upstream clients (the customer views read them live); null where not configured. */
  upstreams: UpstreamClients;
  /** Unset: the remit webhook refuses every payload with 503. */
  remitWebhookSecret: string | undefined;
  /** The reconciliation checks' settings, for `POST /v1/reconciliation/run`. */
  recon: ReconSettings;
  /** The other book's console (`<CONSOLE_PEER_URL>/console/`), or null: the service index gives it. */
  peerConsoleUrl: string | null;
  /** The stored-data India reports' settings (rule options, configured bps). */
  india: IndiaSettings;
  /** The live India reports' settings (docs/india-live-reports.md). */
  indiaLive: IndiaLiveSettings;
  /** The month the book's financial year starts in, 1-12 (`FISCAL_YEAR_START_MONTH`): what a year close closes. */
  fiscalYearStartMonth: number;
}

export interface IndiaLiveSettings {
  /** Customers read from the broker at once (`INDIA_LIVE_CONCURRENCY`). */
  concurrency: number;
}

/** The one place that reads the environment: parsed once, at start, into a typed object. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const parsed = parseConfig(apiConfigSchema, env);
  const feeSchedule = feeScheduleOf(parsed, env);
  return {
    ...commonConfigOf(parsed),
    port: parsed.PORT,
    ledgerToken: parsed.LEDGER_TOKEN,
    adminToken: parsed.LEDGER_ADMIN_TOKEN,
    bodyLimitBytes: parsed.BODY_LIMIT_BYTES,
    feeSchedule,
    aedPerUsd: new Decimal(parsed.AED_PER_USD),
    readyTimeoutMs: parsed.READY_TIMEOUT_MS,
    requestTimeoutMs: parsed.REQUEST_TIMEOUT_MS,
    ...queueConfigOf(parsed),
    jobSyncWaitMs: parsed.JOB_SYNC_WAIT_MS,
    upstreams: createUpstreamClients(parsed),
    remitWebhookSecret: parsed.REMIT_WEBHOOK_SECRET,
    recon: reconSettingsOf(parsed, feeSchedule),
    indiaLive: { concurrency: parsed.INDIA_LIVE_CONCURRENCY },
    india: indiaSettingsOf(parsed, feeSchedule),
    fiscalYearStartMonth: parsed.FISCAL_YEAR_START_MONTH ?? FISCAL_YEAR_START_MONTH_DEFAULT[parsed.ENTITY_ID],
    peerConsoleUrl: parsed.CONSOLE_PEER_URL === undefined ? null : new URL('/console/', parsed.CONSOLE_PEER_URL).href,
  };
}
