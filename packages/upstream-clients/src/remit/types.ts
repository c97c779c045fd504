/**
 * remit, the remittance provider of the India book, as this client returns it. Field names are
 * the wire's (docs/upstreams/remit.md); every value is validated at the boundary, and every
 * amount, which remit sends as integer minor units, is here a decimal string in major units
 * of its currency (`1` paisa → `"0.01"`), converted exactly.
 */

/** A decimal number as a string: `"1234.56"`, `"0.011424"`. Never a JS number. */
export type DecimalString = string;
/** An ISO-8601 instant with its offset: `2026-01-15T09:30:00Z`. */
export type IsoDateTime = string;

export interface RemitMoney {
  /** Major units of `currency`, from the wire's integer minor units. */
  amount: DecimalString;
  currency: string;
}

export type RemitOrderStatus =
  'active' | 'paid' | 'failed' | 'action_required' | 'cancelled' | 'under_review' | 'expired';

export interface RemitOrder {
  id: string;
  customer_id: string;
  status: RemitOrderStatus;
  currency: string;
  /** INR, major units (the wire's paise): the quote's `from.amount`. */
  amount: DecimalString;
  /** `S0001`/`S0002` for LRS; null when the order states none. */
  purpose_code: string | null;
  reference_number: string | null;
  quote_id: string | null;
  created_at: IsoDateTime;
  updated_at: IsoDateTime;
  notes: Record<string, string | number | boolean | null>;
}

export interface RemitQuote {
  id: string;
  from: RemitMoney;
  to: RemitMoney;
  /** USD per INR, as sent: `"0.011424"`. */
  fx_rate: DecimalString;
  bank_code: string | null;
  /** TCS collected, INR major units, as sent (`"10.0"`). */
  total_tax: DecimalString;
  expires_at: IsoDateTime;
  created_at: IsoDateTime;
}

export type RemitPaymentStatus = 'success' | 'failed' | 'action_required' | 'in_progress';
export type RemitPayinType = 'orders' | 'payment_link' | 'add_funds';

export interface RemitPayment {
  id: string;
  customer_id: string;
  /** The order (`order_…`) when `payin_type` is `orders`. */
  payin_id: string;
  payin_type: RemitPayinType;
  /** `success` means the bank authorised; an LRS payment is complete only at `funds_available`. */
  status: RemitPaymentStatus;
  currency: string;
  amount: DecimalString;
  purpose_code: string | null;
  transaction_reference_number: string | null;
  /** Non-null once a settlement carries it. */
  settlement_id: string | null;
  funds_available: boolean;
  payment_method: string | null;
  /** `REFUNDED` on a refunded payment. */
  error_code: string | null;
  created_at: IsoDateTime;
  updated_at: IsoDateTime;
}

export interface RemitSettlement {
  id: string;
  /** `settled` when it has landed; other values are passed through as sent. */
  status: string;
  /** USD, major units (the wire's cents). */
  amount: DecimalString;
  currency: string;
  fees: { fx_fee: RemitMoney; txn_fee: RemitMoney };
  /** The bank's reference of the INR payment; null while unknown. */
  utr: string | null;
  created_at: IsoDateTime;
  updated_at: IsoDateTime;
}

/** Ours: `GET /refunds`. */
export interface RemitRefund {
  id: string;
  order_id: string;
  payment_id: string;
  /** Major units of `currency` (INR unless the refund names another). */
  amount: DecimalString;
  currency: string;
  created_at: IsoDateTime;
}

/** Ours: `GET /customers[/{id}]`. The PAN is passed on as sent: its format is checked where it is used. */
export interface RemitCustomer {
  id: string;
  name: string;
  email: string | null;
  pan: string | null;
  created_at: IsoDateTime;
}

export interface RemitBalances {
  available: RemitMoney[];
  pending: RemitMoney[];
  deficit: RemitMoney[];
}

/** Ours: the mid-market rate, INR→USD: `rate` is USD per INR, like a quote's `fx_rate`. */
export interface RemitMidRate {
  /** The target currency, `USD`. */
  currency: string;
  rate: DecimalString;
}

export interface RemitPageMeta {
  current: number;
  previous: number | null;
  next: number | null;
  per_page: number;
  pages: number;
  count: number;
}

export interface RemitPage<T> {
  data: T[];
  page_meta: RemitPageMeta;
}
