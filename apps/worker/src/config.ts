import { DECIMAL_PATTERN_SOURCE } from '@ledger/core/posting';
import {
  commonConfigOf,
  commonConfigSchema,
  feeScheduleConfigSchema,
  feeScheduleOf,
  parseConfig,
  queueConfigOf,
  redisConfigSchema,
  type CommonConfig,
} from '@ledger/core/runtime';
import type { JobSettings } from '@ledger/jobs';
import { createUpstreamClients, upstreamConfigSchema, type UpstreamClients } from '@ledger/upstream-clients';
import { z } from 'zod';

// The fee schedule (customer fee, broker cost): the trades the worker's syncs post are pinned to it;
// recost applies it to trades posted before pins.
export const workerConfigSchema = commonConfigSchema
  .extend(redisConfigSchema.shape)
  .extend(upstreamConfigSchema.shape)
  .extend(feeScheduleConfigSchema.shape)
  .extend({
    /** sync-remit's assumed FX-spread markup when its body gives none; unset: nothing accrues. */
    FX_SPREAD_BPS: z
      .string()
      .regex(new RegExp(DECIMAL_PATTERN_SOURCE), 'must be a decimal string of basis points like "75"')
      .optional(),
    /** The customer registry provision-india reads when its body names none. */
    API_GLOBAL_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    /** The AED peg, AED per USD, the UAE syncs convert AED records at (the api's AED_PER_USD). */
    AED_PER_USD: z
      .string()
      .regex(new RegExp(DECIMAL_PATTERN_SOURCE), 'must be a decimal string like "3.6725"')
      // Only a decimal string is weighed (zod runs this check after a failed regex too).
      .refine(
        (value) => !new RegExp(DECIMAL_PATTERN_SOURCE).test(value) || /[1-9]/.test(value),
        'must be greater than zero',
      )
      .default('3.6725'),
    /** How long a job may go without its lock being renewed before another worker takes it over. */
    JOB_STALLED_INTERVAL_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  });

export interface WorkerConfig extends CommonConfig {
  redisUrl: string;
  /** BullMQ key prefix in Redis: the api (producer) and the worker of a book must agree on it. */
  queuePrefix: string;
  /** How long a job may go without its lock being renewed before another worker takes it over. */
  jobStalledIntervalMs: number;
  /** What the jobs read: recost's fee schedule, the AED peg. */
  jobSettings: JobSettings;
  /** The book's upstream clients (credentials inside them, never logged). */
  upstreams: UpstreamClients;
}

/** The worker's one reader of `process.env`. Throws a ConfigError naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const parsed = parseConfig(workerConfigSchema, env);
  return {
    ...commonConfigOf(parsed),
    ...queueConfigOf(parsed),
    jobStalledIntervalMs: parsed.JOB_STALLED_INTERVAL_MS,
    jobSettings: {
      feeSchedule: feeScheduleOf(parsed, env),
      aedPerUsd: parsed.AED_PER_USD,
      ...(parsed.FX_SPREAD_BPS !== undefined && { fxSpreadBps: parsed.FX_SPREAD_BPS }),
      ...(parsed.API_GLOBAL_BASE_URL !== undefined && { apiGlobalBaseUrl: parsed.API_GLOBAL_BASE_URL }),
    },
    upstreams: createUpstreamClients(parsed),
  };
}
