import { z } from 'zod';
import { isKnownCurrency, minorToDecimal } from './minor-units.js';
import type {
  RemitBalances,
  RemitCustomer,
  RemitMidRate,
  RemitMoney,
  RemitOrder,
  RemitPageMeta,
  RemitPayment,
  RemitQuote,
  RemitRefund,
  RemitSettlement,
} from './types.js';

// What remit sends, validated at the boundary. Unknown fields are dropped (the provider adds
// some over time); a missing or mistyped documented field is an UpstreamPayloadError naming it.

const text = z.string().min(1);
const isoDateTime = z.iso.datetime({ offset: true });
const unsignedDecimal = z.string().regex(/^\d+(\.\d+)?$/, 'expected an unsigned decimal string such as "10.0"');
const positiveDecimal = unsignedDecimal.refine((value) => /[1-9]/.test(value), 'expected a decimal string above zero');
const currency = z.string().refine(isKnownCurrency, 'expected a currency whose minor unit is known (INR, USD, ...)');
/** Integer minor units: a whole JSON number ≥ 0 within 2^53 (beyond it JSON.parse has already lost digits). */
const minorUnits = z
  .number('expected integer minor units')
  .int('expected integer minor units')
  .nonnegative('minor units must not be negative');
const purposeCode = z
  .string()
  .regex(/^[A-Z]\d{4}$/, 'expected a purpose code such as S0001')
  .nullable();
const prefixed = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}[A-Za-z0-9_-]+$`), `expected an id starting with ${prefix}`);

/** `{amount: <minor units>, currency}` → `{amount: "<major units>", currency}`. */
const money: z.ZodType<RemitMoney> = z
  .object({ amount: minorUnits, currency })
  .transform(({ amount, currency: code }) => ({ amount: minorToDecimal(amount, code), currency: code }));

/** An object's top-level `amount`, minor units of its `currency`, as major units. */
function majorAmount<T extends { amount: number; currency: string }>(value: T): Omit<T, 'amount'> & { amount: string } {
  return { ...value, amount: minorToDecimal(value.amount, value.currency) };
}

export const orderSchema: z.ZodType<RemitOrder> = z
  .object({
    id: prefixed('order_'),
    customer_id: prefixed('cust_'),
    status: z.enum(['active', 'paid', 'failed', 'action_required', 'cancelled', 'under_review', 'expired']),
    currency,
    amount: minorUnits,
    purpose_code: purposeCode,
    reference_number: z.string().nullable(),
    quote_id: prefixed('quote_').nullable(),
    created_at: isoDateTime,
    updated_at: isoDateTime,
    notes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  })
  .transform(majorAmount);

export const quoteSchema: z.ZodType<RemitQuote> = z.object({
  id: prefixed('quote_'),
  from: money,
  to: money,
  fx_rate: positiveDecimal,
  bank_code: z.string().nullable(),
  total_tax: unsignedDecimal,
  expires_at: isoDateTime,
  created_at: isoDateTime,
});

export const paymentSchema: z.ZodType<RemitPayment> = z
  .object({
    id: prefixed('payt_'),
    customer_id: prefixed('cust_'),
    payin_id: text,
    payin_type: z.enum(['orders', 'payment_link', 'add_funds']),
    status: z.enum(['success', 'failed', 'action_required', 'in_progress']),
    currency,
    amount: minorUnits,
    purpose_code: purposeCode,
    transaction_reference_number: z.string().nullable(),
    settlement_id: prefixed('setl_').nullable(),
    funds_available: z.boolean(),
    payment_method: z.string().nullable(),
    error_code: z.string().nullable(),
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .refine((payment) => payment.payin_type !== 'orders' || payment.payin_id.startsWith('order_'), {
    path: ['payin_id'],
    message: 'a payment of payin_type orders names an order_ id',
  })
  .transform(majorAmount);

export const settlementSchema: z.ZodType<RemitSettlement> = z
  .object({
    id: prefixed('setl_'),
    status: text,
    currency,
    amount: minorUnits,
    fees: z.object({ fx_fee: money, txn_fee: money }),
    utr: z.string().min(1).nullable(),
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .transform(majorAmount);

export const refundSchema: z.ZodType<RemitRefund> = z
  .object({
    id: prefixed('refund_'),
    order_id: prefixed('order_'),
    payment_id: prefixed('payt_'),
    amount: minorUnits,
    // Not in the documented shape: a refund returns the INR payment, so INR unless it says otherwise.
    currency: currency.optional(),
    created_at: isoDateTime,
  })
  .transform((refund) => majorAmount({ ...refund, currency: refund.currency ?? 'INR' }));

export const customerSchema: z.ZodType<RemitCustomer> = z.object({
  id: prefixed('cust_'),
  name: text,
  email: z.string().nullable(),
  pan: z.string().nullable(),
  created_at: isoDateTime,
});

export const balancesSchema: z.ZodType<RemitBalances> = z.object({
  available: z.array(money),
  pending: z.array(money),
  deficit: z.array(money),
});

export const midRateSchema = z
  .object({
    mid_market_rate: z.object({
      currency: z.literal('USD', 'expected the target currency USD'),
      rate: positiveDecimal,
    }),
  })
  .transform((body): RemitMidRate => body.mid_market_rate);

const pageNumber = z.number().int().positive();

export const pageMetaSchema: z.ZodType<RemitPageMeta> = z.object({
  current: pageNumber,
  previous: pageNumber.nullable(),
  next: pageNumber.nullable(),
  per_page: z.number().int().min(1).max(100),
  pages: z.number().int().nonnegative(),
  count: z.number().int().nonnegative(),
});

export function pageSchema<T>(item: z.ZodType<T>) {
  return z.object({ data: z.array(item), page_meta: pageMetaSchema });
}

/** Remit's flat error body. */
export const errorBodySchema = z.object({
  error: z.string(),
  message: z.string().optional(),
  code: z.string().optional(),
});
