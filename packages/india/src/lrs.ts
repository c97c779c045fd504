import { Decimal, roundToCents, ZERO } from '@ledger/core/posting';
import type { FinancialYear } from './fy.js';
import { groupBy, money, ratio } from './figures.js';
import { LRS_LIMIT_USD, LRS_WARN_SHARE, noPanRate, ruleOn, TCS_RULES, type Dated, type TcsRule } from './rules.js';

/** A paid LRS remittance of the FY, as stored (refunded later or not). */
export interface LrsRemittance {
  orderId: string;
  customerId: string;
  pan: string | null;
  remittedOn: string;
  amountInr: Decimal;
  amountUsd: Decimal | null;
  /** TCS the provider reports collected. */
  tcsInr: Decimal | null;
  /** Paid, then refunded (the payment's error code `REFUNDED`): its TCS stays the payer's credit. */
  refunded: boolean;
}

/** What a PAN declares it remitted in the FY through other banks (lrs_prior_usage). */
export interface PriorLrsUsage {
  pan: string;
  /** Counted against the LRS limit. */
  amountUsd: Decimal;
  /** Counted against the TCS threshold. */
  amountInr: Decimal;
  note: string | null;
  declaredAt: string;
  declaredBy: string;
}

export interface LrsOptions {
  /** Apply the rows marked unconfirmed (budget proposals); default true (the stated default). */
  unconfirmedRules: boolean;
}

/** Who collected the TCS, for Schedule TCS: the collector's TAN (INDIA_TCS_COLLECTOR_TAN: remit does not say it), or null. */
export interface TcsCollector {
  tan: string | null;
}

export type LrsStatus = 'ok' | 'warn' | 'breach';

/** The rule table in force, per the options. */
export const tcsRules = (options: LrsOptions): ReadonlyArray<Dated<TcsRule>> =>
  TCS_RULES.filter((r) => options.unconfirmedRules || !r.unconfirmed);

/**
 * Estimated TCS of one PAN's remittances of one FY: in date order (FIFO), each remittance's part
 * above the threshold in force on its date, at the rate in force on its date (without a PAN, the
 * no-PAN rate). INR the PAN declares it remitted elsewhere (`priorInr`) counts first: the
 * threshold is one per PAN across banks. Worked examples in test/rules.test.ts.
 */
export function estimateTcs(
  remittances: LrsRemittance[],
  rules: ReadonlyArray<Dated<TcsRule>>,
  hasPan: boolean,
  priorInr: Decimal = ZERO,
) {
  let cumulative = priorInr;
  let crossedOn: string | null = null;
  const rows = [...remittances]
    .sort((a, b) => a.remittedOn.localeCompare(b.remittedOn) || a.orderId.localeCompare(b.orderId))
    .map((r) => {
      const rule = ruleOn(rules, r.remittedOn)?.value ?? null;
      const before = cumulative;
      cumulative = cumulative.plus(r.amountInr);
      const above = rule === null ? ZERO : Decimal.max(ZERO, cumulative.minus(Decimal.max(before, rule.thresholdInr)));
      if (above.isGreaterThan(0)) crossedOn ??= r.remittedOn;
      const rate = rule === null ? ZERO : hasPan ? rule.rate : noPanRate(rule.rate);
      const estimated = roundToCents(above.times(rate));
      return {
        order_id: r.orderId,
        customer_id: r.customerId,
        remitted_on: r.remittedOn,
        amount_inr: money(r.amountInr),
        amount_usd: r.amountUsd === null ? null : money(r.amountUsd),
        cumulative_inr: money(cumulative),
        threshold_inr: rule === null ? null : money(rule.thresholdInr),
        above_threshold_inr: money(above),
        tcs_rate: ratio(rate),
        estimated_tcs_inr: money(estimated),
        actual_tcs_inr: r.tcsInr === null ? null : money(r.tcsInr),
        refunded: r.refunded,
        estimated,
      };
    });
  return { rows, crossedOn };
}

/** A PAN's LRS use in a FY (the book's remittances and what it declared elsewhere) against the limit in force. */
export function lrsUse(fy: FinancialYear, usedUsd: Decimal) {
  const limit = ruleOn(LRS_LIMIT_USD, fy.start)!.value;
  const share = usedUsd.dividedBy(limit);
  const status: LrsStatus = share.isGreaterThanOrEqualTo(1)
    ? 'breach'
    : share.isGreaterThanOrEqualTo(LRS_WARN_SHARE)
      ? 'warn'
      : 'ok';
  return { share, headroomUsd: Decimal.max(ZERO, limit.minus(usedUsd)), status };
}

/** The declaration as the reports answer it. */
export const presentPriorUsage = (p: PriorLrsUsage) => ({
  amount_usd: money(p.amountUsd),
  amount_inr: money(p.amountInr),
  note: p.note,
  declared_at: p.declaredAt,
  declared_by: p.declaredBy,
});

/**
 * LrsTaxSummary: per PAN (remittances without one: per customer), LRS use and TCS estimated
 * against collected. A PAN's declared use elsewhere (`declared`) counts against the limit and,
 * before the book's own remittances, against the TCS threshold; a PAN that declared use but
 * remitted nothing here is listed too. A remittance refunded after it was paid is no LRS use (the
 * money came back) but its TCS was collected and stays the payer's credit (Form 27D, 26AS): it
 * stays in the TCS rows, estimated and actual, marked `refunded`, and in the threshold count as
 * the collector counted it when collecting. `collector` names who collected it (Schedule TCS).
 */
export function lrsSummary(
  fy: FinancialYear,
  remittances: LrsRemittance[],
  options: LrsOptions,
  collector: TcsCollector,
  declared: readonly PriorLrsUsage[] = [],
) {
  const limit = ruleOn(LRS_LIMIT_USD, fy.start)!.value;
  const rules = tcsRules(options);
  const groups = groupBy(remittances, (r) => r.pan ?? `customer:${r.customerId}`);
  const declaredOf = new Map(declared.map((p) => [p.pan, p]));
  const warnings: string[] = [];
  const pansOnlyDeclared = declared.filter((p) => !groups.has(p.pan)).map((p) => ({ pan: p.pan, group: [] }));
  const entries = [...[...groups.values()].map((group) => ({ pan: group[0]!.pan, group })), ...pansOnlyDeclared];
  const pans = entries.map(({ pan, group }: { pan: string | null; group: LrsRemittance[] }) =>
    panLrs(fy, pan, group, { rules, prior: pan === null ? undefined : declaredOf.get(pan), warnings }),
  );
  pans.sort(
    (a, b) =>
      (a.pan ?? '~').localeCompare(b.pan ?? '~') || (a.customer_ids[0] ?? '').localeCompare(b.customer_ids[0] ?? ''),
  );
  return {
    fy: fy.label,
    lrs_limit_usd: money(limit),
    tcs_collector_tan: collector.tan,
    tcs_rules: rules.map((r) => ({
      from: r.from,
      rate: ratio(r.value.rate),
      threshold_inr: money(r.value.thresholdInr),
      unconfirmed: r.unconfirmed === true,
    })),
    pans,
    totals: lrsTotals(pans, declared),
    warnings:
      collector.tan === null && pans.some((p) => !new Decimal(p.actual_tcs_inr).isZero())
        ? [
            ...warnings,
            "the TCS collector's TAN (Schedule TCS) is unknown: remit does not give it; set INDIA_TCS_COLLECTOR_TAN",
          ]
        : warnings,
  };
}

/** One PAN's (without one: one customer's) LRS use and TCS, estimated against collected; what it cannot count goes to `warnings`. */
function panLrs(
  fy: FinancialYear,
  pan: string | null,
  group: LrsRemittance[],
  context: { rules: ReturnType<typeof tcsRules>; prior: PriorLrsUsage | undefined; warnings: string[] },
) {
  const { prior, warnings } = context;
  const { rows, crossedOn } = estimateTcs(group, context.rules, pan !== null, prior?.amountInr);
  if (pan === null)
    warnings.push(`customer ${group[0]!.customerId} remitted without a PAN: TCS estimated at the no-PAN rate`);
  const kept = group.filter((r) => !r.refunded);
  const refunded = group.filter((r) => r.refunded);
  const usd = kept.reduce((s, r) => s.plus(r.amountUsd ?? ZERO), ZERO);
  const unpriced = kept.filter((r) => r.amountUsd === null).map((r) => r.orderId);
  if (unpriced.length > 0)
    warnings.push(`remittances without a USD amount (left out of LRS use): ${unpriced.join(', ')}`);
  const use = lrsUse(fy, usd.plus(prior?.amountUsd ?? ZERO));
  const estimated = rows.reduce((s, r) => s.plus(r.estimated), ZERO);
  const actual = group.reduce((s, r) => s.plus(r.tcsInr ?? ZERO), ZERO);
  return {
    pan,
    customer_ids: [...new Set(group.map((r) => r.customerId))].sort(),
    remittance_count: group.length,
    refunded_count: refunded.length,
    remitted_usd: money(usd),
    remitted_inr: money(kept.reduce((s, r) => s.plus(r.amountInr), ZERO)),
    refunded_inr: money(refunded.reduce((s, r) => s.plus(r.amountInr), ZERO)),
    refunded_tcs_inr: money(refunded.reduce((s, r) => s.plus(r.tcsInr ?? ZERO), ZERO)),
    declared_prior_usage: prior === undefined ? null : presentPriorUsage(prior),
    lrs_used_share: ratio(use.share),
    lrs_headroom_usd: money(use.headroomUsd),
    status: use.status,
    threshold_crossed_on: crossedOn,
    estimated_tcs_inr: money(estimated),
    actual_tcs_inr: money(actual),
    difference_inr: money(actual.minus(estimated)),
    remittances: rows.map(({ estimated: _e, ...row }) => row),
  };
}

/** The book's totals over every PAN. */
function lrsTotals(pans: Array<ReturnType<typeof panLrs>>, declared: readonly PriorLrsUsage[]) {
  const total = (
    field: 'remitted_usd' | 'remitted_inr' | 'refunded_inr' | 'estimated_tcs_inr' | 'actual_tcs_inr' | 'difference_inr',
  ) => money(pans.reduce((s, p) => s.plus(p[field]), ZERO));
  return {
    pans: pans.length,
    warn: pans.filter((p) => p.status === 'warn').length,
    breach: pans.filter((p) => p.status === 'breach').length,
    remitted_usd: total('remitted_usd'),
    remitted_inr: total('remitted_inr'),
    refunded_inr: total('refunded_inr'),
    declared_prior_usd: money(declared.reduce((s, p) => s.plus(p.amountUsd), ZERO)),
    estimated_tcs_inr: total('estimated_tcs_inr'),
    actual_tcs_inr: total('actual_tcs_inr'),
    difference_inr: total('difference_inr'),
  };
}
