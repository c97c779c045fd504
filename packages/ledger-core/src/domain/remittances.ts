import { assert } from './errors.js';
import { FeeSchedule } from './fees.js';
import { Decimal, formatDecimal, roundToCents, ZERO } from './money.js';
import { draftFromEntry, type TransactionDraft } from './transaction.js';

/**
 * LRS remittances of the India book (docs/posting-rules.md#india-remittances): their statuses,
 * which snapshot of an order wins, and the two postings a remittance makes. Pure.
 */

export const REMITTANCE_STATUSES = ['active', 'action_required', 'under_review', 'paid', 'failed', 'cancelled', 'expired'] as const;
export type RemittanceStatus = (typeof REMITTANCE_STATUSES)[number];

/**
 * How far along its life a status is: 0 on the way, 1 paid (may still be refunded: paid →
 * failed), 2 final. A snapshot of a lower rank than the stored status is stale (remit retries
 * deliveries for days, and lists may lag): it changes nothing. A final status never changes.
 */
export const REMITTANCE_STATUS_RANK: Readonly<Record<RemittanceStatus, 0 | 1 | 2>> = {
  active: 0,
  action_required: 0,
  under_review: 0,
  paid: 1,
  failed: 2,
  cancelled: 2,
  expired: 2,
};

/** Statuses at each rank, for SQL that applies the same rule (store/remittances.ts). */
export const statusesOfRank = (rank: 0 | 1 | 2): RemittanceStatus[] => REMITTANCE_STATUSES.filter((s) => REMITTANCE_STATUS_RANK[s] === rank);

/** Whether a snapshot with status `incoming` may replace the stored record with status `stored`. */
export function snapshotWins(stored: RemittanceStatus, incoming: RemittanceStatus): boolean {
  const storedRank = REMITTANCE_STATUS_RANK[stored];
  if (storedRank === 2) return stored === incoming;
  return REMITTANCE_STATUS_RANK[incoming] >= storedRank;
}

/** Orders whose outstanding `fx_spread` accrual refund-reversal-india reverses. */
export const SWEPT_STATUSES: readonly RemittanceStatus[] = ['failed', 'cancelled', 'expired'];

/** A PAN: five letters, four digits, a letter (the fourth letter is the holder's type). */
export const PAN_PATTERN = /^[A-Z]{3}[ABCFGHJLPT][A-Z][0-9]{4}[A-Z]$/;
export const isPan = (value: string): boolean => PAN_PATTERN.test(value);

/** The posting keys of a remittance: one accrual and one settlement per order, ever. */
export const fxSpreadSourceTxnId = (orderId: string) => `fx_spread:${orderId}`;
export const fxSpreadSettleSourceTxnId = (orderId: string) => `fx_spread_settle:${orderId}`;

/** The date in India (IST, UTC+05:30, no daylight saving) of an instant: a remittance's date for FY, LRS and TCS. */
export function istDate(instant: string): string {
  const ms = Date.parse(instant);
  assert(!Number.isNaN(ms), `${instant} is an instant`);
  return new Date(ms + 330 * 60_000).toISOString().slice(0, 10);
}

/** The margin accrued on a paid order: its USD × bps / 10,000, half-up to cents. */
export function fxSpreadUsd(orderUsd: Decimal, fxSpreadBps: Decimal): Decimal {
  assert(orderUsd.isFinite() && orderUsd.isPositive() && fxSpreadBps.isFinite() && !fxSpreadBps.isNegative(), 'order USD above zero, bps not negative');
  return roundToCents(orderUsd.times(fxSpreadBps).dividedBy(10_000));
}

/** An FX spread is no trade: no customer fee applies. */
const NO_FEE = { feeSchedule: new FeeSchedule(ZERO) };

/** `fx_spread` of a paid order (Dr 1300 / Cr 4030), dated the remittance's date. */
export function draftFxSpread(
  accrual: { orderId: string; customerId: string; remittedOn: string; orderUsd: Decimal; fxSpreadBps: Decimal; amountUsd: Decimal },
  txnId: string,
): TransactionDraft {
  return draftFromEntry(
    {
      txn_type: 'fx_spread',
      customer_id: accrual.customerId,
      source: 'remit',
      source_txn_id: fxSpreadSourceTxnId(accrual.orderId),
      txn_date: accrual.remittedOn,
      amount_usd: formatDecimal(accrual.amountUsd),
      memo: `FX spread on ${accrual.orderId} at ${accrual.fxSpreadBps.toString()} bps`,
      metadata: { order_id: accrual.orderId, fx_spread_bps: accrual.fxSpreadBps.toString(), order_usd: formatDecimal(accrual.orderUsd) },
    },
    txnId,
    NO_FEE,
  );
}

/** `fx_spread_settle` of a settled order (Dr 1010 / Cr 1300): exactly the accrued amount, dated the settlement's date. */
export function draftFxSpreadSettle(
  settle: { orderId: string; customerId: string; settlementId: string; settledOn: string; accruedUsd: Decimal },
  txnId: string,
): TransactionDraft {
  return draftFromEntry(
    {
      txn_type: 'fx_spread_settle',
      customer_id: settle.customerId,
      source: 'remit',
      source_txn_id: fxSpreadSettleSourceTxnId(settle.orderId),
      txn_date: settle.settledOn,
      amount_usd: formatDecimal(settle.accruedUsd),
      memo: `FX spread of ${settle.orderId} settled by ${settle.settlementId}`,
      metadata: { order_id: settle.orderId, settlement_id: settle.settlementId },
    },
    txnId,
    NO_FEE,
  );
}
