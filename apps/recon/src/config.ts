import {
  commonConfigOf,
  commonConfigSchema,
  feeScheduleConfigSchema,
  feeScheduleOf,
  flagSetting,
  parseConfig,
  type CommonConfig,
} from '@ledger/core/runtime';
import { reconSettingsOf, reconSettingsSchema, type ReconSettings } from '@ledger/reconciliation';
import { createUpstreamClients, upstreamConfigSchema, type UpstreamClients } from '@ledger/upstream-clients';
import { z } from 'zod';

const seconds = (fallback: number, min = 1) =>
  z.coerce
    .number()
    .int()
    .min(min)
    .max(30 * 86_400)
    .default(fallback);

/** The scheduler's settings (spec, Limits), with the checks' own (reconSettingsSchema). */
export const reconConfigSchema = commonConfigSchema
  .extend(reconSettingsSchema.shape)
  // The worker's fee schedule: stamped_trade_derivation re-derives an unpinned trade's broker cost with it.
  .extend(feeScheduleConfigSchema.shape)
  .extend(upstreamConfigSchema.shape)
  .extend({
    /** Master switch of the scheduler, on both books. */
    RECON_SCHEDULE_ENABLED: flagSetting(true),
    /** The India book's own switch: its scheduler runs only when both are true. */
    INDIA_RECON_ENABLED: flagSetting(false),
    RECON_INTERVAL_SECONDS: seconds(3_600),
    RECON_EXTERNAL_INTERVAL_SECONDS: seconds(86_400),
    RECON_SCHEDULE_INITIAL_DELAY_SECONDS: seconds(60, 0),
    INDIA_RECON_INTERVAL_SECONDS: seconds(3_600),
  });

export interface ReconConfig extends CommonConfig {
  /** The checks' settings: tolerances, variance persistence, the drift alert's target. */
  recon: ReconSettings;
  /** The book's upstream clients, which category C reads live; null where not configured. */
  upstreams: UpstreamClients;
  schedule: {
    /** RECON_SCHEDULE_ENABLED, and on the India book INDIA_RECON_ENABLED too. */
    enabled: boolean;
    /** Categories A, B and D: RECON_INTERVAL_SECONDS (UAE) or INDIA_RECON_INTERVAL_SECONDS (India). */
    intervalSeconds: number;
    /** Category C (live upstream calls): RECON_EXTERNAL_INTERVAL_SECONDS. */
    externalIntervalSeconds: number;
    initialDelaySeconds: number;
  };
}

/** Recon's one reader of `process.env`. Throws a ConfigError naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ReconConfig {
  const parsed = parseConfig(reconConfigSchema, env);
  const india = parsed.ENTITY_ID === 'ENTITY_IND_IFSC';
  return {
    ...commonConfigOf(parsed),
    recon: reconSettingsOf(parsed, feeScheduleOf(parsed, env)),
    upstreams: createUpstreamClients(parsed),
    schedule: {
      enabled: parsed.RECON_SCHEDULE_ENABLED && (!india || parsed.INDIA_RECON_ENABLED),
      intervalSeconds: india ? parsed.INDIA_RECON_INTERVAL_SECONDS : parsed.RECON_INTERVAL_SECONDS,
      externalIntervalSeconds: parsed.RECON_EXTERNAL_INTERVAL_SECONDS,
      initialDelaySeconds: parsed.RECON_SCHEDULE_INITIAL_DELAY_SECONDS,
    },
  };
}
