import type { Knex } from 'knex';
import { LedgerError } from '../domain/errors.js';
import type { Page } from '../domain/limits.js';
import { assertClosable } from '../domain/periods.js';
import { withPeriodLock } from './advisory-lock.js';
import { pagedQuery, type Paged } from './paged.js';
import { reopenYearsAfter } from './year-closes.js';

/**
 * A transaction's own (economic) date as SQL, `alias` naming the transactions row: the date it
 * was restated from (`metadata.original_txn_date`) when a closed period moved its posting to the
 * first open day, else its `txn_date`. Lots, holding periods and the tax reports' months and
 * years go by it (docs/period-close.md); the books (balances as of a day) go by `txn_date`.
 */
export const economicDateSql = (alias: string) =>
  `(CASE WHEN ${alias}.metadata->>'original_txn_date' ~ '^\\d{4}-\\d{2}-\\d{2}$' THEN (${alias}.metadata->>'original_txn_date')::date ELSE ${alias}.txn_date END)`;

/** A close or reopening of the books (period_closes, migrations/20261230). */
export interface PeriodClose {
  close_id: number;
  action: 'close' | 'reopen';
  /** The books are closed through this day after this row; null: nothing is closed. */
  through: string | null;
  reason: string | null;
  actor: string;
  created_at: string;
}

const COLUMNS = ['close_id', 'action', 'through', 'reason', 'actor', 'created_at'] as const;

const present = (row: Omit<PeriodClose, 'created_at'> & { created_at: Date }): PeriodClose => ({
  ...row,
  close_id: Number(row.close_id),
  created_at: row.created_at.toISOString(),
});

async function latest(db: Knex): Promise<PeriodClose | null> {
  const row = await db('period_closes').select(COLUMNS).orderBy('close_id', 'desc').first();
  return row ? present(row) : null;
}

/** The day the books are closed through, or null. */
export async function closedThrough(db: Knex): Promise<string | null> {
  return (await latest(db))?.through ?? null;
}

/** Closes and reopenings, newest first. */
export function listPeriodCloses(db: Knex, page: Page): Promise<Paged<PeriodClose>> {
  return pagedQuery<PeriodClose>(
    () => db('period_closes'),
    (query) => query.select(COLUMNS).orderBy('close_id', 'desc'),
    page,
  ).then((paged) => ({ ...paged, items: paged.items.map((row) => present(row as never)) }));
}

/**
 * Runs `decide` holding the period lock exclusively (postings wait, and wait for nothing else),
 * with the current close; writes the row it answers, if any, then runs `afterwards` in the same
 * database transaction, the new row in force.
 */
async function underPeriodLock(
  db: Knex,
  decide: (
    current: PeriodClose | null,
    trx: Knex.Transaction,
  ) => Promise<Omit<PeriodClose, 'close_id' | 'created_at'> | null>,
  afterwards?: (trx: Knex.Transaction, close: PeriodClose) => Promise<unknown>,
): Promise<{ close: PeriodClose | null; created: boolean }> {
  return withPeriodLock(db, async (trx) => {
    const current = await latest(trx);
    const row = await decide(current, trx);
    if (row === null) return { close: current, created: false };
    // A reopening is the database's function's to write (migration 20270207): it demands the actor and reason.
    const [inserted] =
      row.action === 'reopen'
        ? (
            await trx.raw<{ rows: Array<Omit<PeriodClose, 'created_at'> & { created_at: Date }> }>(
              `SELECT ${COLUMNS.join(', ')} FROM ledger_reopen_period(?::date, ?, ?)`,
              [row.through, row.reason, row.actor],
            )
          ).rows
        : await trx('period_closes').insert(row).returning(COLUMNS);
    const close = present(inserted);
    await afterwards?.(trx, close);
    return { close, created: true };
  });
}

/**
 * Closes the books through `through` (a day before `today`). Closing the day already closed
 * answers that close (`created` false); an earlier day is a conflict (only a reopening moves the
 * close back); so is a close while trades dated in it wait for recost: their derivations belong
 * to the period, so recost runs first.
 */
export async function closePeriod(
  db: Knex,
  { through, actor, today }: { through: string; actor: string; today: string },
): Promise<{ close: PeriodClose; created: boolean }> {
  assertClosable(through, today);
  const { close, created } = await underPeriodLock(db, async (current, trx) => {
    if (current?.through === through) return null;
    if (current?.through != null && through < current.through) {
      throw new LedgerError(
        'conflict',
        `the books are closed through ${current.through}: a close never moves backwards (reopen instead)`,
        [{ close_id: current.close_id, through: current.through }],
      );
    }
    const pending = await trx('recost_states')
      .whereNull('recosted_at')
      .where('txn_date', '<=', through)
      .count<Array<{ count: string }>>({ count: '*' });
    const count = Number(pending[0]?.count ?? 0);
    if (count > 0) {
      throw new LedgerError(
        'conflict',
        `${count} transactions dated on or before ${through} are pending recost: run recost (and clear its flags) before closing`,
        [{ pending_recost: count }],
      );
    }
    return { action: 'close', through, reason: null, actor };
  });
  return { close: close!, created };
}

/**
 * Reopens the books back to `through` (null: nothing stays closed), with the reason, audited as
 * a row of its own. Only a close moves forward; reopening to the current day or later, or with
 * nothing closed, is a conflict. A financial year closed to retained earnings whose last day
 * opens again is reopened with it, in the same database transaction: its closing entry is
 * reversed on that day (store/year-closes.ts), so the reopened year's balances are its own again.
 */
export async function reopenPeriod(
  db: Knex,
  { through, reason, actor }: { through: string | null; reason: string; actor: string },
): Promise<PeriodClose> {
  const reopenYears = (trx: Knex.Transaction) => reopenYearsAfter(trx, { through, reason, actor });
  const { close } = await underPeriodLock(
    db,
    async (current) => {
      if (current?.through == null || (through !== null && through >= current.through)) {
        throw new LedgerError(
          'conflict',
          `the books are ${current?.through == null ? 'not closed' : `closed through ${current.through}`}: a reopening moves the close back`,
          [{ close_id: current?.close_id ?? null, through: current?.through ?? null }],
        );
      }
      return { action: 'reopen', through, reason, actor };
    },
    reopenYears,
  );
  return close!;
}
