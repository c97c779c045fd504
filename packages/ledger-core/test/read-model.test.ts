import { expect } from 'chai';
import type { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import { draftFxSpreadSettle } from '../src/domain/remittances.js';
import { Decimal, draftFxSpread } from '../src/entry-points/posting.js';
import {
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
});
