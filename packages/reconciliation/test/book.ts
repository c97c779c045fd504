import { NO_UPSTREAMS } from '@ledger/upstream-clients';
import { randomUUID } from 'node:crypto';
import { Decimal, draftFromEntry, FeeSchedule, type EntryRequest } from '@ledger/core/posting';
import { postEntry, upsertCustomer, type Db } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import {
  CHECKS,
  DEFAULT_RECON_SETTINGS,
  FULL_SWEEP_SETTINGS,
  runReconciliation,
  type Check,
  type CheckOutcome,
  type ReconSettings,
} from '../src/index.js';

const POLICY = { feeSchedule: new FeeSchedule(new Decimal(22)) };

/** Posts a manual entry the way the api does. */
export async function post(db: Db, entry: Partial<EntryRequest> & Pick<EntryRequest, 'txn_type'>): Promise<string> {
  const txnId = randomUUID();
  await postEntry(
    db,
    draftFromEntry(
      {
        customer_id: 'C-1',
        source: 'manual',
        source_txn_id: `src-${txnId}`,
        txn_date: '2026-01-15',
        amount_usd: '100.00',
        ...entry,
      },
      txnId,
      POLICY,
    ),
  );
  return txnId;
}

/**
 * A small clean book: C-1 deposits 1,000.00 and buys 10 AAPL for 500.00; C-2 deposits 200.00 and
 * withdraws 50.00. Checks run as the runtime role (what production grants), corruption as the owner.
 */
export async function cleanBook(): Promise<TestDatabase & { runtimeDb: Db }> {
  const t = await createTestDatabase({ runtimeRole: true });
  await upsertCustomer(t.db, 'C-1', { name: 'One' });
  await upsertCustomer(t.db, 'C-2', { name: 'Two' });
  await post(t.db, { txn_type: 'deposit', amount_usd: '1000.00', source_txn_id: 'dep-1' });
  await post(t.db, {
    txn_type: 'buy_security',
    amount_usd: '500.00',
    symbol: 'AAPL',
    quantity: '10',
    source_txn_id: 'buy-1',
  });
  await post(t.db, { txn_type: 'deposit', customer_id: 'C-2', amount_usd: '200.00', source_txn_id: 'dep-2' });
  await post(t.db, { txn_type: 'withdrawal', customer_id: 'C-2', amount_usd: '50.00', source_txn_id: 'wd-2' });
  return { ...t, runtimeDb: t.runtime!.db };
}

/**
 * Breaks the book on purpose, as only the schema owner can and only in a test: `sql` runs with
 * the ledger's triggers off (session_replication_role = replica), so neither the balance check
 * nor the guards nor the maintained totals see it.
 */
export async function corrupt(
  db: Db,
  sql: string,
  bindings: ReadonlyArray<string | number | null> = [],
): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw('SET LOCAL session_replication_role = replica');
    await trx.raw(sql, bindings);
  });
}

/** A line of a planted transaction: its account, sides, customer and day (the transaction's when absent) and posting kind. */
export interface PlantedLine {
  account: string;
  debit: string;
  credit: string;
  customerId?: string | null;
  txnDate?: string;
  postingKind?: string | null;
}

/**
 * Plants a transaction and its lines around the ledger's triggers (corrupt): no balance check,
 * guard or maintained total sees them, only a check that reads the rows. A manual `deposit` of
 * 5.00 for C-1 on 2026-01-20 unless `txn` says otherwise. Returns its txn_id.
 */
export async function plantTransaction(
  db: Db,
  txn: {
    sourceTxnId: string;
    customerId?: string | null;
    txnType?: string;
    symbol?: string | null;
    txnDate?: string;
    amountUsd?: string;
  },
  lines: readonly PlantedLine[],
): Promise<string> {
  const txnId = randomUUID();
  const customerId = txn.customerId === undefined ? 'C-1' : txn.customerId;
  const txnDate = txn.txnDate ?? '2026-01-20';
  await corrupt(
    db,
    `INSERT INTO transactions (txn_id, customer_id, txn_type, source, source_txn_id, category, symbol, txn_date, amount_usd)
     VALUES (?, ?, ?, 'manual', ?, 'funding', ?, ?, ?)`,
    [
      txnId,
      customerId,
      txn.txnType ?? 'deposit',
      txn.sourceTxnId,
      txn.symbol ?? null,
      txnDate,
      txn.amountUsd ?? '5.00',
    ],
  );
  await corrupt(
    db,
    `INSERT INTO journal_lines (txn_id, account_code, debit, credit, customer_id, posting_kind, txn_date) VALUES ${lines.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    lines.flatMap((line) => [
      txnId,
      line.account,
      line.debit,
      line.credit,
      line.customerId === undefined ? customerId : line.customerId,
      line.postingKind ?? null,
      line.txnDate ?? txnDate,
    ]),
  );
  return txnId;
}

/** The refusal a statement fails with ({code, constraint}), or null when it succeeds. */
export const refusal = (statement: Promise<unknown>): Promise<{ code?: string; constraint?: string } | null> =>
  statement.then(
    () => null,
    (e: unknown) => {
      const { code, constraint } = e as { code?: string; constraint?: string };
      return { code, constraint };
    },
  );

/** One check's outcome on the book, through the runner (lock, read-only snapshot, stored run), a full sweep unless `settings` say otherwise. */
export async function outcome(
  db: Db,
  check: Check | string,
  settings: ReconSettings = FULL_SWEEP_SETTINGS,
): Promise<CheckOutcome> {
  const found = typeof check === 'string' ? CHECKS.find((c) => c.name === check) : check;
  if (!found) throw new Error(`no check ${String(check)}`);
  const run = await runReconciliation(
    { db, book: 'ENTITY_UAE', settings, upstreams: NO_UPSTREAMS },
    { checks: [found] },
  );
  const [result] = run.results;
  if (!result) throw new Error(`${found.name} did not run`);
  return {
    status: result.status,
    metrics: result.metrics,
    variances: run.metadata.variances.map(({ check_name: _name, ...v }) => v),
  };
}

export const NO_VARIANCE = {
  txn_id: null,
  source_txn_id: null,
  customer_id: null,
  account_code: null,
  symbol: null,
  expected: null,
  actual: null,
  difference: null,
};

/** One check run directly at `now` (a later hour than the clock's, to age what is pending), as the runner runs it. */
export async function outcomeAt(
  db: Db,
  name: string,
  now: Date,
  settings: ReconSettings = DEFAULT_RECON_SETTINGS,
): Promise<CheckOutcome> {
  const check = CHECKS.find((c) => c.name === name);
  if (!check) throw new Error(`no check ${name}`);
  return db.transaction(
    (trx) => check.run({ db: trx, book: 'ENTITY_UAE', settings, upstreams: NO_UPSTREAMS, now, since: null }),
    { isolationLevel: 'repeatable read', readOnly: true },
  );
}
