import { addMonths, firstDayOf, isIsoMonth, lastDayOf } from './dates.js';

/**
 * The sandbox data set's config and the facts derived from it alone, shared by the UAE
 * generator (generate.ts) and the India one (india.ts, india-views.ts) so neither imports the other.
 */

export interface SandboxDataConfig {
  /** Any integer: the same seed gives the same data. */
  seed: number;
  customers: number;
  /** Cash transfers + orders per customer. */
  recordsPerCustomer: number;
  /** First month with activity, `YYYY-MM`. */
  startMonth: string;
  /** Months of activity from `startMonth`. */
  months: number;
  /**
   * One customer per book (the `PLANTED_MISMATCH_CUSTOMER`-th, or the last) whose upstream
   * holdings show one share more than its records: the quickstart's planted reconciliation
   * variance. Absent or false: every answer agrees with the records.
   */
  plantedMismatch?: boolean;
  /**
   * One UAE customer (the `PLANTED_EXCEPTION_CUSTOMER`-th, or the last) whose uaefeed transfers
   * end with a completed deposit into a EUR cash account, a currency uaefeed may offer and the
   * book does not keep: sync-uaefeed refuses it (`unsupported_currency`) into an exception, the
   * quickstart's exception to look at. It moves none of the sandbox's own balances (statements,
   * holdings and the custodian know only AED and USD). Absent or false: none.
   */
  plantedException?: boolean;
}

export const DEFAULT_DATA_CONFIG: SandboxDataConfig = {
  seed: 42,
  customers: 20,
  recordsPerCustomer: 24,
  startMonth: '2026-01',
  months: 6,
};

export const DATA_LIMITS = { customersMax: 100_000, recordsPerCustomerMax: 10_000, monthsMax: 120 } as const;

export const PLANTED_MISMATCH_CUSTOMER = 7;

/** Whether the customer of this 1-based index is the planted one of its book. */
export function isPlantedMismatch(config: SandboxDataConfig, index: number): boolean {
  return config.plantedMismatch === true && index === Math.min(PLANTED_MISMATCH_CUSTOMER, config.customers);
}

export const PLANTED_EXCEPTION_CUSTOMER = 4;

/** Whether the customer of this 1-based index carries the planted EUR deposit. */
export function isPlantedException(config: SandboxDataConfig, index: number): boolean {
  return config.plantedException === true && index === Math.min(PLANTED_EXCEPTION_CUSTOMER, config.customers);
}

/** Checks a config; the error names the first field out of range. */
export function dataConfig(partial: Partial<SandboxDataConfig> = {}): SandboxDataConfig {
  const config = { ...DEFAULT_DATA_CONFIG, ...partial };
  const integerIn = (name: keyof SandboxDataConfig, min: number, max: number) => {
    const value = config[name];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new RangeError(`sandbox: ${name} must be an integer from ${min} to ${max}`);
    }
  };
  integerIn('seed', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  integerIn('customers', 1, DATA_LIMITS.customersMax);
  integerIn('recordsPerCustomer', 1, DATA_LIMITS.recordsPerCustomerMax);
  integerIn('months', 1, DATA_LIMITS.monthsMax);
  if (!isIsoMonth(config.startMonth)) throw new RangeError('sandbox: startMonth must be YYYY-MM');
  return config;
}

/** The days with activity: the first day of `startMonth` to the last of its `months`-th month. */
export function periodOf(config: SandboxDataConfig): { from: string; to: string } {
  return { from: firstDayOf(config.startMonth), to: lastDayOf(addMonths(config.startMonth, config.months - 1)) };
}
