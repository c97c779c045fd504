import type { Knex } from 'knex';
import { Decimal } from '../domain/money.js';
import type { Currency } from '../domain/posting-rules/index.js';
import type { Source } from '../domain/sources.js';
import * as bulk from '../use-cases/post-in-bulk.js';
import type {
  HistoryTrade,
  PairsHistory,
  PendingTransaction,
  RecostFlag,
  RecostStore,
  TradeDerivations,
  TradePair,
} from '../use-cases/recost.js';
import { LOCK_KEYS, withAdvisoryLock } from './advisory-lock.js';
import { linesKeySql } from './columns/journal-lines.js';
import { economicDateSql } from './periods.js';
import { rependRecost, rependRecostByIds } from './recost-states.js';
import { ledgerStore } from './ledger-store.js';

/** Transactions stamped per UPDATE. */
const STAMP_CHUNK = 5_000;

/**
 * A window of pending transactions: the window taken from recost_states alone, then joined. Joined
 * first, on the statistics of a fresh import (a few hundred pending, where there are 100,000) the
 * planner looked up and sorted every pending transaction to keep a window of them: 3× the time.
 */
const PENDING_SQL = `
  SELECT s.txn_id, t.txn_type, t.customer_id, t.symbol, s.txn_date::text AS txn_date, s.posted_at::text AS posted_at
    FROM (SELECT txn_id, txn_date, posted_at FROM recost_states
           WHERE recosted_at IS NULL
             AND (?::boolean OR (txn_date, posted_at, txn_id) > (?::date, ?::timestamptz, ?::uuid))
           ORDER BY txn_date, posted_at, txn_id
           LIMIT ?) s
    JOIN transactions t USING (txn_id)
   ORDER BY s.txn_date, s.posted_at, s.txn_id`;

/**
 * The transactions of the pairs (customer, symbol) given as two arrays, as the rows aliased
 * `alias`: one scan of `transactions_pair_idx` per pair. The OFFSET fences the pair's scan off
 * from the type filter applied to it: on a fresh import's statistics the planner otherwise
 * scanned the whole table once per group of pairs, or every derivation once per pair by type.
 */
const ofPairs = (alias: string) => `unnest(?::text[], ?::text[]) AS pair(customer_id, symbol)
    CROSS JOIN LATERAL (SELECT * FROM transactions x WHERE x.symbol = pair.symbol AND x.customer_id = pair.customer_id OFFSET 0) ${alias}`;

/**
 * A trade's execution instant, when its sync stated one (`metadata.executed_at`, ISO-8601 UTC as
 * toISOString writes it, so text order is time order): within a day, lots follow execution, not
 * posting — two jobs post one customer's trades of a day in whatever order they run (a
 * full-portfolio-cost buy and a quantity sell of the same day). Anything else is ignored.
 */
const EXECUTED_AT = `CASE WHEN t.metadata->>'executed_at' ~ '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' THEN t.metadata->>'executed_at' END`;

/**
 * Every trade of the pairs and their splits (stock_splits), in recost order. A trade's date for
 * its lots is its own trade date (`economicDateSql`): a late record restated into an open period
 * acquires or transfers on the day it was traded, and takes its FIFO place there. A split goes
 * first on its effective date: that day's trades are in post-split shares. Only what TradeRow holds
 * is sent: the ordering columns (a posted_at read as a JS Date) stay in the database.
 */
const TRADES_SQL = `
  SELECT txn_id, txn_type, customer_id, symbol, source, txn_date, quantity, amount_usd, brokerage_bps, broker_cost_bps,
         original_currency, fx_rate, broker_fee_usd, pending, reversed, flagged
    FROM (
    SELECT t.txn_id, t.txn_type, t.customer_id, t.symbol, t.source, ${economicDateSql('t')}::text AS txn_date, t.quantity, t.amount_usd,
           t.metadata->>'brokerage_bps' AS brokerage_bps, t.metadata->>'broker_cost_bps' AS broker_cost_bps, t.original_currency, t.fx_rate,
           f.amount_usd AS broker_fee_usd,
           s.txn_id IS NOT NULL AND s.recosted_at IS NULL AS pending, r.txn_id IS NOT NULL AS reversed,
           fl.txn_id IS NOT NULL AS flagged, 1 AS day_rank, ${EXECUTED_AT} AS executed_at, t.posted_at
      FROM ${ofPairs('t')}
      LEFT JOIN recost_states s ON s.txn_id = t.txn_id
      LEFT JOIN recost_flags fl ON fl.txn_id = t.txn_id AND fl.cleared_at IS NULL
      LEFT JOIN transactions r ON r.reverses_txn_id = t.txn_id
      LEFT JOIN broker_fees f ON f.source = t.source AND f.source_txn_id = t.source_txn_id
     WHERE t.txn_type IN ('buy_security', 'sell_security')
    UNION ALL
    SELECT sp.split_id, 'stock_split', sp.customer_id, sp.symbol, sp.source, sp.effective_on::text, sp.shares, 0,
           NULL, NULL, NULL, NULL, NULL, false, false, false, 0, NULL, sp.recorded_at
      FROM unnest(?::text[], ?::text[]) AS pair(customer_id, symbol)
      JOIN stock_splits sp ON sp.customer_id = pair.customer_id AND sp.symbol = pair.symbol
  ) h
  ORDER BY customer_id, symbol, txn_date, day_rank, executed_at NULLS LAST, posted_at, txn_id`;

/** A derivation's `metadata.lots` as domain/recost.ts's lotsKey spells them ('' when none). */
const LOTS_KEY = `coalesce((SELECT string_agg(concat_ws('|', m->>'lot_txn_id', m->>'acquired_on', m->>'quantity', m->>'cost_usd'), ';' ORDER BY i)
                     FROM jsonb_array_elements(CASE WHEN jsonb_typeof(d.metadata->'lots') = 'array' THEN d.metadata->'lots' ELSE '[]' END) WITH ORDINALITY AS l(m, i)), '')`;

const DERIVATIONS_SQL = `
  SELECT d.metadata->>'recost_of' AS recost_of, d.txn_id, d.txn_date::text AS txn_date, ${economicDateSql('d')}::text AS economic_date,
         r.txn_id IS NOT NULL AS reversed,
         CASE WHEN r.txn_id IS NULL THEN ${linesKeySql('d.txn_id')} END AS lines_key,
         CASE WHEN r.txn_id IS NULL THEN ${LOTS_KEY} END AS lots_key
    FROM ${ofPairs('d')}
    LEFT JOIN transactions r ON r.reverses_txn_id = d.txn_id
   WHERE d.txn_type = 'recost'`;

interface TradeRow {
  txn_id: string;
  txn_type: HistoryTrade['txnType'];
  customer_id: string;
  symbol: string;
  source: Source;
  txn_date: string;
  quantity: string | null;
  amount_usd: string;
  brokerage_bps: string | null;
  broker_cost_bps: string | null;
  original_currency: Currency | null;
  fx_rate: string | null;
  broker_fee_usd: string | null;
  pending: boolean;
  reversed: boolean;
  flagged: boolean;
}

interface DerivationRow {
  recost_of: string;
  txn_id: string;
  txn_date: string;
  economic_date: string;
  reversed: boolean;
  /** The derivation's lines as domain/lines-key.ts spells them. */
  lines_key: string | null;
  lots_key: string | null;
}

/**
 * The pinned rates read so far: a book's trades carry a handful of distinct rates, and each trade
 * two, so each is parsed once (Decimals are immutable: one is shared by every trade pinned to it).
 * Bounded: should a book hold more distinct rates than this, the memo starts over.
 */
const pinnedRates = new Map<string, Decimal | null>();
const PINNED_RATES_MAX = 1_000;

/** A trade's pinned bps as ingest or a sync wrote it (a number or a decimal string); anything else is ignored. */
function bpsOf(value: string | null): Decimal | null {
  if (value === null) return null;
  let rate = pinnedRates.get(value);
  if (rate === undefined) {
    rate = /^\d{1,6}(\.\d{1,8})?$/.test(value) ? new Decimal(value) : null;
    if (pinnedRates.size >= PINNED_RATES_MAX) pinnedRates.clear();
    pinnedRates.set(value, rate);
  }
  return rate;
}

const tradeOf = (r: TradeRow): HistoryTrade => ({
  txnId: r.txn_id,
  txnType: r.txn_type,
  customerId: r.customer_id,
  symbol: r.symbol,
  source: r.source,
  txnDate: r.txn_date,
  quantity: r.quantity === null ? null : new Decimal(r.quantity),
  amountUsd: new Decimal(r.amount_usd),
  currency: r.original_currency ?? 'USD',
  fxRate: r.fx_rate === null ? null : new Decimal(r.fx_rate),
  reversed: r.reversed,
  brokerageBps: bpsOf(r.brokerage_bps),
  brokerCostBps: bpsOf(r.broker_cost_bps),
  brokerFeeUsd: r.broker_fee_usd === null ? null : new Decimal(r.broker_fee_usd),
  pending: r.pending,
  flagged: r.flagged,
});

function derivationsOf(rows: DerivationRow[]): Map<string, TradeDerivations> {
  const byTrade = new Map<string, TradeDerivations>();
  for (const row of rows) {
    const current = byTrade.get(row.recost_of) ?? { effective: null, versions: 0 };
    current.versions += 1;
    if (!row.reversed) {
      // Superseding reverses the one in effect before posting the next: at most one stands.
      if (current.effective !== null) throw new Error(`trade ${row.recost_of} has two derivations in effect`);
      current.effective = {
        txnId: row.txn_id,
        txnDate: row.txn_date,
        economicDate: row.economic_date,
        linesKey: row.lines_key ?? '',
        lotsKey: row.lots_key ?? '',
      };
    }
    byTrade.set(row.recost_of, current);
  }
  return byTrade;
}

/** Recost's store, in SQL on the book's database (use-cases/recost.ts declares it). */
export function recostStore(db: Knex): RecostStore {
  return {
    withRecostLock: (work) => withAdvisoryLock(db, LOCK_KEYS.recost, work),
    pendingAfter: async (after, size) => {
      const { rows } = await db.raw<{
        rows: Array<{
          txn_id: string;
          txn_type: string;
          customer_id: string | null;
          symbol: string | null;
          txn_date: string;
          posted_at: string;
        }>;
      }>(PENDING_SQL, [after === null, after?.txnDate ?? null, after?.postedAt ?? null, after?.txnId ?? null, size]);
      return rows.map((r): PendingTransaction => ({
        cursor: { txnDate: r.txn_date, postedAt: r.posted_at, txnId: r.txn_id },
        txnType: r.txn_type,
        customerId: r.customer_id,
        symbol: r.symbol,
      }));
    },
    pairsHistory: (pairs) => readPairsHistory(db, pairs),
    post: (drafts) => bulk.postTransactions(ledgerStore(db), drafts),
    stamp: (txnIds) => stampRecosted(db, txnIds),
    rependReversed: (txnIds) =>
      txnIds.length === 0
        ? Promise.resolve(0)
        : // Driven by the one-reversal-per-original index, its predicate spelled out so the planner takes
          // it (almost every id finds no reversal, and nothing is written); materialized, so it is never
          // probed once per stamped row (left to itself on fresh statistics, the planner did that: minutes).
          rependRecost(
            db,
            `WITH reversed AS MATERIALIZED (
               SELECT r.reverses_txn_id AS txn_id FROM transactions r
                WHERE r.reverses_txn_id = ANY(?::uuid[]) AND r.reverses_txn_id IS NOT NULL)
             SELECT t.txn_id, t.txn_date, t.posted_at FROM transactions t JOIN reversed USING (txn_id)`,
            [txnIds],
          ),
    flag: (flags, cleared) => recordFlags(db, flags, cleared),
    countPending: async () => {
      const { rows } = await db.raw<{ rows: Array<{ pending: string }> }>(
        'SELECT count(*) AS pending FROM recost_states WHERE recosted_at IS NULL',
      );
      return Number(rows[0]?.pending ?? 0);
    },
  };
}

/** The pairs (customer, symbol) as the two arrays `ofPairs` unnests. */
const pairsParams = (pairs: TradePair[]) => [pairs.map((p) => p.customerId), pairs.map((p) => p.symbol)];

/** Every trade of these pairs and their derivations. */
async function readPairsHistory(db: Knex, pairs: TradePair[]): Promise<PairsHistory> {
  // Statistics are stale right after a bulk import; JIT compiling these reads costs more than
  // running them. Every lookup of a trade's state, flag, fee or reversal is by a unique key, so a
  // memo of them never hits (measured: 0 hits in 20,000 a group), yet the planner put one on each;
  // and each is probed, not joined by hash or merge: the planner hashed the whole of recost_states
  // (every state of the book, spilling to disk) for each group's 10,000 trades, and sorted them
  // to merge with the reversals, so a group's read grew with the book (121–200 ms a group of 500
  // pairs against 88–105 ms probed, on a book of 100,000 trades; ADR 0009).
  // The two reads run at once, on two connections (the recost lock keeps other derivations from
  // being posted in between).
  const read = <Row>(sql: string, bindings: string[][]) =>
    db.transaction(async (trx) => {
      await trx.raw(`SELECT set_config('jit', 'off', true), set_config('enable_memoize', 'off', true),
                            set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)`);
      return (await trx.raw<{ rows: Row[] }>(sql, bindings)).rows;
    });
  const [trades, derivations] = await Promise.all([
    // The pairs twice: once for the trades, once for the splits.
    read<TradeRow>(TRADES_SQL, [...pairsParams(pairs), ...pairsParams(pairs)]),
    read<DerivationRow>(DERIVATIONS_SQL, pairsParams(pairs)),
  ]);
  return { trades: trades.map(tradeOf), derivations: derivationsOf(derivations) };
}

/** Stamps recosted_at on those still pending; answers how many it stamped. */
async function stampRecosted(db: Knex, txnIds: string[]): Promise<number> {
  // A stamp is a new version of a narrow row and one primary-key entry; chunks still go on
  // two connections at once (the machine's cores).
  const chunks = Array.from({ length: Math.ceil(txnIds.length / STAMP_CHUNK) }, (_, i) =>
    txnIds.slice(i * STAMP_CHUNK, (i + 1) * STAMP_CHUNK),
  );
  let stamped = 0;
  const stamper = async () => {
    for (let chunk = chunks.shift(); chunk !== undefined; chunk = chunks.shift()) {
      const result = await db.raw<{ rowCount: number }>(
        'UPDATE recost_states SET recosted_at = now() WHERE txn_id = ANY(?::uuid[]) AND recosted_at IS NULL',
        [chunk],
      );
      stamped += result.rowCount;
    }
  };
  await Promise.all([stamper(), stamper()]);
  return stamped;
}

/** Records why trades were left pending (re-pending them), and clears the flags of trades now derived. */
async function recordFlags(db: Knex, flags: RecostFlag[], cleared: string[]): Promise<void> {
  if (flags.length > 0) {
    await db.raw(
      `INSERT INTO recost_flags (txn_id, reason, detail)
       SELECT * FROM unnest(?::uuid[], ?::text[], ?::jsonb[])
       ON CONFLICT (txn_id) DO UPDATE SET reason = excluded.reason, detail = excluded.detail, flagged_at = now(), cleared_at = NULL`,
      [flags.map((f) => f.txnId), flags.map((f) => f.reason), flags.map((f) => JSON.stringify(f.detail))],
    );
    await rependRecostByIds(
      db,
      flags.map((f) => f.txnId),
    );
  }
  if (cleared.length > 0) {
    await db.raw('UPDATE recost_flags SET cleared_at = now() WHERE txn_id = ANY(?::uuid[]) AND cleared_at IS NULL', [
      cleared,
    ]);
  }
}
