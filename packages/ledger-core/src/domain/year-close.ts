import { ACCOUNT, type AccountCode, type AccountType } from './accounts.js';
import { CALENDAR_DATE_RULE, isCalendarDate } from './dates.js';
import { assert, LedgerError } from './errors.js';
import { Decimal, formatDecimal, ZERO } from './money.js';
import { isBalanced } from './posting-rules/index.js';
import type { JournalLineDraft } from './posting-rules/index.js';
import { nextDay } from './periods.js';
import type { TransactionDraft } from './transaction.js';

/**
 * Closing a financial year (docs/period-close.md#closing-a-financial-year): one entry, dated the
 * year's last day, carries every revenue and expense balance to 3000 (retained earnings). Its
 * lines have a posting kind of their own, so the income reports leave them out and a year's net
 * income reads the same before and after; the balance sheet shows the year's income in 3000.
 */

/** The posting kind of a closing entry's lines (and of its reversal's). */
export const YEAR_CLOSE_POSTING_KIND = 'year_close';

/** A financial year: its first and last days (YYYY-MM-DD, both inclusive). */
export interface FiscalYear {
  from: string;
  through: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The financial year ending on `through`, for a book whose year starts on the first of
 * `startMonth` (1 January to 12 December); a day that ends no year is a validation error.
 */
export function fiscalYearEndingOn(through: string, startMonth: number): FiscalYear {
  assert(
    Number.isInteger(startMonth) && startMonth >= 1 && startMonth <= 12,
    `a year starts in month 1-12, not ${startMonth}`,
  );
  if (!isCalendarDate(through)) {
    throw new LedgerError('validation_error', `through must be ${CALENDAR_DATE_RULE}`, [
      { path: '/through', message: `must be ${CALENDAR_DATE_RULE}` },
    ]);
  }
  const next = nextDay(through);
  const firstOfMonth = `-${pad(startMonth)}-01`;
  if (!next.endsWith(firstOfMonth)) {
    const lastMonth = ((startMonth + 10) % 12) + 1;
    const message = `must be the last day of a financial year: this book's years start on the first of month ${startMonth} and end on the last day of month ${lastMonth}`;
    throw new LedgerError('validation_error', `through ${message}`, [{ path: '/through', message }]);
  }
  const from = `${Number(next.slice(0, 4)) - 1}${firstOfMonth}`;
  return { from, through };
}

/** An account's balance at the end of a year, from the chart and its totals. */
export interface YearEndBalance {
  accountCode: AccountCode;
  accountType: AccountType;
  /** debit − credit. */
  net: Decimal;
}

/** Revenue less expenses of the balances: the credit balance the closing entry moves to 3000. */
export function netIncomeOf(balances: readonly YearEndBalance[]): Decimal {
  return balances
    .filter((b) => b.accountType === 'revenue' || b.accountType === 'expense')
    .reduce((total, b) => total.minus(b.net), ZERO);
}

/**
 * The closing entry of `fy`: each revenue and expense account with a balance brought to zero,
 * the difference (the net income; a loss debits) to 3000. Null when there is nothing to carry.
 * `sequence` numbers the closes of the year (a reopened year closes again under a new key).
 */
export function draftYearClose(
  balances: readonly YearEndBalance[],
  { txnId, fy, sequence }: { txnId: string; fy: FiscalYear; sequence: number },
): TransactionDraft | null {
  const line = (accountCode: AccountCode, net: Decimal): JournalLineDraft => ({
    accountCode,
    // A debit balance is closed by a credit, and the other way round.
    debit: net.isLessThan(0) ? net.negated() : ZERO,
    credit: net.isGreaterThan(0) ? net : ZERO,
    postingKind: YEAR_CLOSE_POSTING_KIND,
  });
  const closed = balances.filter(
    (b) => (b.accountType === 'revenue' || b.accountType === 'expense') && !b.net.isZero(),
  );
  if (closed.length === 0) return null;
  const netIncome = netIncomeOf(closed);
  const lines = closed.map((b) => line(b.accountCode, b.net));
  // 3000 takes the net income as a credit (a loss as a debit): what the lines above moved out.
  if (!netIncome.isZero()) lines.push(line(ACCOUNT.retainedEarnings, netIncome));
  assert(isBalanced(lines), `the closing entry of ${fy.through} balances`);
  return {
    txnId,
    customerId: null,
    txnType: 'year_close',
    source: 'ledger',
    sourceTxnId: `year_close:${fy.through}:${sequence}`,
    category: 'year_close',
    symbol: null,
    quantity: null,
    txnDate: fy.through,
    amountUsd: netIncome.abs(),
    originalCurrency: null,
    originalAmount: null,
    fxRate: null,
    pendingRecost: false,
    reversesTxnId: null,
    memo: `closes the financial year ${fy.from} to ${fy.through} to retained earnings`,
    metadata: { fy_start: fy.from, fy_end: fy.through, net_income_usd: formatDecimal(netIncome) },
    requestHash: null,
    lines,
  };
}
