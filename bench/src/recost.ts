import { Decimal, draftFromEntry, FeeSchedule, postTransactions, recost, trialBalance, upsertCustomer, type TransactionDraft } from '@ledger/core';
import type { TestDatabase } from '@ledger/core/testing';
import { v7 } from 'uuid';
import { rawCopyLinesPerSecond } from './bulk.js';

export interface RecostBenchResult {
  trades: number;
  pairs: number;
  derivations: number;
  firstSeconds: number;
  firstTradesPerSecond: number;
  fullRecostSeconds: number;
  fullRecostTradesPerSecond: number;
  rawCopyLinesPerSecond: number;
}

const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL'];
const POLICY = { feeSchedule: new FeeSchedule(new Decimal(22)), brokerCostBps: new Decimal(4) };

/**
 * `count` trades over `customers` × 5 symbols, in date order per pair: two buys of 3 shares
 * then sells of 2 (never more than held), deterministic amounts.
 */
function trades(count: number, customers: number): TransactionDraft[] {
  const policy = { feeSchedule: new FeeSchedule(new Decimal(22)) };
  const pairs = customers * SYMBOLS.length;
  return Array.from({ length: count }, (_, i) => {
    const pair = i % pairs;
    const step = Math.floor(i / pairs);
    const isBuy = step % 3 !== 2;
    const date = new Date(Date.UTC(2025, 0, 1 + step)).toISOString().slice(0, 10);
    return draftFromEntry(
      {
        txn_type: isBuy ? 'buy_security' : 'sell_security',
        customer_id: `BENCH-${pair % customers}`,
        source: 'usbroker',
        source_txn_id: `bench-trade-${i}`,
        txn_date: date,
        symbol: SYMBOLS[Math.floor(pair / customers) % SYMBOLS.length]!,
        quantity: isBuy ? '3' : '2',
        amount_usd: new Decimal(((i * 7_919) % 200_000) + 100).dividedBy(100).toFixed(2),
      },
      v7(),
      policy,
    );
  });
}

/**
 * Recost of `count` pending trades posted through the bulk path, then a full re-cost of the same
 * history (every recosted_at nulled by one UPDATE, then recost): trades per second of each.
 */
export async function benchRecost(database: TestDatabase, count: number, customers = 1_000): Promise<RecostBenchResult> {
  const db = database.runtime?.db ?? database.db;
  for (let i = 0; i < customers; i += 1) await upsertCustomer(db, `BENCH-${i}`, {});
  const batch = trades(count, customers);
  const posted = await postTransactions(db, batch);
  if (posted.inserted !== count) throw new Error(`posted ${posted.inserted} of ${count} trades`);
  await database.db.raw('ANALYZE transactions, journal_lines');

  let started = process.hrtime.bigint();
  const first = await recost(db, { policy: POLICY, limit: null });
  const firstSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (first.recosted !== count || first.flagged.length > 0 || first.remaining !== 0) throw new Error(`first recost: ${JSON.stringify({ ...first, flagged: first.flagged.length })}`);

  // Every trade's recosted_at, in one UPDATE (the derivations themselves are not pending recost).
  await db.raw("UPDATE transactions SET recosted_at = NULL WHERE txn_type IN ('buy_security', 'sell_security')");
  started = process.hrtime.bigint();
  const full = await recost(db, { policy: POLICY, limit: null });
  const fullRecostSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (full.recosted !== count || full.derivations_posted !== 0 || full.superseded !== 0 || full.remaining !== 0) throw new Error(`full re-cost changed the books: ${JSON.stringify(full)}`);
  if (!(await trialBalance(db)).balanced) throw new Error('trial balance does not balance');

  return {
    trades: count,
    pairs: customers * SYMBOLS.length,
    derivations: first.derivations_posted,
    firstSeconds,
    firstTradesPerSecond: count / firstSeconds,
    fullRecostSeconds,
    fullRecostTradesPerSecond: count / fullRecostSeconds,
    rawCopyLinesPerSecond: await rawCopyLinesPerSecond(database, batch),
  };
}
