import { Decimal, type FeeSchedule } from '@ledger/core/posting';
import { bpsSetting, flagSetting } from '@ledger/core/runtime';
import { z } from 'zod';
import type { IndiaSettings } from './reports.js';

const institutionText = (max: number) => z.string().trim().min(1).max(max).optional();

/** The India reports' settings, read by the api's config module (README, Settings). */
export const indiaSettingsSchema = z.object({
  /** The assumed FX-spread markup (the worker's sync-remit accrues it): fx-margin shows it; unset: 0. */
  FX_SPREAD_BPS: bpsSetting('75').optional(),
  /** How a lot's cost converts to INR (unsettled in law): at the acquisition month's Rule 115 rate, or the transfer month's. */
  INDIA_CG_COST_RATE: z.enum(['acquisition_month', 'transfer_month']).default('acquisition_month'),
  /** Section 50AA on foreign fund units bought from 2023-04-01 (unsettled in law): not applied by default; each disposal it would change is flagged either way. */
  INDIA_SECTION_50AA: z.enum(['not_applied', 'applied']).default('not_applied'),
  /** Apply the dated rules marked unconfirmed (budget proposals), as stated by default. */
  INDIA_TCS_UNCONFIRMED_RULES: flagSetting(true),
  /** The TCS collector's TAN for Schedule TCS (remit does not give it); unset: null with a warning when TCS was collected. */
  INDIA_TCS_COLLECTOR_TAN: z
    .string()
    .regex(/^[A-Z]{4}[0-9]{5}[A-Z]$/, 'a TAN: four letters, five digits, a letter')
    .optional(),
  /** The broker's name, address and ZIP code as Schedule FA's table A2 names the institution (no upstream says them); unset: null with a warning. */
  SCHEDULE_FA_BROKER_NAME: institutionText(200),
  SCHEDULE_FA_BROKER_ADDRESS: institutionText(500),
  SCHEDULE_FA_BROKER_ZIP_CODE: institutionText(20),
  /** The broker's country: usbroker is a US broker. */
  SCHEDULE_FA_BROKER_COUNTRY: institutionText(100).default('United States of America'),
});

/**
 * The reports' settings; `feeSchedule` is the one the api read (`BROKER_COST_BPS` with the
 * worker's schema, once): broker-fees shows its broker cost as `configured`.
 */
export function indiaSettingsOf(parsed: z.output<typeof indiaSettingsSchema>, feeSchedule: FeeSchedule): IndiaSettings {
  return {
    brokerCostBps: feeSchedule.brokerCostBps,
    fxSpreadBps: new Decimal(parsed.FX_SPREAD_BPS ?? '0'),
    capitalGains: { costRate: parsed.INDIA_CG_COST_RATE, section50aa: parsed.INDIA_SECTION_50AA === 'applied' },
    unconfirmedRules: parsed.INDIA_TCS_UNCONFIRMED_RULES,
    tcsCollector: { tan: parsed.INDIA_TCS_COLLECTOR_TAN ?? null },
    brokerInstitution: {
      name: parsed.SCHEDULE_FA_BROKER_NAME ?? null,
      address: parsed.SCHEDULE_FA_BROKER_ADDRESS ?? null,
      zipCode: parsed.SCHEDULE_FA_BROKER_ZIP_CODE ?? null,
      country: parsed.SCHEDULE_FA_BROKER_COUNTRY,
    },
  };
}
