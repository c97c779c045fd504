import { z } from 'zod';
import type {
  UsbrokerAccount,
  UsbrokerBalance,
  UsbrokerMonthlyStatement,
  UsbrokerOrder,
  UsbrokerOrderPreview,
  UsbrokerPosition,
  UsbrokerQuote,
  UsbrokerWire,
} from './types.js';

// What usbroker sends, validated at the boundary. Unknown fields are dropped (the broker may
// add some); a missing or mistyped documented field is an UpstreamPayloadError naming it.

const DECIMAL = /^-?\d+(\.\d+)?$/;
const UNSIGNED_DECIMAL = /^\d+(\.\d+)?$/;

/** A decimal string, sign kept. Numbers are refused: money never passes through a float. */
export const decimal = z.string().regex(DECIMAL, 'expected a decimal string such as "-12.50"');
export const unsignedDecimal = z
  .string()
  .regex(UNSIGNED_DECIMAL, 'expected an unsigned decimal string such as "12.50"');
export const positiveDecimal = unsignedDecimal.refine(
  (value) => /[1-9]/.test(value),
  'expected a decimal string above zero',
);
export const isoDate = z.iso.date();
export const isoDateTime = z.iso.datetime({ offset: true });
export const currency = z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 currency code');
const text = z.string().min(1);
/** Documented as BUY/SELL; a lower-case side means the same and is read as such. */
export const side = z
  .string()
  .transform((value) => value.toUpperCase())
  .pipe(z.enum(['BUY', 'SELL']));
export const ROW_CODES = ['TRD', 'WIREI', 'WIREO', 'DIV', 'DIVNRA', 'FEE', 'SPLIT', 'CIL'] as const;
export const rowCode = z.enum(ROW_CODES);

export const tokenSchema = z.object({
  access_token: text,
  /** Seconds; a whole, positive number. */
  expires_in: z.number().int().positive(),
  // RFC 6749 §5.1: the token type is case-insensitive.
  token_type: z.string().refine((value) => value.toLowerCase() === 'bearer', 'expected token_type "Bearer"'),
});

export const accountSchema: z.ZodType<UsbrokerAccount> = z.object({
  account_no: text,
  status: z.enum(['active', 'trading_halted', 'inactive']),
});

export const balanceSchema: z.ZodType<UsbrokerBalance> = z.object({
  cash: decimal,
  cash_withdrawable: decimal,
  buying_power: decimal,
  pending_deposits: decimal,
  currency,
  as_of: isoDateTime,
});

export const positionsSchema: z.ZodType<UsbrokerPosition[]> = z.array(
  z.object({
    symbol: text,
    cusip: z
      .string()
      .regex(/^[0-9A-Z]{9}$/, 'expected a 9-character CUSIP')
      .nullable(),
    qty: decimal,
    avg_cost: decimal,
    cost_basis: decimal,
    market_value: decimal,
  }),
);

const orderCommon = {
  order_id: text,
  client_order_id: text.nullable(),
  symbol: text,
  side,
  filled_qty: unsignedDecimal,
  avg_fill_price: unsignedDecimal.nullable(),
  status: z.enum(['filled', 'partially_filled', 'cancelled', 'rejected']),
  submitted_at: isoDateTime,
  filled_at: isoDateTime.nullable(),
};

export const orderSchema: z.ZodType<UsbrokerOrder> = z.discriminatedUnion('cost_type', [
  z.object({
    ...orderCommon,
    cost_type: z.literal('quantity'),
    qty: positiveDecimal,
    notional: z.null('a quantity order has notional null'),
  }),
  z.object({
    ...orderCommon,
    cost_type: z.literal('full_portfolio_cost'),
    qty: z.null('a full_portfolio_cost order has qty null'),
    notional: positiveDecimal,
  }),
]);
export const ordersPageSchema = z.array(orderSchema);

export const wireSchema: z.ZodType<UsbrokerWire> = z.object({
  transfer_id: text,
  account_no: text,
  direction: z.enum(['IN', 'OUT']),
  amount: positiveDecimal,
  currency,
  status: z.enum(['completed', 'pending', 'returned']),
  value_date: isoDate,
});
export const wiresPageSchema = z.array(wireSchema);

export const statementSchema: z.ZodType<UsbrokerMonthlyStatement> = z.object({
  account_no: text,
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected a month YYYY-MM'),
  currency,
  opening_cash: decimal,
  closing_cash: decimal,
  activity: z.array(
    z.object({
      date: isoDate,
      txn_no: text,
      row_code: rowCode,
      symbol: text.nullable(),
      description: z.string().nullable(),
      amount: decimal,
    }),
  ),
});

export const orderPreviewSchema: z.ZodType<UsbrokerOrderPreview> = z.object({
  est_commission: unsignedDecimal,
  sec_fee: unsignedDecimal,
  taf_fee: unsignedDecimal,
  ifsca_fee: unsignedDecimal,
});

export const quotesSchema: z.ZodType<UsbrokerQuote[]> = z.array(
  z.object({
    symbol: text,
    last: positiveDecimal,
    currency,
    as_of: isoDateTime,
  }),
);
