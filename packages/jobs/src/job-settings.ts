import { CUSTOMER_FEE_BPS_DEFAULT, FeeSchedule, type RecostPolicy } from '@ledger/core/posting';
import { defineJob as defineRuntimeJob, type DefineJob, type JobDeps as RuntimeJobDeps } from '@ledger/job-runtime';

/**
 * The worker's settings this package's jobs read (from its config module, never from
 * process.env): the fee schedule, and decimal strings (basis points of notional; the AED peg).
 * The job runtime is generic over them: it hands them to each job as `deps.settings`.
 */
export interface JobSettings {
  /**
   * The customer's fee, per source, on a trade that states none (`CUSTOMER_FEE_BPS`,
   * `CUSTOMER_FEE_BPS_<SOURCE>`), and the broker's cost of a trade without an itemised fee
   * (`BROKER_COST_BPS`): each trade a job posts is pinned to them.
   */
  feeSchedule: FeeSchedule;
  /** sync-remit's `fx_spread_bps` when its body gives none (`FX_SPREAD_BPS`; unset: 0, nothing accrues). */
  fxSpreadBps?: string;
  /** The customer registry provision-india reads when its body gives no `api_global_base_url` (`API_GLOBAL_BASE_URL`). */
  apiGlobalBaseUrl?: string;
  /** The AED peg, AED per USD, UAE syncs convert AED records at (`AED_PER_USD`, as the api's). */
  aedPerUsd: string;
}

/** The documented defaults (README): 22 bps customer fee from every source, 4 bps broker cost, 3.6725 AED per USD. */
export const DEFAULT_JOB_SETTINGS: JobSettings = {
  feeSchedule: new FeeSchedule(CUSTOMER_FEE_BPS_DEFAULT),
  aedPerUsd: '3.6725',
};

/** What recost runs with, whichever job runs it (for trades posted before pins). */
export const recostPolicyOf = (settings: JobSettings): RecostPolicy => ({ feeSchedule: settings.feeSchedule });

/** What this package's jobs run with: the runtime's deps, with these settings. */
export type JobDeps = RuntimeJobDeps<JobSettings>;

/** The runtime's `defineJob`, its jobs given these settings. */
export const defineJob: DefineJob<JobSettings> = defineRuntimeJob;
