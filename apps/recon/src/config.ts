import { commonConfigOf, commonConfigSchema, parseConfig, type CommonConfig } from '@ledger/core';

/**
 * Everything recon reads from its environment, parsed once at start. The scheduler's cadence
 * settings (RECON_*, INDIA_RECON_*, ALERT_WEBHOOK_URL) join this with the checks.
 */
export type ReconConfig = CommonConfig;

/** Recon's one reader of `process.env`. Throws a ConfigError naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ReconConfig {
  return commonConfigOf(parseConfig(commonConfigSchema, env));
}
