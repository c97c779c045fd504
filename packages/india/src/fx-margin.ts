import { Decimal, roundToCents, ZERO } from '@ledger/core/posting';
import { groupBy, money, moneyOrNull, sum } from './figures.js';
import type { FinancialYear } from './fy.js';

/** A paid, priced remittance of the FY with its accrual. */
export interface MarginRemittance {
  orderId: string;
  customerId: string;
  remittedOn: string;
  amountInr: Decimal;
  amountUsd: Decimal;
  /** USD per INR the customer got (the quote's). */
  customerRate: Decimal;
  /** USD per INR mid-market, read while the quote was live; null when none was read. */
  midRate: Decimal | null;
  /** The provider's settlement fees (FX and transaction), USD; null until settled. */
  providerFeesUsd: Decimal | null;
  /** The `fx_spread` accrual in effect (the assumed margin), USD; null when none was posted. */
  accruedUsd: Decimal | null;
}

const bps = (value: Decimal) => value.times(10_000).decimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);

/**
 * FxMarginSummary: per remittance, the customer's rate against the mid (rates are USD per INR, so
 * the margin is (mid − customer) / mid, in bps), the realized margin in USD (what the INR buys at
 * mid less what the customer got, net of the provider's fees) and the assumed one (the `fx_spread`
 * accrual at the configured `fx_spread_bps`), and their drift; per customer and firm. `realized`
 * is null where it cannot be said: remit unreachable (`confirmed` null: nothing is confirmed
 * paid), remit no longer answering the order paid, or no mid rate read.
 */
export function fxMarginSummary(
  fy: FinancialYear,
  remittances: MarginRemittance[],
  confirmedPaid: Set<string> | null,
  configuredBps: Decimal,
) {
  const warnings: string[] = [];
  if (confirmedPaid === null)
    warnings.push('remit is unreachable or not configured: realized margins are null; the assumed accrual is shown');
  const rows = remittances.map((r) => {
    const realizable = confirmedPaid !== null && confirmedPaid.has(r.orderId) && r.midRate !== null;
    const gross = realizable ? roundToCents(r.amountInr.times(r.midRate!)).minus(r.amountUsd) : null;
    const realized = gross === null ? null : gross.minus(r.providerFeesUsd ?? ZERO);
    return {
      order_id: r.orderId,
      customer_id: r.customerId,
      remitted_on: r.remittedOn,
      amount_inr: money(r.amountInr),
      amount_usd: money(r.amountUsd),
      customer_rate: r.customerRate.toFixed(),
      mid_rate: r.midRate?.toFixed() ?? null,
      margin_bps: r.midRate === null ? null : bps(r.midRate.minus(r.customerRate).dividedBy(r.midRate)),
      provider_fees_usd: moneyOrNull(r.providerFeesUsd),
      realized:
        realized === null ? null : { margin_usd: money(realized), margin_bps: bps(realized.dividedBy(r.amountUsd)) },
      assumed_usd: moneyOrNull(r.accruedUsd),
      drift_usd: realized === null || r.accruedUsd === null ? null : money(realized.minus(r.accruedUsd)),
      realizedUsd: realized,
    };
  });
  const totals = (list: typeof rows) => {
    const realized = list.every((r) => r.realizedUsd !== null) ? sum(list.map((r) => r.realizedUsd!)) : null;
    const assumed = sum(list.map((r) => new Decimal(r.assumed_usd ?? 0)));
    return {
      remittances: list.length,
      amount_usd: money(sum(list.map((r) => new Decimal(r.amount_usd)))),
      realized_usd: moneyOrNull(realized),
      assumed_usd: money(assumed),
      drift_usd: realized === null ? null : money(realized.minus(assumed)),
    };
  };
  const byCustomer = groupBy(rows, (r) => r.customer_id);
  return {
    fy: fy.label,
    configured_bps: configuredBps.toFixed(),
    remit_reachable: confirmedPaid !== null,
    firm: totals(rows),
    customers: [...byCustomer.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([customer_id, list]) => ({ customer_id, ...totals(list) })),
    remittances: rows.map(({ realizedUsd: _r, ...row }) => row),
    warnings,
  };
}
