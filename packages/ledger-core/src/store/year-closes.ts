import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { assert, LedgerError } from '../domain/errors.js';
import { MEMO_LENGTH_MAX, type Page } from '../domain/limits.js';
import { Decimal, formatDecimal } from '../domain/money.js';
import { draftReversal } from '../domain/transaction.js';
import { draftYearClose, fiscalYearEndingOn, netIncomeOf, type YearEndBalance } from '../domain/year-close.js';
import { accountTotals } from './accounts.js';
import { withPeriodLock } from './advisory-lock.js';
import { pagedQuery, type Paged } from './paged.js';
import { writeJournal } from './posting.js';

/**
 * Closing a financial year to retained earnings, and reopening it (year_closes, migrations
 * 20270118-19; docs/period-close.md#closing-a-financial-year). Both run under the period lock,
 * so no posting dated in the year can cross them.
 */

/** A close of a financial year to 3000, or its reopening. */
export interface YearClose {
  year_close_id: number;
  action: 'close' | 'reopen';
  fy_start: string;
  fy_end: string;
  /** close: the closing entry (null: the year had nothing to carry); reopen: its reversal. */
  txn_id: string | null;
  /** Revenue less expenses of the year, carried to 3000 (negative: a loss). */
  net_income_usd: string;
  reason: string | null;
  actor: string;
  created_at: string;
}

const COLUMNS = [
  'year_close_id',
  'action',
  'fy_start',
  'fy_end',
  'txn_id',
  'net_income_usd',
  'reason',
  'actor',
  'created_at',
] as const;

type Row = Omit<YearClose, 'created_at' | 'year_close_id'> & { year_close_id: string | number; created_at: Date };

const present = (row: Row): YearClose => ({
  ...row,
  year_close_id: Number(row.year_close_id),
  net_income_usd: formatDecimal(new Decimal(row.net_income_usd)),
  created_at: row.created_at.toISOString(),
});

/** The years standing closed (the latest row of each is a close), latest year first. */
async function standingCloses(trx: Knex.Transaction): Promise<YearClose[]> {
  const rows: Row[] = await trx
    .select('*')
    .from(
      trx('year_closes')
        .distinctOn('fy_end')
        .select(COLUMNS)
        .orderBy([
          { column: 'fy_end', order: 'desc' },
          { column: 'year_close_id', order: 'desc' },
        ])
        .as('latest'),
    )
    .where('action', 'close')
    .orderBy('fy_end', 'desc');
  return rows.map(present);
}

const conflict = (message: string, details: Array<Record<string, unknown>>) =>
  new LedgerError('conflict', message, details);

/**
 * Closes the financial year ending on `through` (the last day of a year of the book, whose years
 * start in `fiscalYearStartMonth`): posts one entry, dated that day, bringing every revenue and
 * expense account's balance to zero against 3000. The day must be closed first (so nothing else
 * can move the year's balances after), and years close in order. Closing a year standing closed
 * answers its close (`created` false) and posts nothing.
 */
export async function closeYear(
  db: Knex,
  { through, fiscalYearStartMonth, actor }: { through: string; fiscalYearStartMonth: number; actor: string },
): Promise<{ yearClose: YearClose; created: boolean }> {
  const fy = fiscalYearEndingOn(through, fiscalYearStartMonth);
  return withPeriodLock(db, async (trx) => {
    const standing = await standingCloses(trx);
    const same = standing.find((y) => y.fy_end === fy.through);
    if (same) return { yearClose: same, created: false };
    const { rows } = await trx.raw<{ rows: Array<{ through: string | null }> }>(
      'SELECT ledger_closed_through()::text AS through',
    );
    const closedThrough = rows[0]?.through ?? null;
    if (closedThrough === null || closedThrough < fy.through) {
      throw conflict(
        `the books are ${closedThrough === null ? 'not closed' : `closed through ${closedThrough}`}: close the period through ${fy.through} first, so nothing else moves the year's balances`,
        [{ path: '/through', closed_through: closedThrough }],
      );
    }
    const later = standing.find((y) => y.fy_end > fy.through);
    if (later) {
      throw conflict(`the year ending ${later.fy_end} is closed: years close in order (reopen it first)`, [
        { path: '/through', year_close_id: later.year_close_id, fy_end: later.fy_end },
      ]);
    }
    const balances: YearEndBalance[] = (await accountTotals(trx, { asOf: fy.through })).map((a) => ({
      accountCode: a.account_code,
      accountType: a.account_type,
      net: new Decimal(a.net),
    }));
    const [earlier] = await trx('year_closes')
      .where({ fy_end: fy.through, action: 'close' })
      .count<Array<{ count: string }>>({ count: '*' });
    const draft = draftYearClose(balances, {
      txnId: randomUUID(),
      fy,
      sequence: Number(earlier?.count ?? 0) + 1,
    });
    // The row first: the period trigger admits the entry into the closed day only when a row names it.
    const [row] = await trx('year_closes')
      .insert({
        action: 'close',
        fy_start: fy.from,
        fy_end: fy.through,
        txn_id: draft?.txnId ?? null,
        net_income_usd: netIncomeOf(balances).toFixed(),
        actor,
      })
      .returning(COLUMNS);
    if (draft) {
      const { inserted } = await writeJournal(trx, { drafts: [{ ...draft, postedBy: actor }] });
      assert(inserted.has(draft.txnId), `the closing entry of ${fy.through} was posted`);
    }
    return { yearClose: present(row), created: true };
  });
}

/**
 * Reopens, in a reopening's database transaction (store/periods.ts), every year standing closed
 * whose last day is open again (after `through`; null: every year): its closing entry is reversed
 * on that day, by the reopening's actor with its reason, and a `reopen` row records it. Latest
 * year first. Closing the year again later posts a new closing entry of its balances then.
 */
export async function reopenYearsAfter(
  trx: Knex.Transaction,
  { through, reason, actor }: { through: string | null; reason: string; actor: string },
): Promise<YearClose[]> {
  const reopened: YearClose[] = [];
  for (const year of await standingCloses(trx)) {
    if (through !== null && year.fy_end <= through) continue;
    const reversal = year.txn_id === null ? null : await draftClosingReversal(trx, year.txn_id, year.fy_end, reason);
    const [row] = await trx('year_closes')
      .insert({
        action: 'reopen',
        fy_start: year.fy_start,
        fy_end: year.fy_end,
        txn_id: reversal?.txnId ?? null,
        net_income_usd: year.net_income_usd,
        reason,
        actor,
      })
      .returning(COLUMNS);
    if (reversal) {
      const { inserted } = await writeJournal(trx, { drafts: [{ ...reversal, postedBy: actor }] });
      assert(inserted.has(reversal.txnId), `the closing entry ${year.txn_id} was reversed`);
    }
    reopened.push(present(row));
  }
  return reopened;
}

/** The mirror of a closing entry, dated its own day (open again by now). */
async function draftClosingReversal(trx: Knex.Transaction, txnId: string, fyEnd: string, reason: string) {
  const original = await trx('transactions').where({ txn_id: txnId }).first('amount_usd');
  assert(original, `closing entry ${txnId} exists`);
  const lines: Array<{ account_code: string; debit: string; credit: string; posting_kind: string | null }> = await trx(
    'journal_lines',
  )
    .where({ txn_id: txnId })
    .orderBy('line_id')
    .select('account_code', 'debit', 'credit', 'posting_kind');
  return draftReversal(
    {
      txnId,
      txnDate: fyEnd,
      txnType: 'year_close',
      customerId: null,
      symbol: null,
      quantity: null,
      amountUsd: new Decimal(original.amount_usd),
      // A closing entry moves revenue, expense and 3000 only: no AED line, nothing at a rate.
      fxRate: null,
      lines: lines.map((l) => ({
        accountCode: l.account_code,
        debit: new Decimal(l.debit),
        credit: new Decimal(l.credit),
        postingKind: l.posting_kind,
      })),
    },
    randomUUID(),
    fyEnd,
    `reopens the financial year ending ${fyEnd}: ${reason}`.slice(0, MEMO_LENGTH_MAX),
  );
}

/** Closes and reopenings of years, newest first. */
export function listYearCloses(db: Knex, page: Page): Promise<Paged<YearClose>> {
  return pagedQuery<YearClose>(
    () => db('year_closes'),
    (query) => query.select(COLUMNS).orderBy('year_close_id', 'desc'),
    page,
  ).then((paged) => ({ ...paged, items: paged.items.map((row) => present(row as never)) }));
}
