import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import {
  Decimal,
  draftFromEntry,
  FeeSchedule,
  LedgerError,
  type EntryRequest,
  type JournalLineDraft,
  type LedgerErrorCode,
  type PostingPolicy,
  type TransactionDraft,
} from '../src/entry-points/posting.js';
import { upsertCustomer } from '../src/entry-points/store.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { writeJournal } from '../src/store/posting.js';

/** The fee schedule's default: 22 bps of notional. */
export const DEFAULT_POLICY: PostingPolicy = { feeSchedule: new FeeSchedule(new Decimal(22)) };

/** A valid manual entry (a USD deposit of 100.00 by C-1) with the given fields changed. */
export function entry(overrides: Partial<EntryRequest> = {}): EntryRequest {
  return {
    txn_type: 'deposit',
    customer_id: 'C-1',
    source: 'manual',
    source_txn_id: `key-${randomUUID()}`,
    txn_date: '2026-01-15',
    amount_usd: '100.00',
    ...overrides,
  };
}

export function draft(
  overrides: Partial<EntryRequest> = {},
  txnId: string = randomUUID(),
  policy = DEFAULT_POLICY,
): TransactionDraft {
  return draftFromEntry(entry(overrides), txnId, policy);
}

/** Runs `work` and returns what it threw; fails the test if it did not throw. */
export async function caught(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  expect.fail('expected an error, but none was thrown');
}

/** Asserts that `work` fails with a LedgerError of `code`, and returns it. */
export async function expectLedgerError(work: () => unknown, code: LedgerErrorCode): Promise<LedgerError> {
  const error = await caught(work);
  expect(error, String(error)).to.be.instanceOf(LedgerError);
  expect((error as LedgerError).code, (error as LedgerError).message).to.equal(code);
  return error as LedgerError;
}

/** What a database refusal carries: SQLSTATE and the constraint it names. */
export interface PgFailure {
  code?: string;
  constraint?: string;
  message: string;
}

export function asPgFailure(error: unknown): PgFailure {
  expect(error).to.be.instanceOf(Error);
  return error as PgFailure;
}

/** A journal line as (account, side, amount) text, for comparing sets of lines. */
export function lineKey(line: JournalLineDraft): string {
  const debit = new Decimal(line.debit);
  const credit = new Decimal(line.credit);
  return debit.isZero() ? `${line.accountCode} Cr ${credit.toFixed()}` : `${line.accountCode} Dr ${debit.toFixed()}`;
}

export function lineKeys(lines: JournalLineDraft[]): string[] {
  return lines.map(lineKey).sort();
}

/** The lines of `amount` moving from `credit` to `debit`, as lineKeys gives them (none for zero). */
export function legKeys(...legs: Array<[debit: string, credit: string, amount: Decimal]>): string[] {
  return legs
    .filter(([, , amount]) => !amount.isZero())
    .flatMap(([debit, credit, amount]) => [`${debit} Dr ${amount.toFixed()}`, `${credit} Cr ${amount.toFixed()}`])
    .sort();
}

/** debit − credit per account over some lines. */
export function netByAccount(
  lines: Array<{ accountCode: string; debit: Decimal; credit: Decimal }>,
): Map<string, Decimal> {
  const net = new Map<string, Decimal>();
  for (const l of lines)
    net.set(l.accountCode, (net.get(l.accountCode) ?? new Decimal(0)).plus(l.debit).minus(l.credit));
  return net;
}

export interface AccountSums {
  debit: string;
  credit: string;
  lines: number;
}

/** Per account, summed straight from the journal: the truth the maintained aggregate must equal. */
export async function journalSums(db: Knex): Promise<Map<string, AccountSums>> {
  const { rows } = await db.raw<{
    rows: Array<{ account_code: string; debit: string; credit: string; lines: string }>;
  }>(
    `SELECT account_code, sum(debit)::text AS debit, sum(credit)::text AS credit, count(*)::text AS lines
       FROM journal_lines GROUP BY account_code`,
  );
  return new Map(
    rows.map((r) => [
      r.account_code,
      { debit: new Decimal(r.debit).toFixed(), credit: new Decimal(r.credit).toFixed(), lines: Number(r.lines) },
    ]),
  );
}

/** Per account, summed over the slots of the maintained aggregate `account_totals`. */
export async function aggregateSums(db: Knex): Promise<Map<string, AccountSums>> {
  const { rows } = await db.raw<{
    rows: Array<{ account_code: string; debit: string; credit: string; lines: string }>;
  }>(
    `SELECT account_code, sum(debit_total)::text AS debit, sum(credit_total)::text AS credit, sum(line_count)::text AS lines
       FROM account_totals GROUP BY account_code HAVING sum(line_count) > 0`,
  );
  return new Map(
    rows.map((r) => [
      r.account_code,
      { debit: new Decimal(r.debit).toFixed(), credit: new Decimal(r.credit).toFixed(), lines: Number(r.lines) },
    ]),
  );
}

/** Row counts and per-account sums: equal snapshots mean nothing was stored in between. */
export async function booksSnapshot(db: Knex) {
  const { rows } = await db.raw<{ rows: Array<{ transactions: string; lines: string; customers: string }> }>(
    `SELECT (SELECT count(*) FROM transactions)::text AS transactions, (SELECT count(*) FROM journal_lines)::text AS lines,
            (SELECT count(*) FROM customers)::text AS customers`,
  );
  return {
    counts: rows[0],
    journal: Object.fromEntries(await journalSums(db)),
    aggregate: Object.fromEntries(await aggregateSums(db)),
  };
}

/**
 * A database of a store suite's own, as production runs (the runtime role, which owns nothing
 * and holds only the runtime grants), with customers C-1 and C-2. `t.runtime.db` is the role's.
 */
export async function storeDatabase(): Promise<{ t: TestDatabase; db: Knex }> {
  const t = await createTestDatabase({ poolMax: 25, runtimeRole: true });
  const db = t.runtime!.db;
  for (const id of ['C-1', 'C-2']) await upsertCustomer(db, id, {});
  return { t, db };
}

/** How many rows of `table` match `where`: what the database holds, not what a call answered. */
export async function rowCount(db: Knex, table: string, where: Record<string, unknown> = {}): Promise<number> {
  const [row] = await db(table).where(where).count<Array<{ n: string }>>({ n: '*' });
  return Number(row?.n ?? 0);
}

/** Writes drafts through the journal's one write (store/posting.ts, writeJournal), answering the ids inserted. */
export async function writeDrafts(db: Knex | Knex.Transaction, drafts: TransactionDraft[]): Promise<Set<string>> {
  return (await writeJournal(db, { drafts })).inserted;
}
