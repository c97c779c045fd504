import { Decimal, ZERO } from '@ledger/core';
import { groupBy, money, moneyOrNull, ratio, sum, toInr } from './figures.js';
import type { FinancialYear } from './fy.js';
import type { RateBook } from './rates.js';

/** A US dividend as dividend_events keeps it. */
export interface DividendEvent {
  divTxnNo: string;
  customerId: string;
  symbol: string;
  exDate: string;
  payDate: string;
  grossUsd: Decimal;
  whtUsd: Decimal | null;
}

/**
 * DividendSummary: per customer, each dividend paid in the FY, gross, withheld and net, in USD and
 * INR. India taxes the gross at slab; the US withholding is a foreign tax credit (Form 67). Both
 * convert at the TT buying rate of the last day of the month before the pay date (Rule 115; the
 * tax was deducted on the pay date).
 */
export function dividendSummary(fy: FinancialYear, events: DividendEvent[], rates: RateBook) {
  const customers = groupBy(events, (e) => e.customerId);
  const rateOf = (gross: Decimal, withheld: Decimal) => (gross.isZero() ? '0' : ratio(withheld.dividedBy(gross)));
  return {
    fy: fy.label,
    basis:
      'INR at the SBI TT buying rate of the last day of the month before the pay date (Rule 115); the withheld US tax is the foreign tax credit (Form 67).',
    customers: [...customers.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([customer_id, list]) => {
        let inrComplete = true;
        const rows = list
          .sort((a, b) => a.payDate.localeCompare(b.payDate) || a.divTxnNo.localeCompare(b.divTxnNo))
          .map((e) => {
            const withheld = e.whtUsd ?? ZERO;
            const rate = rates.rule115(e.payDate);
            const [grossInr, withheldInr] = [toInr(e.grossUsd, rate?.rate), toInr(withheld, rate?.rate)];
            if (rate === null) inrComplete = false;
            return {
              div_txn_no: e.divTxnNo,
              symbol: e.symbol,
              ex_date: e.exDate,
              pay_date: e.payDate,
              gross_usd: money(e.grossUsd),
              withheld_usd: money(withheld),
              net_usd: money(e.grossUsd.minus(withheld)),
              effective_rate: rateOf(e.grossUsd, withheld),
              rate: rate === null ? null : { rate: rate.rate.toFixed(), rate_date: rate.rateDate },
              gross_inr: moneyOrNull(grossInr),
              withheld_inr: moneyOrNull(withheldInr),
              net_inr: grossInr === null || withheldInr === null ? null : money(grossInr.minus(withheldInr)),
              foreign_tax_credit_inr: moneyOrNull(withheldInr),
              grossInr,
              withheldInr,
            };
          });
        const gross = sum(list.map((e) => e.grossUsd));
        const withheld = sum(list.map((e) => e.whtUsd ?? ZERO));
        const grossInr = inrComplete ? sum(rows.map((r) => r.grossInr!)) : null;
        const withheldInr = inrComplete ? sum(rows.map((r) => r.withheldInr!)) : null;
        return {
          customer_id,
          gross_usd: money(gross),
          withheld_usd: money(withheld),
          net_usd: money(gross.minus(withheld)),
          effective_rate: rateOf(gross, withheld),
          gross_inr: moneyOrNull(grossInr),
          withheld_inr: moneyOrNull(withheldInr),
          net_inr: grossInr === null || withheldInr === null ? null : money(grossInr.minus(withheldInr)),
          foreign_tax_credit_inr: moneyOrNull(withheldInr),
          events: rows.map(({ grossInr: _g, withheldInr: _w, ...row }) => row),
        };
      }),
    warnings: rates.warnings(),
  };
}
