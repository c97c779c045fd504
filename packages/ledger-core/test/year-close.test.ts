import { expect } from 'chai';
import type { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import { draftYearClose, fiscalYearEndingOn } from '../src/domain/year-close.js';
import { Decimal } from '../src/entry-points/posting.js';
import { closePeriod, closeYear, reopenPeriod } from '../src/entry-points/store.js';
import type { TestDatabase } from '../src/testing/index.js';
import { draft, expectLedgerError, storeDatabase, writeDrafts } from './helpers.js';

const TODAY = '2027-02-01';

/** An adjustment dated `date` moving `amount` from `credit` to `debit`. */
const adjustment = (date: string, debit: string, credit: string, amount: string) =>
  draft({
    txn_type: 'adjustment',
    customer_id: null,
    txn_date: date,
    amount_usd: amount,
    lines: [
      { account_code: debit, debit: amount, credit: '0' },
      { account_code: credit, debit: '0', credit: amount },
    ],
  });

describe('closing a financial year to retained earnings', function () {
  this.timeout(60_000);

  it('a financial year ends the day before its start month: April–March, calendar, and a leap February', async () => {
    expect(fiscalYearEndingOn('2026-03-31', 4)).to.deep.equal({ from: '2025-04-01', through: '2026-03-31' });
    expect(fiscalYearEndingOn('2025-12-31', 1)).to.deep.equal({ from: '2025-01-01', through: '2025-12-31' });
    expect(fiscalYearEndingOn('2024-02-29', 3)).to.deep.equal({ from: '2023-03-01', through: '2024-02-29' });
    for (const [through, month] of [
      ['2025-12-31', 4],
      ['2026-03-30', 4],
      ['2026-03-31', 1],
      ['2026-02-30', 3],
    ] as const) {
      const error = await expectLedgerError(() => fiscalYearEndingOn(through, month), 'validation_error');
      expect(error.details?.[0], `${through} on month ${month}`).to.include({ path: '/through' });
    }
  });

  it('the closing entry brings each revenue and expense balance to zero against 3000; a loss debits 3000; nothing to carry, no entry', () => {
    const fy = { from: '2025-01-01', through: '2025-12-31' };
    const balance = (accountCode: string, accountType: 'revenue' | 'expense' | 'asset', net: string) => ({
      accountCode,
      accountType,
      net: new Decimal(net),
    });
    const lines = (d: ReturnType<typeof draftYearClose>) =>
      d!.lines.map((l) => [l.accountCode, l.debit.toFixed(2), l.credit.toFixed(2), l.postingKind]);
    const profit = draftYearClose(
      [balance('1010', 'asset', '900'), balance('4010', 'revenue', '-500'), balance('5010', 'expense', '120')],
      { txnId: randomUUID(), fy, sequence: 1 },
    );
    expect(lines(profit)).to.deep.equal([
      ['4010', '500.00', '0.00', 'year_close'],
      ['5010', '0.00', '120.00', 'year_close'],
      ['3000', '0.00', '380.00', 'year_close'],
    ]);
    expect(profit).to.deep.include({
      txnType: 'year_close',
      txnDate: '2025-12-31',
      sourceTxnId: 'year_close:2025-12-31:1',
      metadata: { fy_start: '2025-01-01', fy_end: '2025-12-31', net_income_usd: '380.00' },
    });
    const loss = draftYearClose([balance('4030', 'revenue', '-10'), balance('5030', 'expense', '25')], {
      txnId: randomUUID(),
      fy,
      sequence: 2,
    });
    expect(lines(loss)).to.deep.equal([
      ['4030', '10.00', '0.00', 'year_close'],
      ['5030', '0.00', '25.00', 'year_close'],
      ['3000', '15.00', '0.00', 'year_close'],
    ]);
    expect(
      draftYearClose([balance('1010', 'asset', '5'), balance('4010', 'revenue', '0')], {
        txnId: randomUUID(),
        fy,
        sequence: 1,
      }),
    ).to.equal(null);
  });

  describe('in the database', () => {
    let t: TestDatabase;
    let db: Knex;

    before(async () => ({ t, db } = await storeDatabase()));
    after(() => t?.drop());

    it('admits into a closed day only the closing entry a year_closes row of that day names; every other posting stays refused', async () => {
      await writeDrafts(db, [adjustment('2025-06-01', '1010', '4010', '100.00')]);
      await closePeriod(db, { through: '2025-12-31', actor: 'api', today: TODAY });
      const unnamed = draftYearClose([{ accountCode: '4010', accountType: 'revenue', net: new Decimal('-100') }], {
        txnId: randomUUID(),
        fy: { from: '2025-01-01', through: '2025-12-31' },
        sequence: 9,
      })!;
      await expectLedgerError(() => writeDrafts(db, [unnamed]), 'period_closed');
      // A row naming it for another day does not admit it either.
      const refused = await db
        .transaction(async (trx) => {
          await trx('year_closes').insert({
            action: 'close',
            fy_start: '2024-01-01',
            fy_end: '2024-12-31',
            txn_id: unnamed.txnId,
            net_income_usd: '100',
            actor: 'sql',
          });
          await writeDrafts(trx, [unnamed]);
        })
        .catch((e: unknown) => e);
      expect((refused as { code?: string }).code).to.equal('period_closed');

      const { yearClose, created } = await closeYear(db, {
        through: '2025-12-31',
        fiscalYearStartMonth: 1,
        actor: 'api',
      });
      expect(created).to.equal(true);
      expect(yearClose).to.include({
        action: 'close',
        fy_start: '2025-01-01',
        fy_end: '2025-12-31',
        net_income_usd: '100.00',
      });
      const again = await closeYear(db, { through: '2025-12-31', fiscalYearStartMonth: 1, actor: 'api:someone' });
      expect(again).to.deep.equal({ yearClose, created: false });
      expect(await db('transactions').where('txn_type', 'year_close').count('* as n').first()).to.deep.equal({
        n: '1',
      });
      // Still nothing else posts into the closed day.
      await expectLedgerError(
        () => writeDrafts(db, [adjustment('2025-12-31', '1010', '4010', '1.00')]),
        'period_closed',
      );

      // Reopening the year's last day reverses the entry there; the year closes again with what it holds then.
      await reopenPeriod(db, { through: '2025-11-30', reason: 'a late invoice', actor: 'api' });
      await writeDrafts(db, [adjustment('2025-12-15', '5010', '1010', '30.00')]);
      await closePeriod(db, { through: '2025-12-31', actor: 'api', today: TODAY });
      const second = await closeYear(db, { through: '2025-12-31', fiscalYearStartMonth: 1, actor: 'api' });
      expect(second.created).to.equal(true);
      expect(second.yearClose.net_income_usd).to.equal('70.00');
      const totals = await db('journal_lines')
        .whereIn('account_code', ['3000', '4010', '5010'])
        .groupBy('account_code')
        .orderBy('account_code')
        .select('account_code', db.raw('sum(debit - credit)::text AS net'));
      expect(totals.map((t) => [t.account_code, Number(t.net)])).to.deep.equal([
        ['3000', -70],
        ['4010', 0],
        ['5010', 0],
      ]);
    });
  });
});
