import { z } from 'zod';

export const BOOKS = ['ENTITY_UAE', 'ENTITY_IND_IFSC'] as const;
export type Book = (typeof BOOKS)[number];

const POSTGRES_URL = /^postgres(ql)?:\/\//;

/** Settings every process of a book needs. */
export const commonConfigSchema = z.object({
  ENTITY_ID: z.enum(BOOKS, { message: `must be one of ${BOOKS.join(', ')}` }),
  LEDGER_DB_URL: z.string({ message: 'is required (postgres://user@host:port/database)' }).regex(POSTGRES_URL, 'must be a postgres:// URL'),
  /** The schema owner, used only to migrate at start; unset, LEDGER_DB_URL migrates (development). */
  LEDGER_MIGRATION_DB_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().regex(POSTGRES_URL, 'must be a postgres:// URL').optional(),
  ),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'debug']).default('info'),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
});
/** The common settings as the environment spells them; apps read `CommonConfig` instead. */
export type CommonEnv = z.infer<typeof commonConfigSchema>;
export type LogLevel = CommonEnv['LOG_LEVEL'];

/** The settings every process of a book has, named as code names things (camelCase, units last). */
export interface CommonConfig {
  book: Book;
  /** `LEDGER_DB_URL`: the connection the process runs with. */
  dbUrl: string;
  /** `LEDGER_MIGRATION_DB_URL`: the schema owner's, used only to migrate at start (production); see openLedgerDatabase. */
  migrationDbUrl: string | undefined;
  dbPoolMax: number;
  logLevel: LogLevel;
}

/**
 * The common part of an app's parsed environment, in the apps' config naming. Each app's
 * `loadConfig` spreads this and adds its own fields, so the mapping lives here once.
 */
export function commonConfigOf(parsed: CommonEnv): CommonConfig {
  return {
    book: parsed.ENTITY_ID,
    dbUrl: parsed.LEDGER_DB_URL,
    migrationDbUrl: parsed.LEDGER_MIGRATION_DB_URL,
    dbPoolMax: parsed.DB_POOL_MAX,
    logLevel: parsed.LOG_LEVEL,
  };
}

/** Redis of the job queues: the api (producer) and the worker of a book must agree on both. */
export const redisConfigSchema = z.object({
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').default('redis://127.0.0.1:6379'),
  /** BullMQ's key prefix (its own default, `bull`); tests set a unique one so they never see anyone else's jobs. */
  QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, "-" or "_"').default('bull'),
});

/** The queue settings of a parsed config, as the apps name them. */
export function queueConfigOf(parsed: z.infer<typeof redisConfigSchema>): { redisUrl: string; queuePrefix: string } {
  return { redisUrl: parsed.REDIS_URL, queuePrefix: parsed.QUEUE_PREFIX };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses the environment once, at start, into a typed object. A bad or missing setting is one
 * line naming the variable, e.g. `ENTITY_ID must be one of ENTITY_UAE, ENTITY_IND_IFSC`.
 */
export function parseConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
  throw new ConfigError(`configuration error: ${problems.join('; ')}`);
}
