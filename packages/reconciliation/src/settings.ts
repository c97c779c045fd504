import { CUSTOMER_FEE_BPS_DEFAULT, Decimal, DECIMAL_PATTERN_SOURCE, FeeSchedule } from '@ledger/core/posting';
import { flagSetting } from '@ledger/core/runtime';
import { z } from 'zod';
const decimal = (fallback: string) =>
  z.string().regex(new RegExp(DECIMAL_PATTERN_SOURCE), `must be a decimal string like "${fallback}"`).default(fallback);
const hours = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(fallback);

/**
 * The checks' settings (README, Environment): whether variances are also kept one row each, how
 * many a check keeps, and the tolerances. Read by every process that runs checks (recon, and the
 * api's `POST /v1/reconciliation/run`), each in its own config.ts, from this one schema.
 */
export const reconSettingsSchema = z.object({
  /** Unset (or empty): no drift alerts. */
  ALERT_WEBHOOK_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
  ),
  ALERT_PERSIST_ENABLED: flagSetting(true),
  RECON_VARIANCES_PER_CHECK_MAX: z.coerce.number().int().min(1).max(100_000).default(1_000),
  RECON_MONEY_TOLERANCE_USD: decimal('0'),
  RECON_QUANTITY_TOLERANCE: decimal('0'),
  RECON_PENDING_CASH_REQUEST_MAX_HOURS: hours(72),
  RECON_REMITTANCE_IN_TRANSIT_MAX_HOURS: hours(120),
  RECON_FX_RECEIVABLE_MAX_HOURS: hours(120),
  RECON_PENDING_RECOST_MAX_HOURS: hours(24),
  RECON_OPEN_EXCEPTION_MAX_HOURS: hours(72),
  RECON_TIE_OUT_DAY_WINDOW: z.coerce.number().int().min(0).max(31).default(3),
  RECON_INCREMENTAL_ENABLED: flagSetting(true),
  RECON_FULL_SWEEP_HOURS: hours(24),
  /** The AED peg (the api's and worker's AED_PER_USD): AED wallet lines posted without their AED amount are read at it. */
  AED_PER_USD: decimal('3.6725').refine(
    (value) => !new RegExp(DECIMAL_PATTERN_SOURCE).test(value) || new Decimal(value).isGreaterThan(0),
    'must be greater than zero',
  ),
});

export interface ReconSettings {
  /** Where a `warn` or `fail` check's drift alert is POSTed; undefined: nowhere. */
  alertWebhookUrl: string | undefined;
  /** `alert_persist_enabled`: each variance is also written to reconciliation_variances. */
  alertPersistEnabled: boolean;
  /** The variances a check keeps in its run (the count in its metrics is of these). */
  variancesPerCheckMax: number;
  /** How far a derived money figure may be from the lines it summarises (USD). */
  moneyToleranceUsd: Decimal;
  /** How far a share count may be from the ledger's lots. */
  quantityTolerance: Decimal;
  /** pending_flow_age: how old each kind of pending flow may be. */
  maxAgeHours: { pendingCashRequest: number; remittanceInTransit: number; fxReceivable: number; pendingRecost: number };
  /** open_exceptions_age: how long an upstream record may stay an open exception, from its first sighting. */
  openExceptionMaxHours: number;
  /**
   * The LRS-to-broker matcher's window (`matchRemittancesToWires`: `lrs_usbroker_tie_out` and
   * `GET /v1/india/reconciliation` alike): a wire may carry a remittance from its date up to this
   * many days after the later of its date and its settlement's.
   */
  tieOutDayWindow: number;
  /**
   * Incremental runs (docs/reconciliation.md#incremental-runs): a check that sweeps the journal
   * looks only at what was posted since its last clean run, and sweeps the whole book again once
   * its last full sweep is `fullSweepEveryHours` old. Disabled: every run is a full sweep.
   */
  incremental: { enabled: boolean; fullSweepEveryHours: number };
  /**
   * AED per USD: a customer's AED wallet in AED is its lines' AED amounts, and those posted
   * without one (before 20270116) at this peg, as the customer summary reads it.
   */
  aedPerUsd: Decimal;
  /**
   * The fee schedule recost runs with (`CUSTOMER_FEE_BPS*`, `BROKER_COST_BPS`, read once by the
   * process's config with the worker's schema): a check that re-derives what recost posts for a
   * trade without pins uses it, as recost does, never the contract's default.
   */
  feeSchedule: FeeSchedule;
}

/** The checks' settings from the parsed RECON_* variables and the fee schedule the process read once. */
export function reconSettingsOf(parsed: z.infer<typeof reconSettingsSchema>, feeSchedule: FeeSchedule): ReconSettings {
  return {
    feeSchedule,
    alertWebhookUrl: parsed.ALERT_WEBHOOK_URL,
    alertPersistEnabled: parsed.ALERT_PERSIST_ENABLED,
    variancesPerCheckMax: parsed.RECON_VARIANCES_PER_CHECK_MAX,
    moneyToleranceUsd: new Decimal(parsed.RECON_MONEY_TOLERANCE_USD),
    quantityTolerance: new Decimal(parsed.RECON_QUANTITY_TOLERANCE),
    maxAgeHours: {
      pendingCashRequest: parsed.RECON_PENDING_CASH_REQUEST_MAX_HOURS,
      remittanceInTransit: parsed.RECON_REMITTANCE_IN_TRANSIT_MAX_HOURS,
      fxReceivable: parsed.RECON_FX_RECEIVABLE_MAX_HOURS,
      pendingRecost: parsed.RECON_PENDING_RECOST_MAX_HOURS,
    },
    openExceptionMaxHours: parsed.RECON_OPEN_EXCEPTION_MAX_HOURS,
    tieOutDayWindow: parsed.RECON_TIE_OUT_DAY_WINDOW,
    incremental: { enabled: parsed.RECON_INCREMENTAL_ENABLED, fullSweepEveryHours: parsed.RECON_FULL_SWEEP_HOURS },
    aedPerUsd: new Decimal(parsed.AED_PER_USD),
  };
}

/** The defaults, as a process given no RECON_* variable runs. */
export const DEFAULT_RECON_SETTINGS: ReconSettings = reconSettingsOf(
  reconSettingsSchema.parse({}),
  new FeeSchedule(CUSTOMER_FEE_BPS_DEFAULT),
);

/** The defaults with every run a full sweep. */
export const FULL_SWEEP_SETTINGS: ReconSettings = {
  ...DEFAULT_RECON_SETTINGS,
  incremental: { ...DEFAULT_RECON_SETTINGS.incremental, enabled: false },
};
