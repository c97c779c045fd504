import { Decimal, ZERO } from '@ledger/core/posting';
import { money, sum } from './figures.js';
import type { FinancialYear } from './fy.js';

/** A paid remittance of the FY, as stored. */
export interface SettledRemittance {
  orderId: string;
  customerId: string;
  purposeCode: string | null;
  utr: string | null;
  amountUsd: Decimal | null;
  paidAt: Date | null;
  settledAt: Date | null;
}

/** Lag statistics, in hours: mean, median (the middle two's mean when even), p95 (nearest rank), max. */
export function lagStatistics(hours: Decimal[]) {
  if (hours.length === 0) return { count: 0, mean_hours: null, median_hours: null, p95_hours: null, max_hours: null };
  const sorted = [...hours].sort((a, b) => a.comparedTo(b) ?? 0);
  const n = sorted.length;
  const median = n % 2 === 1 ? sorted[(n - 1) / 2]! : sorted[n / 2 - 1]!.plus(sorted[n / 2]!).dividedBy(2);
  const hoursText = (d: Decimal) => d.decimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
  return {
    count: n,
    mean_hours: hoursText(sum(sorted).dividedBy(n)),
    median_hours: hoursText(median),
    p95_hours: hoursText(sorted[Math.ceil(0.95 * n) - 1]!),
    max_hours: hoursText(sorted[n - 1]!),
  };
}

/**
 * SettlementAuditSummary: the lag from payment to settlement of the FY's paid remittances, those
 * without a UTR (an audit exception), and the purpose codes (uncoded included).
 */
export function settlementAudit(fy: FinancialYear, remittances: SettledRemittance[]) {
  const settled = remittances.filter((r) => r.paidAt !== null && r.settledAt !== null);
  const lags = settled.map((r) => new Decimal(r.settledAt!.getTime() - r.paidAt!.getTime()).dividedBy(3_600_000));
  const purposes = new Map<string, { count: number; amount: Decimal }>();
  for (const r of remittances) {
    const code = r.purposeCode ?? 'uncoded';
    const p = purposes.get(code) ?? { count: 0, amount: ZERO };
    purposes.set(code, { count: p.count + 1, amount: p.amount.plus(r.amountUsd ?? ZERO) });
  }
  const missingUtr = remittances.filter((r) => r.utr === null || r.utr.trim() === '');
  return {
    fy: fy.label,
    remittances: remittances.length,
    settled: settled.length,
    unsettled: remittances.length - settled.length,
    lag: lagStatistics(lags),
    missing_utr: {
      count: missingUtr.length,
      orders: missingUtr.map((r) => ({ order_id: r.orderId, customer_id: r.customerId })),
    },
    purpose_codes: [...purposes.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([code, p]) => ({ purpose_code: code, count: p.count, amount_usd: money(p.amount) })),
    warnings: [] as string[],
  };
}
