import {
  matchRemittancesToWires,
  TIE_OUT_STATUSES,
  type FundingWire,
  type RemittanceTieOut,
  type RemittanceToWire,
  type WireTieOut,
} from '@ledger/reconciliation';
import { countBy, sum, cents, type IndiaCustomer, type LiveRead } from './live.js';

export const RECON_CUSTOMER_STATUSES = ['compared', 'no_link', 'error'] as const;

export interface ReconciliationInput {
  customer: IndiaCustomer;
  remittances: readonly RemittanceToWire[];
  /** The broker's wires into the customer's account; null when the customer has no broker account. */
  wires: LiveRead<readonly FundingWire[]> | null;
}

/**
 * GET /v1/india/reconciliation: the LRS-to-broker tie-out by the matcher `lrs_usbroker_tie_out`
 * decides with (`matchRemittancesToWires`, @ledger/reconciliation), per customer, per paid
 * remittance (`matched`, `in_transit`, `aged_in_transit`: the check's variances) and per
 * completed wire in (the orders it carries, or `unmatched_funding`). A customer without a broker
 * account is `no_link`, one whose wires could not be read `error` with the message; their
 * remittances are counted, not matched.
 */
export function reconciliation(inputs: readonly ReconciliationInput[], windowDays: number, asOf: string) {
  const remittances: RemittanceTieOut[] = [];
  const wires: Array<WireTieOut & { customer_id: string }> = [];
  const customers = [];
  for (const { customer, remittances: mine, wires: read } of inputs) {
    const base = {
      customer_id: customer.customer_id,
      account_no: customer.account_no,
      remittances: mine.length,
      remitted_usd: cents(sum(mine.map((r) => r.amount_usd))),
    };
    if (read === null || read.error !== undefined) {
      customers.push({
        ...base,
        status: read === null ? ('no_link' as const) : ('error' as const),
        error: read?.error ?? null,
        wired_usd: null,
        matched_usd: null,
        counts: countBy(TIE_OUT_STATUSES, []),
      });
      continue;
    }
    const tied = matchRemittancesToWires(mine, read.value, { windowDays, asOf });
    remittances.push(...tied.remittances);
    wires.push(...tied.wires.map((w) => ({ ...w, customer_id: customer.customer_id })));
    customers.push({
      ...base,
      status: 'compared' as const,
      error: null,
      wired_usd: cents(tied.wired_usd),
      matched_usd: cents(sum(tied.remittances.filter((r) => r.status === 'matched').map((r) => r.amount_usd))),
      counts: countBy(TIE_OUT_STATUSES, [
        ...tied.remittances,
        ...tied.wires.filter((w) => w.status === 'unmatched_funding'),
      ]),
    });
  }
  const unmatched = wires.filter((w) => w.status === 'unmatched_funding');
  return {
    window_days: windowDays,
    as_of: asOf,
    totals: {
      customers: countBy(RECON_CUSTOMER_STATUSES, customers),
      remittances: countBy(TIE_OUT_STATUSES, [...remittances, ...unmatched]),
      remitted_usd: cents(sum(customers.map((c) => c.remitted_usd))),
      matched_usd: cents(sum(customers.map((c) => c.matched_usd ?? '0'))),
    },
    customers,
    remittances,
    wires,
    unmatched_funding: unmatched.map(({ transfer_id, customer_id, amount_usd, value_date, status }) => ({
      transfer_id,
      customer_id,
      amount_usd,
      value_date,
      status,
    })),
  };
}
