import { ACCOUNT } from './accounts.js';
import { linesKey, linesOfKey } from './lines-key.js';
import { assert } from './errors.js';
import type { FeeSchedule } from './fees.js';
import { FifoLots, type LotRelief } from './lots.js';
import { Decimal, DIVISION_PLACES, roundToCents, ZERO } from './money.js';
import { fundingAccounts } from './posting-rules/funding.js';
import { linesFromLegs } from './posting-rules/index.js';
import type { Currency, JournalLineDraft, Leg } from './posting-rules/types.js';
import type { Source } from './sources.js';
import { draftReversal, type TransactionDraft } from './transaction.js';

/** What recost derives from, per trade (a `buy_security` or `sell_security`), as stored. */
export interface TradeFacts {
  /** A trade's txn_id; a split's split_id. */
  txnId: string;
  /** A trade, or a split of the pair's holding (stock_splits), which only changes the lots' shares. */
  txnType: 'buy_security' | 'sell_security' | 'stock_split';
  customerId: string;
  symbol: string;
  /** Where the trade came from: its customer fee is the schedule's for this source. */
  source: Source;
  /** The trade's own date (its `metadata.original_txn_date` when it was restated into an open period): its lots' acquisition or transfer date. */
  txnDate: string;
  /** Null when the trade was posted without one: it cannot be costed (flagged). A split's: the shares it adds (negative: removes). */
  quantity: Decimal | null;
  /** A buy's cost of the shares; a sell's proceeds. */
  amountUsd: Decimal;
  /** What the money moved in: a sell's fee is charged to the wallet of this currency (2010, AED 2020). */
  currency: Currency;
  /** AED per USD the trade converted at (null in USD): a fee charged to the AED wallet carries its AED amount at this rate. */
  fxRate: Decimal | null;
  /** The trade has a reversal: it holds no lot and has no derivation. */
  reversed: boolean;
  /** The customer's fee the trade was pinned to at ingest, or a sync stated (`metadata.brokerage_bps`); null: posted before pins. */
  brokerageBps: Decimal | null;
  /** The broker's cost the trade was pinned to at ingest (`metadata.broker_cost_bps`); null: posted before pins. */
  brokerCostBps: Decimal | null;
  /** The broker's actual itemised fee (`broker_fees`), when a daily ledger recorded one. */
  brokerFeeUsd: Decimal | null;
}

/** The fees recost applies to a trade that carries no pin (one posted before trades were pinned). */
export interface RecostPolicy {
  /** The customer's fee on a sell, by the trade's source (a buy's was posted at ingest), and the broker's cost. */
  feeSchedule: FeeSchedule;
}

/** Why recost leaves a trade pending (flagged): a closed set, so a job's result can declare it (docs/posting-rules.md#recost). */
export const RECOST_FLAG_REASONS = [
  'insufficient_lots',
  'missing_quantity',
  'earlier_sell_flagged',
  'split_not_applied',
] as const;
export type RecostFlagReason = (typeof RECOST_FLAG_REASONS)[number];

/** What recost wants a trade's derivation to be: its legs (possibly none), or flagged and left pending. */
export type TradeDerivation =
  | { txnId: string; kind: 'derived'; legs: Leg[]; lots: LotMatch[] }
  | { txnId: string; kind: 'flagged'; reason: RecostFlagReason; detail: Record<string, string> };

/**
 * What a sale took from one lot, remembered with the sale's derivation (its `metadata.lots`, which
 * the database copies into `lot_matches` as the entry is inserted): the tax reports read these and
 * never re-run FIFO. The transfer date is the derivation's (the sale's) trade date.
 */
export interface LotMatch extends LotRelief {
  /** The lot's buy's trade date (the acquisition date). */
  acquiredOn: string;
}

/** A sale's matches as stored in `metadata.lots`: decimal strings, in FIFO order. */
export const storedLots = (lots: LotMatch[]) =>
  lots.map((m) => ({
    lot_txn_id: m.lotTxnId,
    acquired_on: m.acquiredOn,
    quantity: m.quantity.toFixed(),
    cost_usd: m.cost.toFixed(2),
  }));

/** The matches as one string, compared with the effective derivation's (recost-store spells it in SQL alike). */
export const lotsKey = (lots: LotMatch[]) =>
  storedLots(lots)
    .map((m) => `${m.lot_txn_id}|${m.acquired_on}|${m.quantity}|${m.cost_usd}`)
    .join(';');

/**
 * `bps` basis points of `amount`, to the cent. A division by 10,000 is a shift of the point: exact
 * where long division is not cheap, and kept to the places a division keeps, so the figure is the
 * one `dividedBy(10_000)` gives (recost takes two or three of these a trade).
 */
const bpsOf = (amount: Decimal, bps: Decimal) =>
  roundToCents(amount.times(bps).shiftedBy(-4).decimalPlaces(DIVISION_PLACES, Decimal.ROUND_HALF_EVEN));

/** A fee charged to the AED wallet, in AED: its USD amount at the trade's rate (the rule a buy's unstated fee follows). */
function aedOfFee(trade: TradeFacts, feeUsd: Decimal): Decimal {
  assert(trade.fxRate !== null, `AED trade ${trade.txnId} states no rate`);
  return roundToCents(feeUsd.times(trade.fxRate));
}

/**
 * The sources whose broker keeps its own part of the customer's fee at execution (contract, Recost
 * revised): usbroker charges the customer's account the whole fee within the executed amount and
 * credits only the platform's part to the firm's account, so its cost is paid out of the omnibus
 * (1100) the moment the trade fills. The UAE custodian's and a manual trade's payable is settled
 * otherwise (an invoice, an adjustment), so it stays in 2340.
 */
export const SETTLED_AT_EXECUTION: readonly Source[] = ['usbroker'];

/**
 * The broker's cost of a trade, Dr 5010 / Cr 2340 (its itemised fee, else its pinned bps, else the
 * schedule's), and, where the broker kept it at execution, the payable settled out of the omnibus
 * (Dr 2340 / Cr 1100, `broker_cost_settled`) for the same amount: 2340 then holds only what is owed.
 */
function brokerCostLegs(trade: TradeFacts, policy: RecostPolicy): Leg[] {
  const amount = trade.brokerFeeUsd ?? bpsOf(trade.amountUsd, trade.brokerCostBps ?? policy.feeSchedule.brokerCostBps);
  const cost: Leg = {
    debit: ACCOUNT.brokerageCost,
    credit: ACCOUNT.payableToBroker,
    amount,
    postingKind: 'broker_cost',
  };
  if (!SETTLED_AT_EXECUTION.includes(trade.source)) return [cost];
  return [
    cost,
    { debit: ACCOUNT.payableToBroker, credit: ACCOUNT.omnibusCash, amount, postingKind: 'broker_cost_settled' },
  ];
}

/**
 * The derivations of one customer's trades in one symbol, given in the order recost processes
 * them (txn_date, then `metadata.executed_at` where a sync stated it, posted_at, txn_id). Pure and deterministic: the same history gives the same
 * derivations, which is what makes a re-cost give the books a first recost gives.
 *  - a buy: the broker's cost Dr 5010 / Cr 2340 (its customer fee was posted at ingest);
 *  - a sell: the customer's fee Dr 2010 (AED: 2020) / Cr 4010 (its pinned `brokerage_bps`, else its source's in the schedule), the broker's cost
 *    Dr 5010 / Cr 2340 (its itemised fee, else its pinned bps, else the schedule's), and the cost relief Dr 2100 / Cr 1200 at the FIFO lots' cost;
 *  - a buy's or sell's broker cost, where the broker kept it at execution (SETTLED_AT_EXECUTION: usbroker), settled
 *    at once: Dr 2340 / Cr 1100 for the same amount;
 *  - a reversed trade: nothing (no lot, no derivation);
 *  - a split: nothing posted; every open lot takes its part of the new holding at its cost (FifoLots.split). A split of
 *    nothing held flags every later sell of the pair (`split_not_applied`);
 *  - a sell of more than the lots hold, or a trade without a quantity: flagged, never a zero or
 *    partial cost; every later sell of the pair is flagged too (its lots depend on the flagged one).
 */
export function derivePair(trades: TradeFacts[], policy: RecostPolicy): TradeDerivation[] {
  const lots = new FifoLots();
  const acquiredOn = new Map<string, string>();
  let blockedBy: string | null = null;
  let blockedReason: RecostFlagReason = 'earlier_sell_flagged';
  return trades.map((trade): TradeDerivation => {
    assert(
      trade.customerId === trades[0]!.customerId && trade.symbol === trades[0]!.symbol,
      'derivePair takes one customer and symbol',
    );
    if (trade.reversed) return { txnId: trade.txnId, kind: 'derived', legs: [], lots: [] };
    if (trade.txnType === 'stock_split') {
      // Lots already in question stay so; a split of nothing held cannot be shared out.
      if (blockedBy === null && !lots.split(trade.quantity!)) {
        blockedBy = trade.txnId;
        blockedReason = 'split_not_applied';
      }
      return { txnId: trade.txnId, kind: 'derived', legs: [], lots: [] };
    }
    if (trade.quantity === null) {
      blockedBy ??= trade.txnId;
      return { txnId: trade.txnId, kind: 'flagged', reason: 'missing_quantity', detail: {} };
    }
    if (trade.txnType === 'buy_security') {
      lots.buy(trade.txnId, trade.quantity, trade.amountUsd);
      acquiredOn.set(trade.txnId, trade.txnDate);
      return { txnId: trade.txnId, kind: 'derived', legs: brokerCostLegs(trade, policy), lots: [] };
    }
    if (blockedBy !== null)
      return {
        txnId: trade.txnId,
        kind: 'flagged',
        reason: blockedReason,
        detail: blockedReason === 'split_not_applied' ? { split_id: blockedBy } : { flagged_txn_id: blockedBy },
      };
    const held = lots.held();
    const reliefs = lots.sell(trade.quantity);
    if (reliefs === null) {
      blockedBy = trade.txnId;
      return {
        txnId: trade.txnId,
        kind: 'flagged',
        reason: 'insufficient_lots',
        detail: { quantity: trade.quantity.toFixed(), held: held.toFixed() },
      };
    }
    return {
      txnId: trade.txnId,
      kind: 'derived',
      legs: sellLegs(
        trade,
        reliefs.reduce((sum, r) => sum.plus(r.cost), ZERO),
        policy,
      ),
      lots: reliefs.map((r) => ({ ...r, acquiredOn: acquiredOn.get(r.lotTxnId)! })),
    };
  });
}

/**
 * A sell's derivation: the customer's fee Dr 2010 (AED: 2020) / Cr 4010, the broker's cost, and
 * the cost relief Dr 2100 / Cr 1200 of `relief`, the cost of the FIFO lots it sold.
 */
function sellLegs(trade: TradeFacts, relief: Decimal, policy: RecostPolicy): Leg[] {
  const fee = bpsOf(trade.amountUsd, trade.brokerageBps ?? policy.feeSchedule.customerFeeBps(trade.source));
  return [
    {
      debit: fundingAccounts(trade.currency).wallet,
      credit: ACCOUNT.brokerageRevenue,
      amount: fee,
      postingKind: 'brokerage_fee',
      ...(trade.currency === 'AED' && { nativeAmount: aedOfFee(trade, fee) }),
    },
    ...brokerCostLegs(trade, policy),
    {
      debit: ACCOUNT.securitiesLiabilityEquities,
      credit: ACCOUNT.custodyEquities,
      amount: relief,
      postingKind: 'cost_relief',
    },
  ];
}

/**
 * A posted derivation of a trade that no reversal has cancelled: the one in effect, its lines as
 * domain/lines-key.ts writes them (the store reads them in that form: no line is parsed to compare).
 */
export interface EffectiveDerivation {
  txnId: string;
  txnDate: string;
  /** The date it stands for (its `metadata.original_txn_date` when restated): a sale's transfer date in `lot_matches`. */
  economicDate: string;
  linesKey: string;
  /** Its `metadata.lots` as lotsKey spells them ('' when it has none). */
  lotsKey: string;
}

/** What superseding asks for: ids for the new entries, and the version the next derivation takes. */
export interface SupersedeContext {
  trade: TradeFacts;
  effective: EffectiveDerivation | null;
  /** How many derivations the trade has had (reversed or not): the next is this plus one. */
  versions: number;
  newId: () => string;
}

/**
 * The entries that make the books hold `legs` (and a sale's lot `matches`) as the trade's
 * derivation: none when the effective derivation already has these lines and matches and stands
 * for the trade's own date (a derivation dated at a restated trade's posting day does not); else the effective one's reversal (if any) and the new
 * version (if it has lines). Corrections are entries, never edits.
 */
export function supersede(
  legs: Leg[],
  { trade, effective, versions, newId }: SupersedeContext,
  matches: LotMatch[] = [],
): TransactionDraft[] {
  const lines = linesFromLegs(legs);
  if (
    effective !== null &&
    effective.linesKey === linesKey(lines) &&
    effective.lotsKey === lotsKey(matches) &&
    effective.economicDate === trade.txnDate
  )
    return [];
  if (effective === null && lines.length === 0) return [];
  const drafts: TransactionDraft[] = [];
  if (effective !== null) {
    const superseded = linesOfKey(effective.linesKey);
    drafts.push(
      draftReversal(
        {
          txnId: effective.txnId,
          txnDate: effective.txnDate,
          txnType: 'recost',
          customerId: trade.customerId,
          symbol: trade.symbol,
          quantity: null,
          amountUsd: sumOfDebits(superseded),
          // The superseded lines come from their key, which has no AED amounts: the fee's was the same rule's.
          fxRate: trade.fxRate,
          lines: superseded,
        },
        newId(),
        effective.txnDate,
        `superseded by recost of ${trade.txnId}`,
      ),
    );
  }
  if (lines.length > 0) drafts.push(derivationDraft(trade, lines, versions + 1, newId(), matches));
  return drafts;
}

const sumOfDebits = (lines: JournalLineDraft[]) => lines.reduce((sum, l) => sum.plus(l.debit), ZERO);

/**
 * The derivation entry of a trade: linked to it by key (`<txn_id>:<version>`) and `metadata.recost_of`.
 * Its lines are not summed here to check they balance: recost's come from linesFromLegs, balanced
 * by construction, and the store asserts every draft it writes balances (then the database, at
 * commit); a first recost of 100,000 trades summed them twice, 12% of what it allocated.
 */
export function derivationDraft(
  trade: Pick<TradeFacts, 'txnId' | 'customerId' | 'symbol' | 'txnDate'>,
  lines: JournalLineDraft[],
  version: number,
  txnId: string,
  matches: LotMatch[] = [],
): TransactionDraft {
  return {
    txnId,
    customerId: trade.customerId,
    txnType: 'recost',
    source: 'recost',
    sourceTxnId: `${trade.txnId}:${version}`,
    category: 'recost',
    symbol: trade.symbol,
    quantity: null,
    txnDate: trade.txnDate,
    amountUsd: sumOfDebits(lines),
    originalCurrency: null,
    originalAmount: null,
    fxRate: null,
    pendingRecost: false,
    reversesTxnId: null,
    memo: null,
    metadata: { recost_of: trade.txnId, version, ...(matches.length > 0 ? { lots: storedLots(matches) } : {}) },
    requestHash: null,
    lines,
  };
}
