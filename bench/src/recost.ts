import {
  Decimal,
  derivationDraft,
  draftFromEntry,
  FeeSchedule,
  newId,
  type TransactionDraft,
} from '@ledger/core/posting';
import { trialBalance } from '@ledger/core/reports';
import { postTransactions, recost, upsertCustomer } from '@ledger/core/store';
import type { TestDatabase } from '@ledger/core/testing';
import { v7 } from 'uuid';
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { rawCopyLinesPerSecond } from './bulk.js';
import { timed } from './cpu.js';

export interface RecostBenchResult {
  trades: number;
  pairs: number;
  derivations: number;
  /** The journal lines of those derivations. */
  derivationLines: number;
  firstSeconds: number;
  firstTradesPerSecond: number;
  fullRecostSeconds: number;
  fullRecostTradesPerSecond: number;
  rawCopyLinesPerSecond: number;
  /** The first recost's derivations (new keys) through postTransactions alone: the floor of its time. */
  derivationsAlonePostSeconds: number;
  derivationsAloneTradesPerSecond: number;
  /**
   * CPU seconds Postgres spent on the first recost, and on posting its derivations alone (null
   * off Linux): the latter over the machine's cores is the least time any first recost takes
   * here, however little else it did.
   */
  firstPostgresCpuSeconds: number | null;
  /** CPU seconds recost itself (this process: reading, deriving, building the entries) spent on the first recost. */
  firstRecostCpuSeconds: number;
  derivationsAlonePostgresCpuSeconds: number | null;
  /** CPU seconds this process spent posting them (encoding, judging): bulk posting's own part, which any first recost spends too. */
  derivationsAlonePosterCpuSeconds: number;
  cores: number;
}

const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL'];
const POLICY = { feeSchedule: new FeeSchedule(new Decimal(22)) };

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

/** A posted derivation as read back: numerics as text (never a JS number), its lines as JSON. */
interface DerivationRow {
  customer_id: string;
  symbol: string;
  txn_date: string;
  lines: Array<{ account_code: string; debit: string; credit: string; posting_kind: string | null }>;
}

/** The same entry as recost made it, derived for a stand-in trade of its own: a key no derivation has, so it is posted, not a duplicate. */
const derivationAgain = (row: DerivationRow): TransactionDraft =>
  derivationDraft(
    { txnId: randomUUID(), customerId: row.customer_id, symbol: row.symbol, txnDate: row.txn_date },
    row.lines.map((l) => ({
      accountCode: l.account_code,
      debit: new Decimal(l.debit),
      credit: new Decimal(l.credit),
      postingKind: l.posting_kind,
    })),
    1,
    newId(), // as recost's own ids
  );

/**
 * Posts `count` pending trades and measures the yardstick, raw COPY of their lines: answers its
 * lines per second. The trades' drafts are garbage once it returns: a worker holds no such batch
 * while it recosts, and the bench holding 100,000 (~200 MB) through the recosts had the garbage
 * collector mark them at every major collection, recost's CPU counted.
 */
async function postTrades(database: TestDatabase, count: number, customers: number): Promise<number> {
  const db = database.runtime?.db ?? database.db;
  for (let i = 0; i < customers; i += 1) await upsertCustomer(db, `BENCH-${i}`, {});
  const batch = trades(count, customers);
  const posted = await postTransactions(db, batch);
  if (posted.inserted !== count) throw new Error(`posted ${posted.inserted} of ${count} trades`);
  await database.db.raw('ANALYZE transactions, journal_lines');
  return rawCopyLinesPerSecond(database, batch);
}

/**
 * Recost of `count` pending trades posted through the bulk path, then a full re-cost of the same
 * history (every recosted_at nulled by one UPDATE, then recost): trades per second of each. The
 * yardstick: the first recost's derivations posted again alone, the fastest a first recost could be.
 */
export async function benchRecost(
  database: TestDatabase,
  count: number,
  customers = 1_000,
): Promise<RecostBenchResult> {
  const db = database.runtime?.db ?? database.db;
  const rawCopy = await postTrades(database, count, customers);

  const {
    result: first,
    seconds: firstSeconds,
    postgresCpuSeconds: firstPostgresCpuSeconds,
    ownCpuSeconds: firstRecostCpuSeconds,
  } = await timed(() => recost(db, { policy: POLICY, limit: null }));
  if (first.recosted !== count || first.flagged.length > 0 || first.remaining !== 0)
    throw new Error(`first recost: ${JSON.stringify({ ...first, flagged: first.flagged.length })}`);

  // Every trade's recosted_at, in one UPDATE (only trades have a recost state here: the
  // derivations themselves are never pending recost).
  await db.raw('UPDATE recost_states SET recosted_at = NULL');
  const { result: full, seconds: fullRecostSeconds } = await timed(() => recost(db, { policy: POLICY, limit: null }));
  if (full.recosted !== count || full.derivations_posted !== 0 || full.superseded !== 0 || full.remaining !== 0)
    throw new Error(`full re-cost changed the books: ${JSON.stringify(full)}`);
  if (!(await trialBalance(db)).balanced) throw new Error('trial balance does not balance');

  // The yardstick, after (a) and (b) so it disturbs neither: the derivations the first recost
  // posted, read back and posted again under new keys, as recost posts them (default chunking).
  const { rows } = await db.raw<{ rows: DerivationRow[] }>(`SELECT t.customer_id, t.symbol, t.txn_date,
      json_agg(json_build_object('account_code', l.account_code, 'debit', l.debit::text, 'credit', l.credit::text, 'posting_kind', l.posting_kind) ORDER BY l.line_id) AS lines
    FROM transactions t JOIN journal_lines l USING (txn_id) WHERE t.txn_type = 'recost' GROUP BY t.txn_id ORDER BY t.posted_at, t.txn_id`);
  const derivations = rows.map(derivationAgain);
  const {
    result: alone,
    seconds: derivationsAlonePostSeconds,
    postgresCpuSeconds: derivationsAlonePostgresCpuSeconds,
    ownCpuSeconds: derivationsAlonePosterCpuSeconds,
  } = await timed(() => postTransactions(db, derivations));
  if (alone.inserted !== first.derivations_posted)
    throw new Error(`derivations alone: posted ${alone.inserted} of ${first.derivations_posted}`);
  if (!(await trialBalance(db)).balanced) throw new Error('trial balance does not balance after the derivations alone');

  return {
    trades: count,
    pairs: customers * SYMBOLS.length,
    derivations: first.derivations_posted,
    derivationLines: derivations.reduce((n, d) => n + d.lines.length, 0),
    firstSeconds,
    firstTradesPerSecond: count / firstSeconds,
    fullRecostSeconds,
    fullRecostTradesPerSecond: count / fullRecostSeconds,
    rawCopyLinesPerSecond: rawCopy,
    derivationsAlonePostSeconds,
    derivationsAloneTradesPerSecond: count / derivationsAlonePostSeconds,
    firstPostgresCpuSeconds,
    firstRecostCpuSeconds,
    derivationsAlonePostgresCpuSeconds,
    derivationsAlonePosterCpuSeconds,
    cores: availableParallelism(),
  };
}
