import { setImmediate as nextTurn } from 'node:timers/promises';
import { assert, LedgerError } from '../domain/errors.js';
import { newId as timeOrderedId } from '../domain/ids.js';
import {
  derivePair,
  supersede,
  type EffectiveDerivation,
  type RecostFlagReason,
  type RecostPolicy,
  type TradeFacts,
} from '../domain/recost.js';
import type { TransactionDraft } from '../domain/transaction.js';
import type { BulkResult } from './post-in-bulk.js';

/** Where a pending transaction stands in recost's order: (txn_date, posted_at, txn_id). */
export interface RecostCursor {
  txnDate: string;
  /** posted_at as the database's own text: microseconds kept, unlike a JS Date. */
  postedAt: string;
  txnId: string;
}

/** A transaction pending recost (recosted_at null). */
export interface PendingTransaction {
  cursor: RecostCursor;
  txnType: string;
  customerId: string | null;
  symbol: string | null;
}

/** A customer's trades in one symbol: the unit of FIFO. */
export interface TradePair {
  customerId: string;
  symbol: string;
}

/** A trade of an affected pair, in recost order, whether it is pending, and whether a flag of recost's on it is open. */
export interface HistoryTrade extends TradeFacts {
  pending: boolean;
  flagged: boolean;
}

/** The posted derivations of a trade: the one in effect (not reversed), and how many it has had. */
export interface TradeDerivations {
  effective: EffectiveDerivation | null;
  versions: number;
}

export interface PairsHistory {
  /** Every trade of the pairs, grouped by pair, each pair in recost order. */
  trades: HistoryTrade[];
  derivations: Map<string, TradeDerivations>;
}

export interface RecostFlag {
  txnId: string;
  reason: RecostFlagReason;
  detail: Record<string, string>;
}

/**
 * What recost needs of the ledger's storage (store/recost-store.ts implements it in SQL): one
 * set-based read or write per call, never one per trade.
 */
export interface RecostStore {
  /** Runs `work` holding the book's recost lock: one recost at a time per book, whichever worker. */
  withRecostLock<T>(work: () => Promise<T>): Promise<T>;
  /** Up to `size` pending transactions after `after`, in recost order. */
  pendingAfter(after: RecostCursor | null, size: number): Promise<PendingTransaction[]>;
  /** Every trade of these pairs and their derivations, in two statements. */
  pairsHistory(pairs: TradePair[]): Promise<PairsHistory>;
  /** Posts entries through the bulk posting path. */
  post(drafts: TransactionDraft[]): Promise<BulkResult>;
  /** Stamps recosted_at on those still pending; answers how many it stamped. */
  stamp(txnIds: string[]): Promise<number>;
  /**
   * Nulls recosted_at again on those of these trades that have a reversal by now; answers how
   * many. Read unreversed and stamped, a trade reversed in between would keep a derivation that
   * no longer holds (its reversal found it still pending: nothing to null).
   */
  rependReversed(txnIds: string[]): Promise<number>;
  /** Records why trades were left pending (re-pending those stamped before), and clears the flags of trades now derived. */
  flag(flags: RecostFlag[], cleared: string[]): Promise<void>;
  countPending(): Promise<number>;
}

export interface RecostOptions {
  policy: RecostPolicy;
  /** At most this many pending transactions are taken, oldest first (null: all). */
  limit: number | null;
  /** Pending transactions taken per window (BATCH_SIZE). */
  batchSize?: number;
  /** Pairs re-derived per group (PAIRS_PER_GROUP). */
  pairsPerGroup?: number;
  progress?: (done: number, total: number) => void;
  /**
   * The ids of the entries recost posts; by default time-ordered (UUIDv7): a random id lands each
   * derivation on a random leaf of the journal's id indexes, which cost Postgres a third more (ADR 0009).
   */
  newId?: () => string;
}

export interface RecostResult {
  [key: string]: unknown;
  recosted: number;
  derivations_posted: number;
  superseded: number;
  flagged: Array<{ txn_id: string; reason: RecostFlagReason; detail: Record<string, string> }>;
  remaining: number;
}

const TRADE_TYPES = new Set(['buy_security', 'sell_security']);
const pairKey = (customerId: string, symbol: string) => `${customerId}\u0000${symbol}`;

/** The pairs of some pending transactions' trades, each once. */
function pairsOf(pending: PendingTransaction[]): TradePair[] {
  const pairs = new Map<string, TradePair>();
  for (const p of pending) {
    if (!TRADE_TYPES.has(p.txnType) || p.customerId === null || p.symbol === null) continue;
    pairs.set(pairKey(p.customerId, p.symbol), { customerId: p.customerId, symbol: p.symbol });
  }
  return [...pairs.values()];
}

/** Consecutive runs of one pair's trades (the history comes grouped by pair). */
function* byPair(trades: HistoryTrade[]): Iterable<HistoryTrade[]> {
  let start = 0;
  for (let i = 1; i <= trades.length; i += 1) {
    const a = trades[start]!;
    const b = trades[i];
    if (b === undefined || b.customerId !== a.customerId || b.symbol !== a.symbol) {
      yield trades.slice(start, i);
      start = i;
    }
  }
}

interface BatchOutcome {
  drafts: TransactionDraft[];
  superseded: number;
  derivations: number;
  stamp: string[];
  /** The pending trades stamped on a derivation made while they had no reversal. */
  stampedUnreversed: string[];
  flags: RecostFlag[];
  /** The stamped trades whose open flag no longer holds. */
  cleared: string[];
}

/**
 * One group of pairs: re-derives every trade of each pair from the start of its history (a
 * trade's cost depends on every earlier lot), compares with the derivation in effect, and
 * supersedes only what changed. The pairs' pending trades are stamped unless flagged.
 */
async function planPairs(history: PairsHistory, options: RecostOptions, newId: () => string): Promise<BatchOutcome> {
  const outcome: BatchOutcome = {
    drafts: [],
    superseded: 0,
    derivations: 0,
    stamp: [],
    stampedUnreversed: [],
    flags: [],
    cleared: [],
  };
  let planned = 0;
  for (const trades of byPair(history.trades)) {
    // Other groups' writes wait on this process between their statements: let them go on.
    if ((planned += 1) % PAIRS_PER_TURN === 0) await nextTurn();
    const derived = derivePair(trades, options.policy);
    derived.forEach((derivation, i) => {
      const trade = trades[i]!;
      assert(derivation.txnId === trade.txnId, 'derivations follow the trades');
      const current = history.derivations.get(trade.txnId) ?? { effective: null, versions: 0 };
      if (derivation.kind === 'flagged') {
        // Left pending: whatever was derived before no longer holds (its lots are in question).
        const drafts = supersede([], { trade, ...current, newId });
        // Flagged when pending, and when stamped but losing its derivation here (a sale whose only
        // lot was reversed since): nothing replaces it, so the flag re-pends it and the close
        // precondition sees it, where the stamp would hide a sale without a derivation.
        if (trade.pending || drafts.length > 0)
          outcome.flags.push({ txnId: trade.txnId, reason: derivation.reason, detail: derivation.detail });
        outcome.superseded += drafts.length;
        outcome.drafts.push(...drafts);
        return;
      }
      const drafts = supersede(derivation.legs, { trade, ...current, newId }, derivation.lots);
      for (const d of drafts) {
        if (d.txnType === 'reversal') outcome.superseded += 1;
        else outcome.derivations += 1;
      }
      outcome.drafts.push(...drafts);
      if (!trade.pending) return;
      outcome.stamp.push(trade.txnId);
      if (!trade.reversed) outcome.stampedUnreversed.push(trade.txnId);
      if (trade.flagged) outcome.cleared.push(trade.txnId);
    });
  }
  return outcome;
}

/** Posts a group's entries, then stamps its trades and records its flags; answers how many stay stamped. */
async function writeGroup(store: RecostStore, batch: BatchOutcome): Promise<number> {
  await postAll(store, batch.drafts);
  const stamped = await store.stamp(batch.stamp);
  // After the stamp, not before: a reversal committed since the pairs were read is seen here,
  // or its own re-pend (which waits for the stamp's row lock) comes after the stamp.
  const repended = await store.rependReversed(batch.stampedUnreversed);
  await store.flag(batch.flags, batch.cleared);
  return stamped - repended;
}

/** Consecutive slices of at most `size`. */
function* slices<T>(items: T[], size: number): Iterable<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

/** Posts a batch's entries; every one must be new (the recost lock rules out a concurrent writer of these keys). */
async function postAll(store: RecostStore, drafts: TransactionDraft[]): Promise<void> {
  if (drafts.length === 0) return;
  const result = await store.post(drafts);
  for (const o of result.outcomes) {
    if (o.outcome === 'rejected') throw o.reason;
    if (o.outcome !== 'inserted')
      throw new LedgerError(
        'conflict',
        `recost entry ${o.txnId} was already posted: another writer holds recost's keys`,
      );
  }
}

/**
 * Pairs re-derived per group: each group's history is read in two statements and its entries
 * posted in bulk; the next group's history is read while this one's are posted, and a group's
 * rows are garbage before the next is read (one window's whole history at once spent a fifth of
 * recost in the garbage collector).
 */
export const PAIRS_PER_GROUP = 500;

/**
 * Pairs planned per turn of the event loop. Planning a group takes this process a few hundred
 * milliseconds; in one piece, the writes in flight sat idle meanwhile, each waiting to send its
 * next statement (the lines' COPY, the stamp).
 */
const PAIRS_PER_TURN = 25;

/** Pairs of the first group of a window (at most PAIRS_PER_GROUP): posting starts once it is planned. */
const FIRST_GROUP_PAIRS = 50;

/** Pending transactions taken per window, by default. */
const BATCH_SIZE = 50_000;

/** The options with their defaults resolved, once, where the run starts. */
type RecostSettings = RecostOptions & Required<Pick<RecostOptions, 'batchSize' | 'pairsPerGroup'>>;

/**
 * Groups whose writes run at once. A group's entries go as one COPY on one connection, so with
 * one write in flight Postgres posted on one core while this process, done planning the next
 * group, waited: two keep both of a 2-core machine's cores posting, the next group planned
 * between them (ADR 0009). Groups hold disjoint pairs, so their writes never touch one row.
 */
export const WRITES_IN_FLIGHT = 2;

interface Tally {
  result: RecostResult;
  flagged: Map<string, RecostFlag>;
}

/** Counts a written group in the run's result. */
function tallied(tally: Tally, batch: BatchOutcome, stamped: number): void {
  tally.result.recosted += stamped;
  tally.result.derivations_posted += batch.derivations;
  tally.result.superseded += batch.superseded;
  for (const f of batch.flags) tally.flagged.set(f.txnId, f);
}

/**
 * Re-derives the pairs group by group: the next group's history is read while this one is
 * planned, and up to WRITES_IN_FLIGHT groups' writes run meanwhile. A group's entries are posted
 * before its trades are stamped: a run cut off in between leaves them pending, and the next run
 * finds their derivations in effect and only stamps them. Answers once every write has ended
 * (the next window reads what is still pending: these stamps first), and, should one fail, only
 * then throws: nothing of this run writes after it has let go of the recost lock.
 */
async function recostPairs(store: RecostStore, pairs: TradePair[], options: RecostSettings, tally: Tally) {
  const newId = options.newId ?? timeOrderedId;
  // A small group first: the cores wait on its read and planning before anything is posted.
  const first = Math.min(FIRST_GROUP_PAIRS, options.pairsPerGroup);
  const groups = [...slices(pairs.slice(0, first), first), ...slices(pairs.slice(first), options.pairsPerGroup)];
  const writes: Array<Promise<void>> = [];
  let reading = groups.length > 0 ? store.pairsHistory(groups[0]!) : null;
  try {
    for (let g = 0; reading !== null; g += 1) {
      const history = await reading;
      reading = g + 1 < groups.length ? store.pairsHistory(groups[g + 1]!) : null;
      // Awaited next round; should a write fail first, its failure is the one thrown.
      reading?.catch(() => undefined);
      const batch = await planPairs(history, options, newId);
      if (writes.length === WRITES_IN_FLIGHT) await writes.shift();
      const write = writeGroup(store, batch).then((stamped) => tallied(tally, batch, stamped));
      write.catch(() => undefined); // awaited when its turn comes, or below
      writes.push(write);
    }
    await Promise.all(writes);
  } finally {
    await Promise.allSettled([...writes, reading]);
  }
}

/**
 * Recost (contract: Recost): derives the cost-dependent lines of pending trades (the fee split,
 * a sell's FIFO cost relief), posts them as entries of their own, supersedes changed derivations
 * by reversing them, and stamps recosted_at. Idempotent: a second run posts nothing. Serialised
 * per book by the store's lock.
 */
export async function recost(store: RecostStore, given: RecostOptions): Promise<RecostResult> {
  const options: RecostSettings = {
    ...given,
    batchSize: given.batchSize ?? BATCH_SIZE,
    pairsPerGroup: given.pairsPerGroup ?? PAIRS_PER_GROUP,
  };
  const { batchSize } = options;
  assert(batchSize > 0 && options.pairsPerGroup > 0, 'batchSize and pairsPerGroup must be positive');
  return store.withRecostLock(async () => {
    const result: RecostResult = { recosted: 0, derivations_posted: 0, superseded: 0, flagged: [], remaining: 0 };
    const tally: Tally = { result, flagged: new Map() };
    const total = Math.min(await store.countPending(), options.limit ?? Number.MAX_SAFE_INTEGER);
    let taken = 0;
    let cursor: RecostCursor | null = null;
    while (options.limit === null || taken < options.limit) {
      const size = options.limit === null ? batchSize : Math.min(batchSize, options.limit - taken);
      const pending = await store.pendingAfter(cursor, size);
      if (pending.length === 0) break;
      taken += pending.length;
      cursor = pending[pending.length - 1]!.cursor;
      // Not trades: nothing to derive, only stamped.
      result.recosted += await store.stamp(
        pending.filter((p) => !TRADE_TYPES.has(p.txnType)).map((p) => p.cursor.txnId),
      );
      await recostPairs(store, pairsOf(pending), options, tally);
      options.progress?.(Math.min(taken, total), total);
    }
    result.flagged = [...tally.flagged.values()].map((f) => ({ txn_id: f.txnId, reason: f.reason, detail: f.detail }));
    result.remaining = await store.countPending();
    return result;
  });
}
