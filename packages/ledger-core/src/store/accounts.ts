import type { Knex } from 'knex';
import { normalSide, type AccountType } from '../domain/accounts.js';
import { Decimal, formatDecimal } from '../domain/money.js';

export interface AccountTotal {
  account_code: string;
  name: string;
  account_type: AccountType;
  normal_side: 'debit' | 'credit';
  dormant: boolean;
  debit: string;
  credit: string;
  /** debit − credit: positive for a debit balance. */
  net: string;
  /** The balance on the account's normal side (net for assets and expenses, −net otherwise). */
  balance: string;
  line_count: number;
}

/** When to read balances: now, or as they stood at the end of a day (YYYY-MM-DD). */
export interface AsOf {
  asOf?: string;
}

/**
 * The chart of accounts with running totals, read from the maintained aggregates rather than the
 * journal: now from account_totals (a handful of rows per account), at the end of `asOf` from the
 * days up to it in account_daily_totals (rows grow with days and posting kinds, not with the journal).
 */
export async function accountTotals(db: Knex, { asOf }: AsOf = {}): Promise<AccountTotal[]> {
  const rows: Array<{
    account_code: string;
    name: string;
    account_type: AccountType;
    dormant: boolean;
    debit: string;
    credit: string;
    line_count: string;
  }> = await db('accounts as a')
    .modify((q) => {
      if (asOf === undefined) q.leftJoin('account_totals as x', 'x.account_code', 'a.account_code');
      else
        q.leftJoin('account_daily_totals as x', (on) =>
          on.on('x.account_code', 'a.account_code').andOn('x.day', '<=', db.raw('?::date', [asOf])),
        );
    })
    .groupBy('a.account_code')
    .orderBy('a.account_code')
    .select(
      'a.account_code',
      'a.name',
      'a.account_type',
      'a.dormant',
      db.raw('coalesce(sum(x.debit_total), 0)::text AS debit'),
      db.raw('coalesce(sum(x.credit_total), 0)::text AS credit'),
      db.raw('coalesce(sum(x.line_count), 0)::text AS line_count'),
    );
  return rows.map((row) => {
    const net = new Decimal(row.debit).minus(row.credit);
    const side = normalSide(row.account_type);
    return {
      ...row,
      normal_side: side,
      debit: formatDecimal(new Decimal(row.debit)),
      credit: formatDecimal(new Decimal(row.credit)),
      net: formatDecimal(net),
      balance: formatDecimal(side === 'debit' ? net : net.negated()),
      line_count: Number(row.line_count),
    };
  });
}

/** Trial balance: each account's balance in the debit or credit column, and both totals. */
export async function trialBalance(db: Knex, asOf: AsOf = {}) {
  const accounts = await accountTotals(db, asOf);
  const rows = accounts.map((a) => {
    const net = new Decimal(a.net);
    return {
      account_code: a.account_code,
      name: a.name,
      account_type: a.account_type,
      debit_balance: formatDecimal(net.isPositive() && !net.isZero() ? net : new Decimal(0)),
      credit_balance: formatDecimal(net.isNegative() ? net.negated() : new Decimal(0)),
    };
  });
  const totalDebit = rows.reduce((sum, r) => sum.plus(r.debit_balance), new Decimal(0));
  const totalCredit = rows.reduce((sum, r) => sum.plus(r.credit_balance), new Decimal(0));
  return {
    accounts: rows,
    total_debit: formatDecimal(totalDebit),
    total_credit: formatDecimal(totalCredit),
    difference: formatDecimal(totalDebit.minus(totalCredit)),
    balanced: totalDebit.isEqualTo(totalCredit),
  };
}
