import { expect } from 'chai';
import type { Knex } from 'knex';
import { Decimal } from '../src/entry-points/posting.js';
import { accountTotals, trialBalance } from '../src/entry-points/reports.js';
import { postEntry } from '../src/entry-points/store.js';
import type { TestDatabase } from '../src/testing/index.js';
import { draft, journalSums, storeDatabase } from './helpers.js';

const dec = (value: string | number | null | undefined) => new Decimal(String(value ?? 0));

describe('store', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => ({ t, db } = await storeDatabase()));
  after(async () => t?.drop());

  describe('accountTotals and trialBalance', () => {
    it('show every account of the chart with the journal’s totals, net and balance on the normal side', async () => {
      const totals = await accountTotals(db);
      expect(totals.map((a) => a.account_code)).to.deep.equal([
        '1010',
        '1020',
        '1100',
        '1200',
        '1210',
        '1300',
        '1500',
        '2010',
        '2020',
        '2100',
        '2110',
        '2340',
        '3000',
        '4010',
        '4020',
        '4030',
        '4040',
        '5010',
        '5030',
        '5090',
      ]);
      const journal = await journalSums(db);
      for (const a of totals) {
        const j = journal.get(a.account_code) ?? { debit: '0', credit: '0', lines: 0 };
        const net = dec(j.debit).minus(j.credit);
        expect(a.normal_side, a.account_code).to.equal(
          ['asset', 'expense'].includes(a.account_type) ? 'debit' : 'credit',
        );
        expect(
          [
            dec(a.debit).toFixed(),
            dec(a.credit).toFixed(),
            dec(a.net).toFixed(),
            dec(a.balance).toFixed(),
            a.line_count,
          ],
          a.account_code,
        ).to.deep.equal([
          j.debit,
          j.credit,
          net.toFixed(),
          (a.normal_side === 'debit' ? net : net.negated()).toFixed(),
          j.lines,
        ]);
        expect(a.debit).to.match(/^\d+\.\d{2,}$/);
      }
      expect(totals.filter((a) => a.dormant).map((a) => a.account_code)).to.deep.equal(['1210', '2110']);
    });

    it('move by exactly what a posting adds', async () => {
      const balance = async () => new Map((await accountTotals(db)).map((a) => [a.account_code, dec(a.balance)]));
      const before = await balance();
      await postEntry(db, draft({ amount_usd: '123.45' }));
      const after = await balance();
      for (const [code, b] of before) {
        const moved = after.get(code)!.minus(b).toFixed();
        expect(moved, code).to.equal(code === '1100' || code === '2010' ? '123.45' : '0');
      }
    });

    it('trialBalance puts each balance in one column and balances', async () => {
      const tb = await trialBalance(db);
      const totals = new Map((await accountTotals(db)).map((a) => [a.account_code, dec(a.net)]));
      expect(tb.balanced).to.equal(true);
      expect(dec(tb.total_debit).isEqualTo(tb.total_credit)).to.equal(true);
      expect(dec(tb.difference).isZero()).to.equal(true);
      expect(dec(tb.total_debit).isGreaterThan(0)).to.equal(true);
      let debit = dec(0);
      for (const row of tb.accounts) {
        const net = totals.get(row.account_code)!;
        expect(dec(row.debit_balance).toFixed(), row.account_code).to.equal(net.isGreaterThan(0) ? net.toFixed() : '0');
        expect(dec(row.credit_balance).toFixed(), row.account_code).to.equal(
          net.isLessThan(0) ? net.negated().toFixed() : '0',
        );
        debit = debit.plus(row.debit_balance);
      }
      expect(debit.isEqualTo(tb.total_debit)).to.equal(true);
      expect(tb.accounts.some((r) => dec(r.credit_balance).isGreaterThan(0))).to.equal(true);
    });
  });
});
