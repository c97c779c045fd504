import { expect } from 'chai';
import type { Knex } from 'knex';
import { Decimal, LedgerError, type TransactionDraft } from '../src/entry-points/posting.js';
import { createEntryBatcher, previewEntry, upsertCustomer, type PostOutcome } from '../src/entry-points/store.js';
import { postEntries } from '../src/ledger.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { booksSnapshot, draft, expectLedgerError } from './helpers.js';

/**
 * A draft the domain would never build but the database must refuse: its conversion rate is
 * zero (as the rate that rounded to nothing was). It stands for any refusal no earlier
 * check caught.
 */
function refusedByDatabase(): TransactionDraft {
  return {
    ...draft({ original_currency: 'AED', original_amount: '367.25', amount_usd: '100.00' }),
    fxRate: new Decimal(0),
  };
}

const PEG = new Decimal('3.6725');

describe('one refused entry fails alone', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => {
    t = await createTestDatabase({ poolMax: 10, runtimeRole: true });
    db = t.runtime!.db;
    await upsertCustomer(db, 'C-1', {});
  });
  after(async () => {
    await t?.drop();
  });

  it('postEntries posts every other entry of the batch and answers the refused one entry_refused, naming the constraint', async () => {
    const good = Array.from({ length: 5 }, () => draft());
    const bad = refusedByDatabase();
    const outcomes = await postEntries(db, [...good.slice(0, 2), bad, ...good.slice(2)]);
    const refused = outcomes[2];
    expect(refused).to.be.instanceOf(LedgerError);
    expect((refused as LedgerError).code).to.equal('entry_refused');
    expect((refused as LedgerError).details).to.deep.equal([
      { constraint: 'transactions_fx_rate_check', sqlstate: '23514' },
    ]);
    const posted = outcomes.filter((o): o is PostOutcome => !(o instanceof LedgerError));
    expect(posted.map((o) => o.created)).to.deep.equal([true, true, true, true, true]);
    expect(await db('transactions').where('txn_id', bad.txnId).first()).to.equal(undefined);
  });

  it('the entry batcher answers each concurrent caller on its own: the refused one rejects, the rest are posted', async () => {
    const batcher = createEntryBatcher(db);
    const good = Array.from({ length: 30 }, () => draft());
    const settled = await Promise.allSettled([...good.map((d) => batcher.post(d)), batcher.post(refusedByDatabase())]);
    expect(settled.slice(0, 30).map((s) => s.status)).to.deep.equal(good.map(() => 'fulfilled'));
    const last = settled[30];
    expect(last?.status).to.equal('rejected');
    expect(((last as PromiseRejectedResult).reason as LedgerError).code).to.equal('entry_refused');
  });

  it('the entry batcher refuses entries past its waiting limit with overloaded, at once, and posts the rest', async () => {
    const batcher = createEntryBatcher(db, { waitingMax: 3 });
    // The first goes out at once; three wait for the next batch; the fifth finds the list full.
    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => batcher.post(draft())));
    expect(settled.map((s) => s.status)).to.deep.equal([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);
    expect(((settled[4] as PromiseRejectedResult).reason as LedgerError).code).to.equal('overloaded');
  });

  it('a batch of one refused entry answers entry_refused and stores nothing', async () => {
    const before = await booksSnapshot(db);
    const [outcome] = await postEntries(db, [refusedByDatabase()]);
    expect((outcome as LedgerError).code).to.equal('entry_refused');
    expect(await booksSnapshot(db)).to.deep.equal(before);
  });

  describe('previewEntry', () => {
    it('refuses what the database refuses, as posting does, and stores nothing', async () => {
      const before = await booksSnapshot(db);
      await expectLedgerError(() => previewEntry(db, refusedByDatabase(), PEG), 'entry_refused');
      await expectLedgerError(() => previewEntry(db, draft({ customer_id: 'C-nobody' }), PEG), 'unknown_customer');
      expect(await booksSnapshot(db)).to.deep.equal(before);
    });

    it('answers the lines posting would store, with account names, and stores nothing', async () => {
      const before = await booksSnapshot(db);
      const d = draft({ amount_usd: '12.34' });
      const { created, transaction } = await previewEntry(db, d, PEG);
      expect(created).to.equal(true);
      expect(transaction.journal_lines.map((l) => [l.account_code, l.account_name, l.debit, l.credit])).to.deep.equal([
        ['1100', 'Omnibus cash at broker / custodian', '12.34', '0.00'],
        ['2010', 'Customer cash wallet (USD)', '0.00', '12.34'],
      ]);
      expect(await booksSnapshot(db)).to.deep.equal(before);
      expect(await db('transactions').where('txn_id', d.txnId).first()).to.equal(undefined);
    });

    it('refuses an unbalanced draft before any SQL, as posting does (the store asserts the balance)', async () => {
      const d = draft({ amount_usd: '5.00' });
      const unbalanced: TransactionDraft = {
        ...d,
        lines: [d.lines[0]!, { ...d.lines[1]!, credit: new Decimal('4.99') }],
      };
      // The store asserts balance before any SQL: a draft this broken is a bug, not an input.
      const error = await previewEntry(db, unbalanced, PEG).catch((e: unknown) => e);
      expect(String(error)).to.match(/invariant violated: transaction .* reached the store unbalanced/);
    });
  });
});
