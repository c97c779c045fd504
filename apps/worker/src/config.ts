import { commonConfigOf, commonConfigSchema, ConfigError, parseConfig, redisConfigSchema, type CommonConfig } from '@ledger/core';
import { DEFAULT_QUEUE_PREFIX } from './queues.js';

const workerConfigSchema = commonConfigSchema.extend(redisConfigSchema.shape);
const QUEUE_PREFIX_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface WorkerConfig extends CommonConfig {
  redisUrl: string;
  /**
   * BullMQ key prefix in Redis. The api (producer) and the worker of a book must agree on it;
   * tests set a unique one per run so they never see anyone else's jobs.
   */
  queuePrefix: string;
}

/** The worker's one reader of `process.env`. Throws a ConfigError naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const parsed = parseConfig(workerConfigSchema, env);
  const queuePrefix = env.QUEUE_PREFIX ?? DEFAULT_QUEUE_PREFIX;
  if (!QUEUE_PREFIX_PATTERN.test(queuePrefix)) {
    throw new ConfigError('configuration error: QUEUE_PREFIX must be 1-64 letters, digits, "-" or "_"');
  }
  return { ...commonConfigOf(parsed), redisUrl: parsed.REDIS_URL, queuePrefix };
}
