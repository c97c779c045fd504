import { expect } from 'chai';
import type { Knex } from 'knex';
import { Decimal } from '../src/entry-points/posting.js';
import { upsertCustomer } from '../src/entry-points/store.js';
import { migrateDownTo, migrateToHead } from '../src/store/migrate.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

/**
 * Migrations 20270116 and 20270117 on a book with AED postings made before lines kept their AED
 * amount: each AED line whose transaction states its AED figure exactly gets it (a reversal's
 * from its original), every other stays NULL (its USD figure only), and nothing else changes.
 */
describe('migrations 20270116/20270117: AED amounts of the AED lines of a book in use', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  before(async () => {
    t = await createTestDatabase();
  });
  after(async () => {
    await t?.drop();
  });

  type Line = [account: string, debit: string, credit: string, kind: string];
  const ids = {
    deposit: '0190c2d4-6c1e-7a2b-9f00-00000000d001',
    reversal: '0190c2d4-6c1e-7a2b-9f00-00000000d002',
    feedBuy: '0190c2d4-6c1e-7a2b-9f00-00000000d003',
    manualBuy: '0190c2d4-6c1e-7a2b-9f00-00000000d004',
  };

  /** Posts a transaction the way the book stored it before 20270116 (no AED amounts). */
  async function postLegacy(
    db: Knex,
    txn: {
      id: string;
      type: string;
      source: string;
      usd: string;
      aed: string | null;
      metadata?: object;
      reverses?: string;
    },
    lines: Line[],
  ) {
    await db.transaction(async (trx) => {
      await trx.raw(
        `INSERT INTO transactions (txn_id, customer_id, txn_type, source, source_txn_id, category, txn_date, amount_usd,
                                   original_currency, original_amount, fx_rate, metadata, reverses_txn_id, posted_by)
         VALUES (?, 'M-1', ?, ?, ?, 'legacy', '2026-01-05', ?, ?, ?, ?, ?, ?, 'legacy')`,
        [
          txn.id,
          txn.type,
          txn.source,
          txn.id,
          txn.usd,
          txn.aed === null ? null : 'AED',
          txn.aed,
          // The rate as it was stored: the quotient of the two amounts.
          txn.aed === null ? null : new Decimal(txn.aed).dividedBy(txn.usd).toString(),
          JSON.stringify(txn.metadata ?? {}),
          txn.reverses ?? null,
        ],
      );
      for (const [account, debit, credit, kind] of lines) {
        await trx.raw(
          `INSERT INTO journal_lines (txn_id, account_code, debit, credit, posting_kind, customer_id, txn_date)
           VALUES (?, ?, ?, ?, ?, 'M-1', '2026-01-05')`,
          [txn.id, account, debit, credit, kind],
        );
      }
    });
  }

  it('fills the AED amount where the transaction states it exactly, leaves the rest NULL, and changes nothing else', async () => {
    await upsertCustomer(t.db, 'M-1', {});
    await migrateDownTo(t.db, '20270103_create_close_prices');
    await postLegacy(t.db, { id: ids.deposit, type: 'deposit', source: 'manual', usd: '2.72', aed: '10.00' }, [
      ['1020', '2.72', '0', 'deposit'],
      ['2020', '0', '2.72', 'deposit'],
    ]);
    await postLegacy(
      t.db,
      { id: ids.reversal, type: 'reversal', source: 'ledger', usd: '2.72', aed: null, reverses: ids.deposit },
      [
        ['1020', '0', '2.72', 'deposit'],
        ['2020', '2.72', '0', 'deposit'],
      ],
    );
    // A uaefeed buy: gross AED 1,001.00, the feed's fee AED 1.50 in metadata.bundled_fee.
    await postLegacy(
      t.db,
      {
        id: ids.feedBuy,
        type: 'buy_security',
        source: 'uaefeed',
        usd: '272.57',
        aed: '1001.00',
        metadata: { bundled_fee: '1.50' },
      },
      [
        ['1200', '272.57', '0', 'security_cost'],
        ['1020', '0', '272.57', 'security_cost'],
        ['2020', '272.57', '0', 'securities_liability'],
        ['2100', '0', '272.57', 'securities_liability'],
        ['2020', '0.40', '0', 'brokerage_fee'],
        ['4010', '0', '0.40', 'brokerage_fee'],
      ],
    );
    // A manual AED buy whose fee was charged at bps of USD: no AED figure of it exists.
    await postLegacy(
      t.db,
      { id: ids.manualBuy, type: 'buy_security', source: 'manual', usd: '100.00', aed: '367.25' },
      [
        ['1200', '100.00', '0', 'security_cost'],
        ['1020', '0', '100.00', 'security_cost'],
        ['2020', '100.00', '0', 'securities_liability'],
        ['2100', '0', '100.00', 'securities_liability'],
        ['2020', '0.22', '0', 'brokerage_fee'],
        ['4010', '0', '0.22', 'brokerage_fee'],
      ],
    );
    const before = await t.db('journal_lines').orderBy('line_id').select('line_id', 'account_code', 'debit', 'credit');

    await migrateToHead(t.db);

    const lines = await t
      .db('journal_lines as l')
      .join('transactions as t', 't.txn_id', 'l.txn_id')
      .orderBy('l.line_id')
      .select('t.txn_type', 'l.account_code', 'l.posting_kind', 'l.native_currency', 'l.native_amount');
    expect(
      lines.map((l) => [l.txn_type, l.account_code, l.posting_kind, l.native_currency, l.native_amount]),
    ).to.deep.equal([
      ['deposit', '1020', 'deposit', 'AED', '10.00'],
      ['deposit', '2020', 'deposit', 'AED', '10.00'],
      ['reversal', '1020', 'deposit', 'AED', '10.00'],
      ['reversal', '2020', 'deposit', 'AED', '10.00'],
      ['buy_security', '1200', 'security_cost', null, null],
      ['buy_security', '1020', 'security_cost', 'AED', '1001.00'],
      ['buy_security', '2020', 'securities_liability', 'AED', '1001.00'],
      ['buy_security', '2100', 'securities_liability', null, null],
      ['buy_security', '2020', 'brokerage_fee', 'AED', '1.50'],
      ['buy_security', '4010', 'brokerage_fee', null, null],
      ['buy_security', '1200', 'security_cost', null, null],
      ['buy_security', '1020', 'security_cost', 'AED', '367.25'],
      ['buy_security', '2020', 'securities_liability', 'AED', '367.25'],
      ['buy_security', '2100', 'securities_liability', null, null],
      ['buy_security', '2020', 'brokerage_fee', null, null],
      ['buy_security', '4010', 'brokerage_fee', null, null],
    ]);
    expect(
      await t.db('journal_lines').orderBy('line_id').select('line_id', 'account_code', 'debit', 'credit'),
    ).to.deep.equal(before);
    // The journal is append-only again.
    await t.db.raw(`UPDATE journal_lines SET native_amount = 1 WHERE txn_id = ?`, [ids.manualBuy]).then(
      () => expect.fail('an update of the journal was accepted'),
      (error: Error) => expect(error.message).to.match(/append-only/),
    );
  });
});
