import { z } from 'zod';
import type { CustodianAccount, CustodianCashStatement, CustodianHoldings, CustodianTransaction } from './types.js';

/** The custodian's wire formats (all ours), validated at the boundary. */

const decimal = z.string().regex(/^-?(0|[1-9]\d*)(\.\d+)?$/, { message: 'expected a decimal string' });
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'expected a date YYYY-MM-DD' })
  .refine(
    (value) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
    },
    { message: 'expected a calendar date' },
  );
const isoMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'expected a month YYYY-MM' });
const currency = z.string().regex(/^[A-Z]{3}$/, { message: 'expected an ISO 4217 currency code' });

/** `{data, page, per_page, total, next_page}`, until `next_page` is null. */
export const pagedSchema = <S extends z.ZodType>(item: S) =>
  z.object({
    data: z.array(item),
    page: z.number().int().positive(),
    per_page: z.number().int().positive(),
    total: z.number().int().nonnegative(),
    next_page: z.number().int().positive().nullable(),
  });

export const accountSchema = z.object({
  account: z.string().min(1),
  name: z.string(),
  currency,
  status: z.enum(['active', 'closed']),
  opened_on: isoDate,
}) satisfies z.ZodType<CustodianAccount, unknown>;

export const holdingsSchema = z.object({
  as_of: isoDate,
  account: z.string().min(1),
  currency,
  positions: z.array(
    z.object({ symbol: z.string().min(1), isin: z.string(), qty: decimal, avg_cost: decimal, market_value: decimal }),
  ),
  cash: z.object({ balance: decimal, available: decimal }),
}) satisfies z.ZodType<CustodianHoldings, unknown>;

export const transactionSchema = z.object({
  id: z.string().min(1),
  type: z.enum(['CASH_IN', 'CASH_OUT', 'BUY', 'SELL', 'FEE']),
  symbol: z.string().min(1).nullable(),
  qty: decimal.nullable(),
  price: decimal.nullable(),
  gross: decimal,
  fees: z.array(z.object({ code: z.string().min(1), amount: decimal })),
  net: decimal,
  currency,
  trade_date: isoDate,
  settle_date: isoDate,
}) satisfies z.ZodType<CustodianTransaction, unknown>;

export const cashStatementSchema = z.object({
  account: z.string().min(1),
  month: isoMonth,
  currency,
  opening_balance: decimal,
  closing_balance: decimal,
  lines: z.array(
    z.object({
      date: isoDate,
      value_date: isoDate,
      description: z.string(),
      debit: decimal,
      credit: decimal,
      balance: decimal,
    }),
  ),
}) satisfies z.ZodType<CustodianCashStatement, unknown>;
