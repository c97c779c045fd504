import { expect } from 'chai';
import { getTransaction, postTransactions, upsertCustomer } from '../src/entry-points/store.js';
import { migrateDownTo, migrateToHead } from '../src/store/migrate.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { draft } from './helpers.js';

/**
 * Migration 20261211 moves recost's state out of `transactions` on a book in use: a trade left
 * pending must stay pending (else it is never costed), a stamp must keep its time, and a
 * transaction never pending keeps its posting time. Down and up again gives the same states.
 */
describe('migration 20261211_move_recost_state_out_of_transactions, on a book with postings', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  before(async () => {
    t = await createTestDatabase();
  });
  after(async () => {
    await t?.drop();
  });

  it('keeps each transaction pending, stamped or never pending as it was, both ways', async () => {
    await upsertCustomer(t.db, 'M-1', {});
    // Manual trades: on the way to head, migration 20270216 re-pends every stamped usbroker trade (by design).
    const trade = (quantity: string) =>
      draft({
        txn_type: 'buy_security',
        source: 'manual',
        customer_id: 'M-1',
        symbol: 'AAPL',
        quantity,
        amount_usd: '100.00',
      });
    const [pending, stamped, deposit] = [trade('1'), trade('2'), draft({ customer_id: 'M-1' })];
    await migrateDownTo(t.db, '20261210_index_transactions_by_pair');
    // The schema before the move: posted straight into the old columns, the draft's own way.
    for (const d of [pending!, stamped!, deposit!]) {
      await t.db.transaction(async (trx) => {
        await trx.raw(
          `INSERT INTO transactions (txn_id, customer_id, txn_type, source, source_txn_id, category, symbol, quantity, txn_date, amount_usd, recosted_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CASE WHEN ? THEN NULL ELSE now() END)`,
          [
            d.txnId,
            d.customerId,
            d.txnType,
            d.source,
            d.sourceTxnId,
            d.category,
            d.symbol,
            d.quantity?.toString() ?? null,
            d.txnDate,
            d.amountUsd.toFixed(2),
            d.pendingRecost,
          ],
        );
        for (const l of d.lines) {
          await trx.raw(
            'INSERT INTO journal_lines (txn_id, account_code, debit, credit, posting_kind, customer_id, txn_date) VALUES (?, ?, ?, ?, ?, ?, ?)',
            [d.txnId, l.accountCode, l.debit.toFixed(2), l.credit.toFixed(2), l.postingKind, d.customerId, d.txnDate],
          );
        }
      });
    }
    await t.db.raw(`UPDATE transactions SET recosted_at = '2026-03-01T10:00:00Z' WHERE txn_id = ?`, [stamped!.txnId]);

    await migrateToHead(t.db);
    const recostedAt = async (txnId: string) => (await getTransaction(t.db, { txnId }))!.transaction.recosted_at;
    const postedAt = async (txnId: string) => (await getTransaction(t.db, { txnId }))!.transaction.posted_at;
    expect(await recostedAt(pending!.txnId)).to.equal(null);
    expect((await recostedAt(stamped!.txnId))?.toISOString()).to.equal('2026-03-01T10:00:00.000Z');
    expect(await recostedAt(deposit!.txnId)).to.deep.equal(await postedAt(deposit!.txnId));
    const { rows } = await t.db.raw<{ rows: Array<{ txn_id: string }> }>(
      'SELECT txn_id FROM recost_states WHERE recosted_at IS NULL',
    );
    expect(
      rows.map((r) => r.txn_id),
      'recost finds the pending trade',
    ).to.deep.equal([pending!.txnId]);

    // And back: the column holds the same states again.
    await migrateDownTo(t.db, '20261210_index_transactions_by_pair');
    const { rows: old } = await t.db.raw<{
      rows: Array<{ txn_id: string; recosted_at: Date | null; posted_at: Date }>;
    }>('SELECT txn_id, recosted_at, posted_at FROM transactions');
    const byId = new Map(old.map((r) => [r.txn_id, r]));
    expect(byId.get(pending!.txnId)!.recosted_at).to.equal(null);
    expect(byId.get(stamped!.txnId)!.recosted_at?.toISOString()).to.equal('2026-03-01T10:00:00.000Z');
    expect(byId.get(deposit!.txnId)!.recosted_at).to.deep.equal(byId.get(deposit!.txnId)!.posted_at);
    await migrateToHead(t.db);
    expect((await postTransactions(t.db, [trade('3')])).inserted, 'posting works at head again').to.equal(1);
  });
});
