import type { UsbrokerAccount } from '@ledger/upstream-clients';
import { countBy, type IndiaCustomer, type LiveRead } from './live.js';

export const COMPLIANCE_STATUSES = ['active', 'trading_halted', 'inactive', 'no_link', 'error'] as const;
type ComplianceStatus = (typeof COMPLIANCE_STATUSES)[number];

/** A PAN's LRS use in the FY (GET /v1/india/lrs has the detail). */
export interface PanLrsUse {
  fy: string;
  remitted_usd: string;
  declared_prior_usd: string;
  lrs_used_share: string;
  lrs_headroom_usd: string;
  status: 'ok' | 'warn' | 'breach';
}

export interface ComplianceInput {
  customer: IndiaCustomer;
  /** The customer's PAN's LRS use this FY; null without a PAN. */
  lrs: PanLrsUse | null;
  /** The broker's account; null when the customer has no broker account. */
  account: LiveRead<UsbrokerAccount> | null;
}

/** GET /v1/india/compliance: each India customer's broker account status, read live, with counts per status, and their PAN's LRS use. */
export function compliance(inputs: readonly ComplianceInput[]) {
  const customers = inputs.map(({ customer, account, lrs }) => {
    const status: ComplianceStatus =
      account === null ? 'no_link' : account.error !== undefined ? 'error' : account.value.status;
    return {
      customer_id: customer.customer_id,
      account_no: customer.account_no,
      pan: customer.pan,
      status,
      error: account?.error ?? null,
      lrs,
    };
  });
  return { totals: countBy(COMPLIANCE_STATUSES, customers), customers };
}
