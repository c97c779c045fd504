import { z } from 'zod';
import { BROKER_COST_BPS_DEFAULT, CUSTOMER_FEE_BPS_DEFAULT, FeeSchedule } from '../domain/fees.js';
import { Decimal, DECIMAL_PATTERN_SOURCE } from '../domain/money.js';
import { ENTERABLE_SOURCES, type EnterableSource } from '../domain/sources.js';

export const BOOKS = ['ENTITY_UAE', 'ENTITY_IND_IFSC'] as const;
export type Book = (typeof BOOKS)[number];

/** The month a book's financial year starts in, unless FISCAL_YEAR_START_MONTH says otherwise: April in India, January in the UAE. */
export const FISCAL_YEAR_START_MONTH_DEFAULT: Readonly<Record<Book, number>> = { ENTITY_IND_IFSC: 4, ENTITY_UAE: 1 };

const POSTGRES_URL = /^postgres(ql)?:\/\//;

/** Settings every process of a book needs. */
export const commonConfigSchema = z.object({
  ENTITY_ID: z.enum(BOOKS, { message: `must be one of ${BOOKS.join(', ')}` }),
  LEDGER_DB_URL: z
    .string({ message: 'is required (postgres://user@host:port/database)' })
    .regex(POSTGRES_URL, 'must be a postgres:// URL'),
  /** The schema owner, used only to migrate at start; unset, LEDGER_DB_URL migrates (development). */
  LEDGER_MIGRATION_DB_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().regex(POSTGRES_URL, 'must be a postgres:// URL').optional(),
  ),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'debug']).default('info'),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /** The operations listener: /metrics, /health/live, /health/ready without a token (ADR 0012); unset: none. */
  OPS_PORT: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number().int().min(0).max(65_535).optional(),
  ),
  /**
   * The address the operations listener binds. It answers without a token, so loopback unless
   * the platform opens it (infra/: 0.0.0.0 behind a NetworkPolicy that admits only the scraper).
   */
  OPS_HOST: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .union([z.ipv4(), z.ipv6()], { message: 'must be an IP address (e.g. 127.0.0.1, 0.0.0.0, ::)' })
      .default('127.0.0.1'),
  ),
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
  /** `OPS_PORT`: where /metrics and the health checks are served to the platform; undefined: not served. */
  opsPort: number | undefined;
  /** `OPS_HOST`: the address the operations listener binds; 127.0.0.1 unless set. */
  opsHost: string;
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
    opsPort: parsed.OPS_PORT,
    opsHost: parsed.OPS_HOST,
  };
}

/** Redis of the job queues: the api (producer) and the worker of a book must agree on both. */
export const redisConfigSchema = z.object({
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .default('redis://127.0.0.1:6379'),
  /** BullMQ's key prefix (its own default, `bull`); tests set a unique one so they never see anyone else's jobs. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, "-" or "_"')
    .default('bull'),
});

/** The queue settings of a parsed config, as the apps name them. */
export function queueConfigOf(parsed: z.infer<typeof redisConfigSchema>): { redisUrl: string; queuePrefix: string } {
  return { redisUrl: parsed.REDIS_URL, queuePrefix: parsed.QUEUE_PREFIX };
}

/** A true/false switch: exactly `true` or `false`, else the process stops naming it. */
export const flagSetting = (fallback: boolean) =>
  z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true');

/** A setting in basis points of notional: a decimal string, no sign. */
export const bpsSetting = (example: string) =>
  z.string().regex(new RegExp(DECIMAL_PATTERN_SOURCE), `must be a decimal string of basis points like "${example}"`);

type FeeSourceVariable = `CUSTOMER_FEE_BPS_${Uppercase<EnterableSource>}`;
const FEE_SOURCE_PREFIX = 'CUSTOMER_FEE_BPS_';
const feeSourceVariable = (source: EnterableSource) =>
  `${FEE_SOURCE_PREFIX}${source.toUpperCase()}` as FeeSourceVariable;

/**
 * The fee schedule (contract: Recost): the customer's fee, "default 22 bps of notional, per
 * source", `CUSTOMER_FEE_BPS`, the default, and `CUSTOMER_FEE_BPS_<SOURCE>` for a source of its
 * own (SOURCE one of ENTERABLE_SOURCES, upper case); and the broker's cost, `BROKER_COST_BPS`. The
 * api and the worker read it alike: every trade is pinned to it when it is posted.
 */
export const feeScheduleConfigSchema = z.object({
  CUSTOMER_FEE_BPS: bpsSetting('22').default(CUSTOMER_FEE_BPS_DEFAULT.toFixed()),
  BROKER_COST_BPS: bpsSetting('4').default(BROKER_COST_BPS_DEFAULT.toFixed()),
  ...(Object.fromEntries(
    ENTERABLE_SOURCES.map((source) => [feeSourceVariable(source), bpsSetting('22').optional()]),
  ) as Record<FeeSourceVariable, z.ZodOptional<ReturnType<typeof bpsSetting>>>),
});

/**
 * The fee schedule of a parsed config. `env` is the environment it was parsed from: a
 * `CUSTOMER_FEE_BPS_<SOURCE>` naming no source (a typo) is refused, not silently left at the default.
 */
export function feeScheduleOf(parsed: z.infer<typeof feeScheduleConfigSchema>, env: NodeJS.ProcessEnv): FeeSchedule {
  const known = new Set<string>(ENTERABLE_SOURCES.map(feeSourceVariable));
  const unknown = Object.keys(env).filter((name) => name.startsWith(FEE_SOURCE_PREFIX) && !known.has(name));
  if (unknown.length > 0) {
    throw new ConfigError(
      `configuration error: ${unknown.map((name) => `${name} names no source (one of ${[...known].join(', ')})`).join('; ')}`,
    );
  }
  const bySource: Partial<Record<EnterableSource, Decimal>> = {};
  for (const source of ENTERABLE_SOURCES) {
    const bps = parsed[feeSourceVariable(source)];
    if (bps !== undefined) bySource[source] = new Decimal(bps);
  }
  return new FeeSchedule(new Decimal(parsed.CUSTOMER_FEE_BPS), bySource, new Decimal(parsed.BROKER_COST_BPS));
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
