import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { Decimal } from '../domain/money.js';
import type { Source } from '../domain/sources.js';
import { rependRecost } from './recost-states.js';

/** A forward or reverse split of a customer's holding, as its upstream reported it (stock_splits). */
export interface StockSplit {
  source: Source;
  /** The upstream row's key (usbroker: the SPLIT row's txn_no). */
  sourceTxnId: string;
  customerId: string;
  symbol: string;
  /** The effective (ex) date. */
  effectiveOn: string;
  /** Shares added (positive) or removed (negative), a decimal string. */
  shares: string;
  /** New shares per old one, a decimal string. */
  ratio: string;
  /** The upstream row as read. */
  sourceRow: Record<string, unknown>;
}

/** A split whose key was recorded before with other facts: the recorded one stands. */
export interface StockSplitConflict {
  sourceTxnId: string;
  customerId: string;
  /** The facts that differ from the recorded split's. */
  fields: string[];
}

interface StoredSplit {
  source_txn_id: string;
  customer_id: string;
  symbol: string;
  effective_on: string;
  shares: string;
  ratio: string;
}

const differences = (split: StockSplit, stored: StoredSplit): string[] =>
  [
    split.customerId !== stored.customer_id && 'customer_id',
    split.symbol !== stored.symbol && 'symbol',
    split.effectiveOn !== stored.effective_on && 'effective_on',
    !new Decimal(split.shares).isEqualTo(stored.shares) && 'shares',
    !new Decimal(split.ratio).isEqualTo(stored.ratio) && 'ratio',
  ].filter((f): f is string => f !== false);

/** What recording splits did: how many were recorded now, already recorded alike, or conflicting, and how many trades were re-pended. */
export interface StockSplitsRecorded {
  recorded: number;
  existing: number;
  conflicts: StockSplitConflict[];
  repending: number;
  /** The keys (source_txn_id) of the splits recorded now. */
  recordedKeys: ReadonlySet<string>;
}

/**
 * Records splits, once per key (a re-run records nothing; a key recorded with other facts is a
 * conflict and the recorded split stands), and, in the same database transaction, puts one trade
 * of each pair a new split touches back to pending recost: the next recost re-derives the pair
 * with the split applied to its lots (docs/posting-rules.md, "Stock splits").
 */
export async function recordStockSplits(db: Knex, splits: readonly StockSplit[]): Promise<StockSplitsRecorded> {
  if (splits.length === 0) return { recorded: 0, existing: 0, conflicts: [], repending: 0, recordedKeys: new Set() };
  return db.transaction(async (trx) => {
    const { rows: inserted } = await trx.raw<{ rows: Array<{ source_txn_id: string }> }>(
      `INSERT INTO stock_splits (split_id, source, source_txn_id, customer_id, symbol, effective_on, shares, ratio, source_row)
       SELECT s.split_id, s.source, s.source_txn_id, s.customer_id, s.symbol, s.effective_on, s.shares, s.ratio, s.source_row
         FROM json_to_recordset(?::json) AS s(split_id uuid, source text, source_txn_id text, customer_id text, symbol text,
                                               effective_on date, shares numeric, ratio numeric, source_row jsonb)
       ON CONFLICT (source, source_txn_id) DO NOTHING
       RETURNING source_txn_id`,
      [
        JSON.stringify(
          splits.map((s) => ({
            split_id: randomUUID(),
            source: s.source,
            source_txn_id: s.sourceTxnId,
            customer_id: s.customerId,
            symbol: s.symbol,
            effective_on: s.effectiveOn,
            shares: s.shares,
            ratio: s.ratio,
            source_row: s.sourceRow,
          })),
        ),
      ],
    );
    const isNew = new Set(inserted.map((r) => r.source_txn_id));
    const seen = splits.filter((s) => !isNew.has(s.sourceTxnId));
    const stored = new Map(
      seen.length === 0
        ? []
        : (
            await trx.raw<{ rows: StoredSplit[] }>(
              `SELECT source_txn_id, customer_id, symbol, effective_on::text, shares::text, ratio::text
                 FROM stock_splits WHERE source = ? AND source_txn_id = ANY(?::text[])`,
              [seen[0]!.source, seen.map((s) => s.sourceTxnId)],
            )
          ).rows.map((r) => [r.source_txn_id, r]),
    );
    const conflicts = seen
      .map((s) => ({
        sourceTxnId: s.sourceTxnId,
        customerId: s.customerId,
        fields: differences(s, stored.get(s.sourceTxnId)!),
      }))
      .filter((c) => c.fields.length > 0);
    const pairs = splits
      .filter((s) => isNew.has(s.sourceTxnId))
      .map((s) => ({ customer_id: s.customerId, symbol: s.symbol }));
    // One pending trade is enough for recost to re-derive its whole pair.
    const repending =
      pairs.length === 0
        ? 0
        : await rependRecost(
            trx,
            `SELECT DISTINCT ON (t.customer_id, t.symbol) t.txn_id, t.txn_date, t.posted_at
               FROM json_to_recordset(?::json) AS p(customer_id text, symbol text)
               JOIN transactions t ON t.customer_id = p.customer_id AND t.symbol = p.symbol
              WHERE t.txn_type IN ('buy_security', 'sell_security')
              ORDER BY t.customer_id, t.symbol, t.txn_date DESC, t.posted_at DESC`,
            [JSON.stringify(pairs)],
          );
    const existing = seen.length - conflicts.length;
    return { recorded: inserted.length, existing, conflicts, repending, recordedKeys: isNew };
  });
}
