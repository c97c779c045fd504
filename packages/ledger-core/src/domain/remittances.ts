import { assert } from './errors.js';
import { FeeSchedule } from './fees.js';
import { Decimal, formatDecimal, roundToCents, ZERO } from './money.js';
import { draftFromEntry, type TransactionDraft } from './transaction.js';

/**
 * LRS remittances of the India book (docs/posting-rules.md#india-remittances): their statuses,
 * which snapshot of an order wins, and the two postings a remittance makes. Pure.
 */

export const REMITTANCE_STATUSES = [
  'active',
  'action_required',
  'under_review',
  'paid',
  'failed',
  'cancelled',
  'expired',
] as const;
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
export const statusesOfRank = (rank: 0 | 1 | 2): RemittanceStatus[] =>
  REMITTANCE_STATUSES.filter((s) => REMITTANCE_STATUS_RANK[s] === rank);

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

/** The `source` of a remittance's postings: remit, the provider that moved the money. */
export const REMIT_SOURCE = 'remit';
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
  assert(
    orderUsd.isFinite() && orderUsd.isPositive() && fxSpreadBps.isFinite() && !fxSpreadBps.isNegative(),
    'order USD above zero, bps not negative',
  );
  return roundToCents(orderUsd.times(fxSpreadBps).dividedBy(10_000));
}

/** An FX spread is no trade: no customer fee applies. */
const NO_FEE = { feeSchedule: new FeeSchedule(ZERO) };

/** `fx_spread` of a paid order (Dr 1300 / Cr 4030), dated the remittance's date. */
export function draftFxSpread(
  accrual: {
    orderId: string;
    customerId: string;
    remittedOn: string;
    orderUsd: Decimal;
    fxSpreadBps: Decimal;
    amountUsd: Decimal;
  },
  txnId: string,
): TransactionDraft {
  return draftFromEntry(
    {
      txn_type: 'fx_spread',
      customer_id: accrual.customerId,
      source: REMIT_SOURCE,
      source_txn_id: fxSpreadSourceTxnId(accrual.orderId),
      txn_date: accrual.remittedOn,
      amount_usd: formatDecimal(accrual.amountUsd),
      memo: `FX spread on ${accrual.orderId} at ${accrual.fxSpreadBps.toString()} bps`,
      metadata: {
        order_id: accrual.orderId,
        fx_spread_bps: accrual.fxSpreadBps.toString(),
        order_usd: formatDecimal(accrual.orderUsd),
      },
    },
    txnId,
    NO_FEE,
  );
}

/** A settlement's fees, USD (remit's `fees.fx_fee` and `fees.txn_fee`): what the provider kept of the margin. */
export interface SettlementFees {
  fxFeeUsd: Decimal;
  txnFeeUsd: Decimal;
}

/**
 * `fx_spread_settle` of a settled order, dated the settlement's date: it clears exactly the
 * accrued amount from 1300; the settlement's fees are a cost (5030), the rest reaches the bank
 * (1010). An accrual of 8.57 settled with fees 1.14 + 5.00: Dr 1010 2.43 + Dr 5030 6.14 / Cr 1300 8.57.
 */
export function draftFxSpreadSettle(
  settle: {
    orderId: string;
    customerId: string;
    settlementId: string;
    settledOn: string;
    accruedUsd: Decimal;
    fees: SettlementFees;
  },
  txnId: string,
): TransactionDraft {
  const { fxFeeUsd, txnFeeUsd } = settle.fees;
  return draftFromEntry(
    {
      txn_type: 'fx_spread_settle',
      customer_id: settle.customerId,
      source: REMIT_SOURCE,
      source_txn_id: fxSpreadSettleSourceTxnId(settle.orderId),
      txn_date: settle.settledOn,
      amount_usd: formatDecimal(settle.accruedUsd),
      fee_usd: formatDecimal(fxFeeUsd.plus(txnFeeUsd)),
      memo: `FX spread of ${settle.orderId} settled by ${settle.settlementId}`,
      metadata: {
        order_id: settle.orderId,
        settlement_id: settle.settlementId,
        fx_fee_usd: formatDecimal(fxFeeUsd),
        txn_fee_usd: formatDecimal(txnFeeUsd),
      },
    },
    txnId,
    NO_FEE,
  );
}

/** What posting needs of an order: its status and settlement, as the status rule chose them (stored row or snapshot). */
export interface RemittanceFacts {
  orderId: string;
  customerId: string;
  status: RemittanceStatus;
  /** The order's USD (its quote's); null without a quote. */
  amountUsd: Decimal | null;
  remittedOn: string;
  settlementId: string | null;
  settlementStatus: string | null;
  settledAt: string | null;
  /** Known once a settlement is read; a settled one always has them. */
  settlementFees: SettlementFees | null;
}

/** An order's facts as a snapshot or a stored row has them (store/columns/remittances.ts; a row's `settled_at` is a Date). */
export interface RemittanceFields {
  order_id: string;
  customer_id: string;
  status: RemittanceStatus;
  amount_usd: string | null;
  remitted_on: string;
  settlement_id: string | null;
  settlement_status: string | null;
  settlement_fx_fee_usd: string | null;
  settlement_txn_fee_usd: string | null;
}

/**
 * What posting needs of an order: the stored row's facts where the snapshot is stale
 * (snapshotWins), else the snapshot's. A settlement once seen stays (the store keeps it the same
 * way), its fees filled in once read.
 */
export function remittanceFacts(
  snapshot: RemittanceFields & { settled_at: string | null },
  stored: (RemittanceFields & { settled_at: Date | null }) | undefined,
): RemittanceFacts {
  const fees = (fx: string | null, txn: string | null): SettlementFees | null =>
    fx === null || txn === null ? null : { fxFeeUsd: new Decimal(fx), txnFeeUsd: new Decimal(txn) };
  const usd = (amount: string | null) => (amount === null ? null : new Decimal(amount));
  const storedSettledAt = stored?.settled_at?.toISOString() ?? null;
  const storedFees = stored === undefined ? null : fees(stored.settlement_fx_fee_usd, stored.settlement_txn_fee_usd);
  const snapshotFees = fees(snapshot.settlement_fx_fee_usd, snapshot.settlement_txn_fee_usd);
  if (stored !== undefined && !snapshotWins(stored.status, snapshot.status)) {
    return {
      orderId: stored.order_id,
      customerId: stored.customer_id,
      status: stored.status,
      amountUsd: usd(stored.amount_usd),
      remittedOn: stored.remitted_on,
      settlementId: stored.settlement_id,
      settlementStatus: stored.settlement_status,
      settledAt: storedSettledAt,
      settlementFees: storedFees ?? snapshotFees,
    };
  }
  return {
    orderId: snapshot.order_id,
    customerId: snapshot.customer_id,
    status: snapshot.status,
    amountUsd: usd(snapshot.amount_usd),
    remittedOn: snapshot.remitted_on,
    settlementId: snapshot.settlement_id ?? stored?.settlement_id ?? null,
    settlementStatus: snapshot.settlement_status ?? stored?.settlement_status ?? null,
    settledAt: snapshot.settled_at ?? storedSettledAt,
    settlementFees: snapshotFees ?? storedFees,
  };
}

/** An order's posting as stored: which one, what it accrued, whether a reversal cleared it. */
export interface RemittancePostingSeen {
  order_id: string;
  txn_type: 'fx_spread' | 'fx_spread_settle';
  amount_usd: string;
  reversed: boolean;
}

/** The accruals a run posts, and the paid orders it could not accrue. */
export interface AccrualsDue {
  drafts: TransactionDraft[];
  /** Paid orders without a quote: no USD to take the spread of. */
  unpriced: string[];
  /** Paid orders whose spread rounds to 0.00. */
  belowACent: string[];
}

/**
 * The `fx_spread` accruals due: one per paid order that has none yet (reversed or not: an order
 * accrues once, ever), at `fxSpreadBps` of its USD; none while the bps is 0.
 */
export function accrualsDue(
  facts: readonly RemittanceFacts[],
  postings: readonly RemittancePostingSeen[],
  fxSpreadBps: Decimal,
  newId: () => string,
): AccrualsDue {
  const due: AccrualsDue = { drafts: [], unpriced: [], belowACent: [] };
  if (!fxSpreadBps.isGreaterThan(0)) return due;
  const accrued = new Set(postings.filter((p) => p.txn_type === 'fx_spread').map((p) => p.order_id));
  for (const f of facts) {
    if (f.status !== 'paid' || accrued.has(f.orderId)) continue;
    if (f.amountUsd === null) {
      due.unpriced.push(f.orderId);
      continue;
    }
    const amountUsd = fxSpreadUsd(f.amountUsd, fxSpreadBps);
    if (amountUsd.isZero()) {
      due.belowACent.push(f.orderId);
      continue;
    }
    due.drafts.push(
      draftFxSpread(
        {
          orderId: f.orderId,
          customerId: f.customerId,
          remittedOn: f.remittedOn,
          orderUsd: f.amountUsd,
          fxSpreadBps,
          amountUsd,
        },
        newId(),
      ),
    );
  }
  return due;
}

/**
 * The `fx_spread_settle` postings due: one per order whose settlement has landed (`settled`) and
 * that has an accrual no reversal cleared (stored, or `planned` in this run, for a dry run) and no
 * settlement posted yet: exactly the accrued amount, not recomputed, with the settlement's fees.
 */
export function settlementsDue(
  facts: readonly RemittanceFacts[],
  postings: readonly RemittancePostingSeen[],
  planned: readonly TransactionDraft[],
  newId: () => string,
): TransactionDraft[] {
  const plannedUsd = new Map(planned.map((d) => [String(d.metadata.order_id), d.amountUsd]));
  const drafts: TransactionDraft[] = [];
  for (const f of facts) {
    if (f.settlementStatus !== 'settled' || f.settlementId === null || f.settledAt === null) continue;
    const mine = postings.filter((p) => p.order_id === f.orderId);
    if (mine.some((p) => p.txn_type === 'fx_spread_settle')) continue;
    const accrual = mine.find((p) => p.txn_type === 'fx_spread');
    const accruedUsd =
      accrual !== undefined
        ? accrual.reversed
          ? null
          : new Decimal(accrual.amount_usd)
        : (plannedUsd.get(f.orderId) ?? null);
    if (accruedUsd === null) continue;
    assert(f.settlementFees !== null, `settlement ${f.settlementId} of ${f.orderId} is settled without its fees`);
    drafts.push(
      draftFxSpreadSettle(
        {
          orderId: f.orderId,
          customerId: f.customerId,
          settlementId: f.settlementId,
          settledOn: istDate(f.settledAt),
          accruedUsd,
          fees: f.settlementFees,
        },
        newId(),
      ),
    );
  }
  return drafts;
}
