import { Decimal, formatDecimal, roundToCents, ZERO } from '@ledger/core/posting';

/*
 * The LRS-to-broker tie-out (docs/reconciliation.md, Matchers): which funding wires into a
 * customer's broker account carried which of their paid remittances. `lrs_usbroker_tie_out`
 * decides with it and `GET /v1/india/reconciliation` shows it, from the same data
 * (`paidRemittancesToWire` and usbroker's wires). Its one setting is the window,
 * RECON_TIE_OUT_DAY_WINDOW.
 */

export const REMITTANCE_TIE_OUT_STATUSES = ['matched', 'in_transit', 'aged_in_transit'] as const;
export const WIRE_TIE_OUT_STATUSES = ['matched', 'unmatched_funding'] as const;
/** Every status of the tie-out, the remittances' and the wires' (what the report and the check count). */
export const TIE_OUT_STATUSES = ['matched', 'in_transit', 'aged_in_transit', 'unmatched_funding'] as const;
export type RemittanceTieOutStatus = (typeof REMITTANCE_TIE_OUT_STATUSES)[number];
export type WireTieOutStatus = (typeof WIRE_TIE_OUT_STATUSES)[number];
export type TieOutStatus = (typeof TIE_OUT_STATUSES)[number];

/** A paid remittance, as the tie-out takes it. */
export interface RemittanceToWire {
  order_id: string;
  customer_id: string;
  /** The order's USD: its quote's `to.amount`, never a settlement's (one settlement may batch several orders). */
  amount_usd: string;
  /** Its paid payment's `created_at` date in IST, else the order's: the date the LRS report gives it. */
  remitted_on: string;
  /** The day (IST) remit settled the FX spread with the platform; null while it has not. */
  settled_on: string | null;
}

/** A funding wire as usbroker lists it (only completed ones in carry money). */
export interface FundingWire {
  transfer_id: string;
  direction: string;
  amount: string;
  status: string;
  value_date: string;
}

/** A wire that carried no remittance, as a remittance's tie-out names it. */
export interface UnmatchedWire {
  transfer_id: string;
  amount_usd: string;
  value_date: string;
}

export interface RemittanceTieOut {
  order_id: string;
  customer_id: string;
  amount_usd: string;
  remitted_on: string;
  settled_on: string | null;
  status: RemittanceTieOutStatus;
  /** The last value date a wire carrying it may have. */
  window_ends_on: string;
  /** The wire that carried it; null when none did. */
  transfer_id: string | null;
  wire_value_date: string | null;
  /** Days from `remitted_on` to the wire's value date, or to `as_of` when no wire carried it. */
  days: number;
  /** Not matched: the wires valued in its window that carried nothing (the ones to look at); empty when matched. */
  unmatched_wires: UnmatchedWire[];
}

export interface WireTieOut {
  transfer_id: string;
  amount_usd: string;
  value_date: string;
  status: WireTieOutStatus;
  /** Every order the wire carries, oldest first; none when `unmatched_funding`. */
  order_ids: string[];
}

export interface WireMatch {
  remittances: RemittanceTieOut[];
  /** The completed wires in, by value date. */
  wires: WireTieOut[];
  /** Σ the completed wires in. */
  wired_usd: Decimal;
}

/**
 * How many steps (a candidate tried) one wire's subset search may take before the wire is taken
 * as carrying none. With the pruning below, a window's candidates are searched whole up to about
 * 14 of them (2^14 subsets); a customer's paid remittances in one window are a handful. Past the
 * bound the answer errs one way only: the wire shows `unmatched_funding` and its remittances
 * `in_transit`/`aged_in_transit`, a false alarm, never a false match.
 */
export const SUBSET_SEARCH_STEPS_MAX = 20_000;

/** The day a tie-out's ages are measured to: `now`'s date (UTC), the check's and the report's alike. */
export const asOfDate = (now: Date) => now.toISOString().slice(0, 10);

const DAY_MS = 86_400_000;
/** `YYYY-MM-DD` plus `days`. */
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const daysFrom = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
const cents = (amount: Decimal | string) => formatDecimal(roundToCents(new Decimal(amount)));

/**
 * The last value date of a wire that may carry `r`: `windowDays` after the later of its date and
 * its settlement's. The wire may arrive before remit settles the FX spread with the platform (the
 * two are separate payments), or after it; a remittance not settled yet has no end before
 * `asOf` + `windowDays` (its settlement is still to come), so it is never aged while unsettled
 * (pending_flow_age ages that).
 */
function windowEndOf(r: RemittanceToWire, windowDays: number, asOf: string): string {
  const settled = r.settled_on ?? asOf;
  return addDays(settled > r.remitted_on ? settled : r.remitted_on, windowDays);
}

/**
 * Matches ONE customer's paid remittances to the funding wires into their broker account. A wire
 * names no remittance and may carry several of the customer's (upstreams: usbroker), so each
 * completed wire in, earliest value date first, carries the subset of the still unmatched
 * remittances whose window holds its value date (dated on or before it, `windowEndOf` on or
 * after it) and whose USD adds up exactly to its amount: the first such subset with the
 * remittances oldest first (`subsetAddingUpTo`). A wire that carries none is
 * `unmatched_funding`: the customer's own funding (wires that come from no remittance look the
 * same: only the sums tell them apart), or a wire that should have carried a remittance and does
 * not add up to it; the remittance then names it. A remittance no wire carried is `in_transit`
 * through its window's end, `aged_in_transit` after. Pure: the same data gives the same answer.
 */
export function matchRemittancesToWires(
  remittances: readonly RemittanceToWire[],
  wires: readonly FundingWire[],
  settings: { windowDays: number; asOf: string },
): WireMatch {
  const { windowDays, asOf } = settings;
  const dated = [...remittances]
    .sort((a, b) => a.remitted_on.localeCompare(b.remitted_on) || a.order_id.localeCompare(b.order_id))
    .map((r) => ({ ...r, window_ends_on: windowEndOf(r, windowDays, asOf) }));
  const completed = wires
    .filter((w) => w.direction === 'IN' && w.status === 'completed')
    .sort((a, b) => a.value_date.localeCompare(b.value_date) || a.transfer_id.localeCompare(b.transfer_id));
  const carriedBy = new Map<string, FundingWire>();
  const tiedWires = completed.map((wire): WireTieOut => {
    const candidates = dated.filter(
      (r) => !carriedBy.has(r.order_id) && r.remitted_on <= wire.value_date && wire.value_date <= r.window_ends_on,
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
  const unmatchedWires = tiedWires.filter((w) => w.status === 'unmatched_funding');
  const tied = dated.map((r): RemittanceTieOut => {
    const wire = carriedBy.get(r.order_id);
    return {
      order_id: r.order_id,
      customer_id: r.customer_id,
      amount_usd: cents(r.amount_usd),
      remitted_on: r.remitted_on,
      settled_on: r.settled_on,
      status: wire !== undefined ? 'matched' : asOf <= r.window_ends_on ? 'in_transit' : 'aged_in_transit',
      window_ends_on: r.window_ends_on,
      transfer_id: wire?.transfer_id ?? null,
      wire_value_date: wire?.value_date ?? null,
      days: daysFrom(r.remitted_on, wire?.value_date ?? asOf),
      unmatched_wires:
        wire !== undefined
          ? []
          : unmatchedWires
              .filter((w) => r.remitted_on <= w.value_date && w.value_date <= r.window_ends_on)
              .map(({ transfer_id, amount_usd, value_date }) => ({ transfer_id, amount_usd, value_date })),
    };
  });
  return {
    remittances: tied,
    wires: tiedWires,
    wired_usd: completed.reduce((sum, w) => sum.plus(w.amount), ZERO),
  };
}

/**
 * The first subset of `candidates` (in their order: earlier ones taken first) whose amounts add up
 * to `amount` exactly, or null: a depth-first search that skips a candidate larger than what is
 * left and gives up a branch once the candidates after it cannot reach it (every amount is
 * positive), stopped after `stepsMax` candidates tried (SUBSET_SEARCH_STEPS_MAX).
 */
export function subsetAddingUpTo<T extends { amount_usd: string }>(
  candidates: readonly T[],
  amount: Decimal,
  stepsMax = SUBSET_SEARCH_STEPS_MAX,
): T[] | null {
  if (!amount.isGreaterThan(0)) return null;
  const amounts = candidates.map((c) => new Decimal(c.amount_usd));
  // What the candidates from index i on add up to.
  const rest: Decimal[] = new Array<Decimal>(amounts.length + 1).fill(ZERO);
  for (let i = amounts.length - 1; i >= 0; i -= 1) rest[i] = rest[i + 1]!.plus(amounts[i]!);
  let steps = 0;
  const chosen: number[] = [];
  const search = (from: number, left: Decimal): boolean => {
    if (left.isZero()) return true;
    if (rest[from]!.isLessThan(left)) return false;
    for (let i = from; i < amounts.length; i += 1) {
      if (++steps > stepsMax) return false;
      if (amounts[i]!.isGreaterThan(left)) continue;
      chosen.push(i);
      if (search(i + 1, left.minus(amounts[i]!))) return true;
      chosen.pop();
    }
    return false;
  };
  return search(0, amount) ? chosen.map((i) => candidates[i]!) : null;
}
