import { LedgerError } from '@ledger/core';

/** An Indian financial year: 1 April to 31 March, labelled `YYYY-YY` (`2024-25`). */
export interface FinancialYear {
  label: string;
  /** First day, `YYYY-04-01`. */
  start: string;
  /** Last day, `YYYY+1-03-31`. */
  end: string;
  /** The calendar year ending inside it (Schedule FA's reporting period): the start's year. */
  calendarYear: number;
  /** That calendar year's first and last days. */
  calendarPeriod: { from: string; to: string };
}

export const FY_PATTERN_SOURCE = '^[0-9]{4}-[0-9]{2}$';
export const FY_RULE = 'a financial year YYYY-YY of two consecutive years, e.g. "2024-25"';

/** The financial year starting on 1 April of `year`. */
export function financialYearStarting(year: number): FinancialYear {
  const label = `${year}-${String((year + 1) % 100).padStart(2, '0')}`;
  return {
    label,
    start: `${year}-04-01`,
    end: `${year + 1}-03-31`,
    calendarYear: year,
    calendarPeriod: { from: `${year}-01-01`, to: `${year}-12-31` },
  };
}

/** Parses `YYYY-YY` (the second year the first's next: `2024-25`, `2099-00`); anything else is a validation error naming `field` (at `path`). */
export function parseFinancialYear(text: string, field = 'fy', path = field): FinancialYear {
  const match = /^(\d{4})-(\d{2})$/.exec(text);
  const year = match ? Number(match[1]) : NaN;
  if (!match || year < 1900 || (year + 1) % 100 !== Number(match[2])) {
    throw new LedgerError('validation_error', `${field} must be ${FY_RULE}`, [{ path, message: `must be ${FY_RULE}` }]);
  }
  return financialYearStarting(year);
}

/** The financial year a date (`YYYY-MM-DD`) falls in. */
export function financialYearOf(date: string): FinancialYear {
  const year = Number(date.slice(0, 4));
  return financialYearStarting(date.slice(5) >= '04-01' ? year : year - 1);
}
