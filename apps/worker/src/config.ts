import { commonConfigOf, commonConfigSchema, parseConfig, queueConfigOf, redisConfigSchema, type CommonConfig } from '@ledger/core';

const workerConfigSchema = commonConfigSchema.extend(redisConfigSchema.shape);

export interface WorkerConfig extends CommonConfig {
  redisUrl: string;
  /** BullMQ key prefix in Redis: the api (producer) and the worker of a book must agree on it. */
  queuePrefix: string;
}

/** The worker's one reader of `process.env`. Throws a ConfigError naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const parsed = parseConfig(workerConfigSchema, env);
  return { ...commonConfigOf(parsed), ...queueConfigOf(parsed) };
}
