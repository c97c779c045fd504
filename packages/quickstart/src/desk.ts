// After the demo load, what an operations desk finds on a book that has been run for a while, made
// through the api as an operator makes it: a financial year closed to retained earnings, the books
// closed through the month after it, and a customer's deposit waiting to be confirmed. Each step
// first asks whether it is done already, so a start on a kept book (loaded by an earlier version,
// say) adds what is missing and never a second of anything.
import { FISCAL_YEAR_START_MONTH_DEFAULT } from '@ledger/core/runtime';
import type { BookApi, Period } from './demo.js';

/** Sent with the pending deposit: a retry (or a second start) answers the request already made. */
export const DEMO_CASH_REQUEST_KEY = 'quickstart-demo-pending-deposit';

const lastDayOfMonth = (year: number, month: number): string =>
  new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);

/**
 * The days the desk closes: the last financial year (the book's default start month) whose
 * following month ends within the demo period, and that following month's last day.
 */
export function deskCloses(book: keyof typeof FISCAL_YEAR_START_MONTH_DEFAULT, period: Period) {
  const startMonth = FISCAL_YEAR_START_MONTH_DEFAULT[book];
  // A year ends the day before the first of its start month; its next month is the start month.
  for (let year = Number(period.to.slice(0, 4)); ; year -= 1) {
    const yearEnd = lastDayOfMonth(year, startMonth - 1);
    const monthAfter = lastDayOfMonth(year, startMonth);
    if (monthAfter <= period.to) {
      if (yearEnd < period.from) throw new Error(`the demo period ${period.from}..${period.to} ends no financial year`);
      return { yearEnd, monthAfter };
    }
  }
}

/** Makes what is missing of the desk's work, one progress line per step. */
export async function leaveDeskWork({
  book,
  api,
  period,
  log,
}: {
  book: keyof typeof FISCAL_YEAR_START_MONTH_DEFAULT;
  api: BookApi;
  period: Period;
  log: (line: string) => void;
}): Promise<void> {
  const { yearEnd, monthAfter } = deskCloses(book, period);
  const { items: closes } = await api.get<{ items: { through: string | null }[] }>('/v1/periods?limit=1');
  const closedThrough = closes[0]?.through ?? null;
  if (closedThrough === null || closedThrough < monthAfter) {
    await api.post('/v1/periods/close', { through: monthAfter });
    log(`desk: books closed through ${monthAfter}`);
  }
  // 200 with the close when the year is closed already: nothing posted twice.
  await api.post('/v1/periods/close-year', { through: yearEnd });
  log(`desk: financial year ending ${yearEnd} closed to retained earnings`);
  const { items: customers } = await api.get<{ items: { customer_id: string }[] }>('/v1/customers?limit=2');
  const customer = customers.at(-1)!.customer_id;
  await api.post(
    '/v1/cash-requests',
    {
      customer_id: customer,
      direction: 'deposit',
      amount: '2500.00',
      currency: 'USD',
      reference: 'quickstart-demo-wire',
      memo: 'A wire announced by the customer, not yet seen on the bank statement: confirm or fail it.',
    },
    { 'idempotency-key': DEMO_CASH_REQUEST_KEY },
  );
  log(`desk: ${customer}'s deposit of 2500.00 USD pending`);
}
