import { expect } from 'chai';
import type { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import { draftFxSpreadSettle } from '../src/domain/remittances.js';
import { Decimal, draftFxSpread } from '../src/entry-points/posting.js';
import { CUSTOMER_ACCOUNTS } from '../src/domain/accounts.js';
import {
  customerLinesSql,
  fxSpreadOrderIdSql,
  fxSpreadPostingSql,
  notReversedSql,
  postTransactions,
  reverseTransaction,
} from '../src/entry-points/store.js';
import type { TestDatabase } from '../src/testing/index.js';
import { storeDatabase } from './helpers.js';

describe('store: the read model', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => ({ t, db } = await storeDatabase()));
  after(async () => t?.drop());

  it('finds an order’s fx_spread and fx_spread_settle by the key the drafts are posted with; a reversed accrual is not in effect, its reversal is', async () => {
    const accrual = draftFxSpread(
      {
        orderId: 'order_rm',
        customerId: 'C-1',
        remittedOn: '2026-01-05',
        orderUsd: new Decimal('1142.40'),
        fxSpreadBps: new Decimal(75),
        amountUsd: new Decimal('8.57'),
      },
      randomUUID(),
    );
    const settle = draftFxSpreadSettle(
      {
        orderId: 'order_rm',
        customerId: 'C-1',
        settlementId: 'setl_rm',
        settledOn: '2026-01-07',
        accruedUsd: new Decimal('8.57'),
        fees: { fxFeeUsd: new Decimal('1.14'), txnFeeUsd: new Decimal('5.00') },
      },
      randomUUID(),
    );
    await postTransactions(db, [accrual, settle]);
    const keyed = async (kind: 'fx_spread' | 'fx_spread_settle') =>
      (
        await db.raw<{ rows: Array<{ txn_id: string; order_id: string }> }>(
          `SELECT t.txn_id::text AS txn_id, ${fxSpreadOrderIdSql('t')} AS order_id FROM transactions t
            WHERE ${fxSpreadPostingSql('t', '?', kind)}`,
          ['order_rm'],
        )
      ).rows;
    expect(await keyed('fx_spread')).to.deep.equal([{ txn_id: accrual.txnId, order_id: 'order_rm' }]);
    expect((await keyed('fx_spread_settle')).map((r) => r.txn_id)).to.deep.equal([settle.txnId]);

    const reversalId = randomUUID();
    await reverseTransaction(db, accrual.txnId, { txnId: reversalId, txnDate: '2026-01-09', memo: null });
    const { rows } = await db.raw<{ rows: Array<{ txn_id: string }> }>(
      `SELECT t.txn_id::text AS txn_id FROM transactions t WHERE t.txn_id = ANY(?::uuid[]) AND ${notReversedSql('t.txn_id')} ORDER BY 1`,
      [[accrual.txnId, settle.txnId, reversalId]],
    );
    expect(rows.map((r) => r.txn_id)).to.have.members([settle.txnId, reversalId]);
  });

  describe("a customer's lines (customerLinesSql)", () => {
    const accrual = (customerId: string, orderId: string) =>
      draftFxSpread(
        {
          orderId,
          customerId,
          remittedOn: '2026-02-05',
          orderUsd: new Decimal('1000.00'),
          fxSpreadBps: new Decimal(75),
          amountUsd: new Decimal('7.50'),
        },
        randomUUID(),
      );
    const linesOf = async (condition: string, bindings: string[], accountCode?: string) =>
      (
        await db.raw<{ rows: Array<{ line_id: string }> }>(
          `SELECT l.line_id::text AS line_id FROM journal_lines l WHERE ${condition}
             ${accountCode === undefined ? '' : 'AND l.account_code = ?'} ORDER BY l.line_id`,
          accountCode === undefined ? bindings : [...bindings, accountCode],
        )
      ).rows.map((r) => r.line_id);

    before(async () => {
      await postTransactions(db, [accrual('C-1', 'order_c1'), accrual('C-2', 'order_c2')]);
    });

    it("are the lines carrying the customer, on each of the book's accounts and on all of them, whichever path", async () => {
      const accounts: string[] = await db('accounts').pluck('account_code');
      for (const customer of ['C-1', 'C-2', 'C-none'])
        for (const accountCode of [undefined, ...accounts])
          expect(
            await linesOf(customerLinesSql('l', '?', accountCode), [customer], accountCode),
            `${customer} on ${accountCode ?? 'every account'}`,
          ).to.deep.equal(await linesOf('l.customer_id = ?', [customer], accountCode));
      expect(await linesOf(customerLinesSql('l', '?'), ['C-1'])).to.have.length.greaterThan(0);
    });

    it('read a customer account by journal_lines_customer_idx, and a firm account through the customer’s transactions', async () => {
      const planOf = (accountCode: string) =>
        db.transaction(async (trx) => {
          // The book is tiny: without this, any plan is a sequential scan.
          await trx.raw('SET LOCAL enable_seqscan = off');
          const { rows } = await trx.raw<{ rows: Array<{ 'QUERY PLAN': string }> }>(
            `EXPLAIN SELECT sum(l.debit) FROM journal_lines l WHERE ${customerLinesSql('l', "'C-1'", accountCode)} AND l.account_code = '${accountCode}'`,
          );
          return rows.map((r) => r['QUERY PLAN']).join('\n');
        });
      for (const accountCode of CUSTOMER_ACCOUNTS)
        expect(await planOf(accountCode)).to.contain('journal_lines_customer_idx');
      for (const accountCode of ['1300', '4030', '5010']) {
        const plan = await planOf(accountCode);
        expect(plan).to.contain('transactions_customer_idx');
        expect(plan).not.to.contain('journal_lines_customer_idx');
      }
    });
  });
});
