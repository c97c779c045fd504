import { Decimal, ZERO } from '@ledger/core';
import type { UsbrokerWire } from '@ledger/upstream-clients';
import { countBy, sum, cents, type IndiaCustomer, type LiveRead } from './live.js';

export const TIE_OUT_STATUSES = ['matched', 'in_transit', 'aged_in_transit', 'unmatched_funding'] as const;
type TieOutStatus = (typeof TIE_OUT_STATUSES)[number];
export const RECON_CUSTOMER_STATUSES = ['compared', 'no_link', 'error'] as const;

/** A paid remittance as the ledger holds it: the USD that should reach the broker, and the day it left remit. */
export interface RemittanceToWire {
  order_id: string;
  customer_id: string;
  /** The settlement's USD, else the order's. */
  amount_usd: string;
  /** The day it settled (UTC), else the day it was paid. */
  sent_on: string;
}

export interface ReconciliationInput {
  customer: IndiaCustomer;
  remittances: readonly RemittanceToWire[];
  /** The broker's wires into the customer's account; null when the customer has no broker account. */
  wires: LiveRead<readonly UsbrokerWire[]> | null;
}

const DAY_MS = 86_400_000;
const daysFrom = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/**
 * Matches one customer's remittances to the funding wires completed into their account. A wire
 * names no remittance and may carry several, so it takes a run of consecutive unmatched
 * remittances (in the order they were sent) sent at most `windowDays` before its value date
 * (and not after it) whose USD adds up to its amount exactly; the earliest such run wins. A
 * wire that takes none is `unmatched_funding` (the customer's own money, or a mistake). A
 * remittance no wire took is `in_transit` while `windowDays` have not passed since it was sent
 * (up to `today`), `aged_in_transit` after.
 */
export function matchWires(
  remittances: readonly RemittanceToWire[],
  wires: readonly UsbrokerWire[],
  windowDays: number,
  today: string,
) {
  const sent = [...remittances].sort(
    (a, b) => a.sent_on.localeCompare(b.sent_on) || a.order_id.localeCompare(b.order_id),
  );
  const carriedBy = new Map<string, UsbrokerWire>();
  const unmatched: UsbrokerWire[] = [];
  const completed = wires
    .filter((w) => w.direction === 'IN' && w.status === 'completed')
    .sort((a, b) => a.value_date.localeCompare(b.value_date) || a.transfer_id.localeCompare(b.transfer_id));
  for (const wire of completed) {
    const candidates = sent.filter(
      (r) =>
        !carriedBy.has(r.order_id) &&
        r.sent_on <= wire.value_date &&
        daysFrom(r.sent_on, wire.value_date) <= windowDays,
    );
    const run = firstRunAddingUpTo(candidates, new Decimal(wire.amount));
    if (run === null) unmatched.push(wire);
    else for (const r of run) carriedBy.set(r.order_id, wire);
  }
  const items = sent.map((r) => {
    const wire = carriedBy.get(r.order_id);
    const days = daysFrom(r.sent_on, wire?.value_date ?? today);
    const status: TieOutStatus = wire !== undefined ? 'matched' : days <= windowDays ? 'in_transit' : 'aged_in_transit';
    return {
      order_id: r.order_id,
      customer_id: r.customer_id,
      amount_usd: cents(r.amount_usd),
      sent_on: r.sent_on,
      status,
      transfer_id: wire?.transfer_id ?? null,
      wire_value_date: wire?.value_date ?? null,
      days,
    };
  });
  return { remittances: items, unmatchedWires: unmatched, wiredUsd: sum(completed.map((w) => w.amount)) };
}

function firstRunAddingUpTo<T extends { amount_usd: string }>(candidates: readonly T[], amount: Decimal): T[] | null {
  for (let start = 0; start < candidates.length; start += 1) {
    let total = ZERO;
    for (let end = start; end < candidates.length; end += 1) {
      total = total.plus(candidates[end]!.amount_usd);
      if (total.isEqualTo(amount)) return candidates.slice(start, end + 1);
      if (total.isGreaterThan(amount)) break;
    }
  }
  return null;
}

/**
 * GET /v1/india/reconciliation: the LRS-to-broker tie-out, per customer and per remittance
 * (`matched`, `in_transit`, `aged_in_transit`) and per wire that carried none
 * (`unmatched_funding`). A customer without a broker account is `no_link`, one whose wires
 * could not be read `error` with the message; their remittances are counted, not matched.
 */
export function reconciliation(inputs: readonly ReconciliationInput[], windowDays: number, today: string) {
  const remittances = [];
  const funding = [];
  const customers = [];
  for (const { customer, remittances: mine, wires } of inputs) {
    const remitted = cents(sum(mine.map((r) => r.amount_usd)));
    const base = {
      customer_id: customer.customer_id,
      account_no: customer.account_no,
      remittances: mine.length,
      remitted_usd: remitted,
    };
    if (wires === null || wires.error !== undefined) {
      customers.push({
        ...base,
        status: wires === null ? ('no_link' as const) : ('error' as const),
        error: wires?.error ?? null,
        wired_usd: null,
        matched_usd: null,
        counts: countBy(TIE_OUT_STATUSES, []),
      });
      continue;
    }
    const matched = matchWires(mine, wires.value, windowDays, today);
    const unmatched = matched.unmatchedWires.map((w) => ({
      transfer_id: w.transfer_id,
      customer_id: customer.customer_id,
      amount_usd: cents(w.amount),
      value_date: w.value_date,
      status: 'unmatched_funding' as const,
    }));
    remittances.push(...matched.remittances);
    funding.push(...unmatched);
    customers.push({
      ...base,
      status: 'compared' as const,
      error: null,
      wired_usd: cents(matched.wiredUsd),
      matched_usd: cents(sum(matched.remittances.filter((r) => r.status === 'matched').map((r) => r.amount_usd))),
      counts: countBy(TIE_OUT_STATUSES, [...matched.remittances, ...unmatched]),
    });
  }
  return {
    window_days: windowDays,
    as_of: today,
    totals: {
      customers: countBy(RECON_CUSTOMER_STATUSES, customers),
      remittances: countBy(TIE_OUT_STATUSES, [...remittances, ...funding]),
      remitted_usd: cents(sum(customers.map((c) => c.remitted_usd))),
      matched_usd: cents(sum(customers.map((c) => c.matched_usd ?? '0'))),
    },
    customers,
    remittances,
    unmatched_funding: funding,
  };
}
