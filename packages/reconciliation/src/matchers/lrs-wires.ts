import { Decimal, formatDecimal, roundToCents, ZERO } from '@ledger/core';

/**
 * The LRS-to-broker tie-out (docs/reconciliation.md, Matchers): which funding wires carried
 * which paid remittances, as `/v1/india/reconciliation` shows it and `lrs_usbroker_tie_out`
 * decides it. Its one setting is the window (`RECON_TIE_OUT_DAY_WINDOW`).
 */
export const REMITTANCE_TIE_OUT_STATUSES = ['matched', 'in_transit', 'aged_in_transit'] as const;
export const WIRE_TIE_OUT_STATUSES = ['matched', 'unmatched_funding'] as const;
/** Every status of the tie-out: the remittances' and the wires'. */
export const TIE_OUT_STATUSES = ['matched', 'in_transit', 'aged_in_transit', 'unmatched_funding'] as const;
export type RemittanceTieOutStatus = (typeof REMITTANCE_TIE_OUT_STATUSES)[number];
export type WireTieOutStatus = (typeof WIRE_TIE_OUT_STATUSES)[number];

/** A paid remittance: the order's USD (its quote's `to.amount`, never a settlement's) and its LRS date. */
export interface RemittanceToWire {
  order_id: string;
  customer_id: string;
  amount_usd: string;
  /** Its paid payment's `created_at` in IST, else the order's: the date the LRS report gives it (`remittances.remitted_on`). */
  remitted_on: string;
}

/** A broker funding wire, as usbroker lists it. */
export interface FundingWire {
  transfer_id: string;
  direction: string;
  amount: string;
  status: string;
  value_date: string;
}

export interface RemittanceTieOut {
  order_id: string;
  customer_id: string;
  amount_usd: string;
  remitted_on: string;
  status: RemittanceTieOutStatus;
  /** The wire that carried it; null when none did. */
  transfer_id: string | null;
  wire_value_date: string | null;
  /** Days from `remitted_on` to the wire's value date, or to `today` when no wire carried it. */
  days: number;
}

export interface WireTieOut {
  transfer_id: string;
  amount_usd: string;
  value_date: string;
  status: WireTieOutStatus;
  /** Every order the wire carried, oldest first; none for `unmatched_funding`. */
  order_ids: string[];
}

/**
 * How many candidates one wire's subset search may try before the wire is taken as carrying none: a bound on the search,
 * so one customer with many remittances in a window cannot stall a report or a check. A
 * customer's remittances in one window number a handful; the bound is far above what they need.
 */
export const SUBSET_SEARCH_STEPS_MAX = 100_000;

const DAY_MS = 86_400_000;
const daysFrom = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/**
 * Matches ONE customer's paid remittances to the funding wires into their broker account. A wire
 * names no remittance and may carry several, so each completed wire in (earliest value date
 * first) takes the subset of the customer's still unmatched remittances dated at most
 * `windowDays` before its value date (and not after it) whose USD adds up exactly to its amount:
 * the first such subset with the remittances in date order (the oldest preferred), found by a
 * bounded search (SUBSET_SEARCH_STEPS_MAX). A wire that takes none is `unmatched_funding`. A
 * remittance no wire took is `in_transit` while no more than `windowDays` have passed since its
 * date (up to `today`), `aged_in_transit` after. Pure: the same data gives the same answer.
 */
export function matchRemittancesToWires(
  remittances: readonly RemittanceToWire[],
  wires: readonly FundingWire[],
  settings: { windowDays: number; today: string },
): { remittances: RemittanceTieOut[]; wires: WireTieOut[]; wiredUsd: Decimal } {
  const dated = [...remittances].sort(
    (a, b) => a.remitted_on.localeCompare(b.remitted_on) || a.order_id.localeCompare(b.order_id),
  );
  const carriedBy = new Map<string, FundingWire>();
  const completed = wires
    .filter((w) => w.direction === 'IN' && w.status === 'completed')
    .sort((a, b) => a.value_date.localeCompare(b.value_date) || a.transfer_id.localeCompare(b.transfer_id));
  const tiedWires = completed.map((wire): WireTieOut => {
    const candidates = dated.filter(
      (r) =>
        !carriedBy.has(r.order_id) &&
        r.remitted_on <= wire.value_date &&
        daysFrom(r.remitted_on, wire.value_date) <= settings.windowDays,
    );
    const carried = subsetAddingUpTo(candidates, new Decimal(wire.amount)) ?? [];
    for (const r of carried) carriedBy.set(r.order_id, wire);
    return {
      transfer_id: wire.transfer_id,
      amount_usd: cents(wire.amount),
      value_date: wire.value_date,
      status: carried.length === 0 ? 'unmatched_funding' : 'matched',
      order_ids: carried.map((r) => r.order_id),
    };
  });
  const tied = dated.map((r): RemittanceTieOut => {
    const wire = carriedBy.get(r.order_id);
    const days = daysFrom(r.remitted_on, wire?.value_date ?? settings.today);
    return {
      order_id: r.order_id,
      customer_id: r.customer_id,
      amount_usd: cents(r.amount_usd),
      remitted_on: r.remitted_on,
      status: wire !== undefined ? 'matched' : days <= settings.windowDays ? 'in_transit' : 'aged_in_transit',
      transfer_id: wire?.transfer_id ?? null,
      wire_value_date: wire?.value_date ?? null,
      days,
    };
  });
  return { remittances: tied, wires: tiedWires, wiredUsd: completed.reduce((s, w) => s.plus(w.amount), ZERO) };
}

const cents = (amount: Decimal | string) => formatDecimal(roundToCents(new Decimal(amount)));

/**
 * The first subset of `candidates` (in their order: earlier ones taken first) whose amounts add up
 * to `amount` exactly, or null: a depth-first search that prunes a branch once what is left
 * cannot reach the amount (every amount is positive), stopped after SUBSET_SEARCH_STEPS_MAX candidates tried.
 */
export function subsetAddingUpTo<T extends { amount_usd: string }>(
  candidates: readonly T[],
  amount: Decimal,
  stepsMax = SUBSET_SEARCH_STEPS_MAX,
): T[] | null {
  const amounts = candidates.map((c) => new Decimal(c.amount_usd));
  // What the candidates from index i on add up to: a branch that cannot reach the amount stops.
  const rest: Decimal[] = new Array(amounts.length + 1).fill(ZERO);
  for (let i = amounts.length - 1; i >= 0; i -= 1) rest[i] = rest[i + 1]!.plus(amounts[i]!);
  let steps = 0;
  const chosen: number[] = [];
  // Every amount is positive and the amount sought is too, so reaching zero means a non-empty subset.
  const search = (from: number, left: Decimal): boolean => {
    if (left.isZero()) return true;
    if (rest[from]!.isLessThan(left)) return false;
    for (let i = from; i < amounts.length; i += 1) {
      // A step is one candidate tried: once they are spent, every open branch gives up.
      if (++steps > stepsMax) return false;
      if (amounts[i]!.isGreaterThan(left)) continue;
      chosen.push(i);
      if (search(i + 1, left.minus(amounts[i]!))) return true;
      chosen.pop();
    }
    return false;
  };
  return amount.isGreaterThan(0) && search(0, amount) ? chosen.map((i) => candidates[i]!) : null;
}
