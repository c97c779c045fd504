import { LAST_CALENDAR_YEAR, LedgerError } from '@ledger/core/posting';
import { LONG_TERM_MONTHS, LRS_LIMIT_USD, LTCG_RULES, type Dated } from './rules.js';

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

/** The first year starting on or after `date` (`YYYY-MM-DD`). */
const firstYearFrom = (date: string) => Number(date.slice(0, 4)) + (date.slice(5) > '04-01' ? 1 : 0);

/**
 * The financial years the book can answer, by the year each starts in. The first is the first
 * whole year under every rule a report reads with no meaning before its first row (the LRS limit
 * is read at the year's start: there is none before 2015-02-03). TCS is not among them: before its
 * first row there was no TCS, and the reports say so (rate 0). The last is the last year ending on
 * a ledger date (dates end in LAST_CALENDAR_YEAR).
 */
const RULES_WITHOUT_A_BEFORE: ReadonlyArray<ReadonlyArray<Dated<unknown>>> = [
  LRS_LIMIT_USD,
  LTCG_RULES,
  LONG_TERM_MONTHS,
];
export const FY_YEARS = {
  first: Math.max(...RULES_WITHOUT_A_BEFORE.map((table) => firstYearFrom(table[0]!.from))),
  last: LAST_CALENDAR_YEAR - 1,
};

export const FY_PATTERN_SOURCE = '^[0-9]{4}-[0-9]{2}$';
export const FY_RULE = `a financial year YYYY-YY of two consecutive years, from ${financialYearStarting(FY_YEARS.first).label} to ${financialYearStarting(FY_YEARS.last).label}, e.g. "2024-25"`;

/** Parses `YYYY-YY` (the second year the first's next: `2024-25`, `2099-00`) within FY_YEARS; anything else is a validation error naming `field` (at `path`) and the range. */
export function parseFinancialYear(text: string, field = 'fy', path = field): FinancialYear {
  const match = /^(\d{4})-(\d{2})$/.exec(text);
  const year = match ? Number(match[1]) : NaN;
  if (!match || year < FY_YEARS.first || year > FY_YEARS.last || (year + 1) % 100 !== Number(match[2])) {
    throw new LedgerError('validation_error', `${field} must be ${FY_RULE}`, [{ path, message: `must be ${FY_RULE}` }]);
  }
  return financialYearStarting(year);
}

/** The financial year a date (`YYYY-MM-DD`) falls in. */
export function financialYearOf(date: string): FinancialYear {
  const year = Number(date.slice(0, 4));
  return financialYearStarting(date.slice(5) >= '04-01' ? year : year - 1);
}
