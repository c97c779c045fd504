import { Decimal } from '@ledger/core/posting';
import { addDays, isSaturday, lastDayOfPreviousMonth } from './dates.js';

/** One day's USD/INR rates, INR per USD. */
export interface InrRate {
  date: string;
  ttBuy: Decimal;
  mid: Decimal;
  /** The sheet's own stamp (`YYYY-MM-DD HH:MM`, IST): the latest of a day wins. */
  publishedAt: string;
}

export type RateSkipReason = 'no_tt_rate_saturday' | 'no_tt_rate' | 'revised_same_day' | 'malformed';

export interface SkippedRate {
  line: number;
  date: string | null;
  reason: RateSkipReason;
}

export interface ParsedRates {
  rates: InrRate[];
  skipped: SkippedRate[];
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})$/;
const NUMBER = /^\d+(\.\d+)?$/;

/**
 * SBI's forex card rate archive (columns DATE, TT BUY, TT SELL, …; CRLF; one row per sheet): one
 * rate per day. TT BUY 0.00 means SBI published no TT rate that day (Saturdays up to 2022-09):
 * skipped, never read as a rate. A day with several sheets (SBI revised during the day) keeps the
 * latest; the earlier are skipped as revised. Mid is the mean of TT buying and TT selling.
 */
export function parseSbiRates(csv: string): ParsedRates {
  const lines = csv.split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((h) => h.trim());
  const at = (name: string) => header.indexOf(name);
  const [dateAt, buyAt, sellAt] = [at('DATE'), at('TT BUY'), at('TT SELL')];
  const skipped: SkippedRate[] = [];
  const byDay = new Map<string, InrRate & { line: number }>();
  if (dateAt < 0 || buyAt < 0 || sellAt < 0)
    return { rates: [], skipped: [{ line: 1, date: null, reason: 'malformed' }] };
  lines.slice(1).forEach((text, i) => {
    const line = i + 2;
    if (text.trim() === '') return;
    const cells = text.split(',').map((c) => c.trim());
    const stamp = DATE_TIME.exec(cells[dateAt] ?? '');
    const [buy, sell] = [cells[buyAt] ?? '', cells[sellAt] ?? ''];
    if (!stamp || !NUMBER.test(buy) || !NUMBER.test(sell)) {
      skipped.push({ line, date: stamp?.[1] ?? null, reason: 'malformed' });
      return;
    }
    const date = stamp[1]!;
    const ttBuy = new Decimal(buy);
    if (ttBuy.isZero()) {
      skipped.push({ line, date, reason: isSaturday(date) ? 'no_tt_rate_saturday' : 'no_tt_rate' });
      return;
    }
    const rate = { date, ttBuy, mid: ttBuy.plus(sell).dividedBy(2), publishedAt: cells[dateAt]!, line };
    const earlier = byDay.get(date);
    // Same stamp twice: the later line is the later sheet.
    if (earlier && earlier.publishedAt > rate.publishedAt) {
      skipped.push({ line, date, reason: 'revised_same_day' });
      return;
    }
    if (earlier) skipped.push({ line: earlier.line, date, reason: 'revised_same_day' });
    byDay.set(date, rate);
  });
  const rates = [...byDay.values()]
    .map(({ line: _line, ...rate }) => rate)
    .sort((a, b) => a.date.localeCompare(b.date));
  skipped.sort((a, b) => a.line - b.line);
  return { rates, skipped };
}

/** Days back a rate is looked for when SBI published none on the day asked (a Sunday, a holiday). */
export const RATE_LOOKBACK_DAYS = 7;

/** A rate used, with the day it was published (which may precede the day asked). */
export interface RateUsed {
  rate: Decimal;
  rateDate: string;
}

/**
 * The book's rates, for the reports: a day without a sheet takes the nearest earlier day's within
 * RATE_LOOKBACK_DAYS (the convention of Rule 26's explanation), and the report's `warnings` name
 * the day asked and the day taken; beyond that the rate is missing, and the report lists the date
 * in `warnings`: it never guesses.
 */
export class RateBook {
  private readonly byDate: Map<string, InrRate>;
  /** Dates asked for that had no rate: the reports' warnings. */
  readonly missing = new Set<string>();

  constructor(rates: InrRate[]) {
    this.byDate = new Map(rates.map((r) => [r.date, r]));
  }

  /** Each day asked: the sheet that answers it (a report asks the same few days thousands of times). */
  private readonly sheetFor = new Map<string, InrRate | null>();

  private find(date: string, pick: (r: InrRate) => Decimal): RateUsed | null {
    let sheet = this.sheetFor.get(date);
    if (sheet === undefined) {
      sheet = null;
      for (let back = 0; back <= RATE_LOOKBACK_DAYS && sheet === null; back += 1)
        sheet = this.byDate.get(addDays(date, -back)) ?? null;
      this.sheetFor.set(date, sheet);
    }
    return sheet === null ? null : { rate: pick(sheet), rateDate: sheet.date };
  }

  /** Dates asked for that took an earlier day's sheet, and that day: each a warning naming both. */
  private readonly fallbacks = new Map<string, string>();

  private on(date: string, pick: (r: InrRate) => Decimal): RateUsed | null {
    const found = this.find(date, pick);
    if (found === null) this.missing.add(date);
    else if (found.rateDate !== date) this.fallbacks.set(date, found.rateDate);
    return found;
  }

  /** SBI TT buying rate for `date`. */
  ttBuyOn(date: string): RateUsed | null {
    return this.on(date, (r) => r.ttBuy);
  }

  /** SBI TT buying rate for `date`, a missing one not yet a warning (the caller says whether it was needed: `markMissing`). */
  findTtBuy(date: string): RateUsed | null {
    return this.find(date, (r) => r.ttBuy);
  }

  /** A rate found missing by `findTtBuy` that a figure needed. */
  markMissing(date: string): void {
    this.missing.add(date);
  }

  midOn(date: string): RateUsed | null {
    return this.on(date, (r) => r.mid);
  }

  /** Rule 115: the TT buying rate of the last day of the month before `date`'s month. */
  rule115(date: string): RateUsed | null {
    return this.ttBuyOn(lastDayOfPreviousMonth(date));
  }

  /** The missing dates, then the dates that fell back to an earlier sheet, as warnings. */
  warnings(): string[] {
    return [
      ...[...this.missing]
        .sort()
        .map(
          (d) =>
            `no USD/INR rate for ${d} (nor the ${RATE_LOOKBACK_DAYS} days before): load it with POST /v1/jobs/load-fx-rates`,
        ),
      ...[...this.fallbacks]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(
          ([asked, used]) =>
            `the rule asks for the USD/INR rate of ${asked}; SBI published none that day, so the figures take ${used}'s, the nearest earlier sheet`,
        ),
    ];
  }
}
