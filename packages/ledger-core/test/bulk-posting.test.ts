import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { Decimal, LedgerError, type TransactionDraft } from '../src/entry-points/posting.js';
import { postTransactions, upsertCustomer, type BulkResult } from '../src/entry-points/store.js';
import type { LedgerStore } from '../src/use-cases/ports.js';
import { postTransactions as postTransactionsWith, type BulkOutcome } from '../src/use-cases/post-in-bulk.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { booksSnapshot, draft } from './helpers.js';

/** A bulk result's counts, without the outcome of each record. */
const counts = ({ outcomes: _outcomes, ...rest }: BulkResult) => rest;
const kinds = (result: BulkResult) => result.outcomes.map((o) => o.outcome);

/** A draft the database refuses by a rule no earlier check names (a zero conversion rate). */
const refusedByDatabase = (key: string): TransactionDraft => ({
  ...draft({
    source: 'usbroker',
    source_txn_id: key,
    original_currency: 'AED',
    original_amount: '367.25',
    amount_usd: '100.00',
  }),
  fxRate: new Decimal(0),
});

describe('bulk posting answers each record: inserted, duplicate, conflict or rejected', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => {
    // As production runs: a role that does not own the schema.
    t = await createTestDatabase({ poolMax: 10, runtimeRole: true });
    db = t.runtime!.db;
    for (const id of ['C-1', 'C-2']) await upsertCustomer(db, id, {});
  });
  after(async () => {
    await t?.drop();
  });

  const mixed = (prefix: string) => [
    draft({ source: 'usbroker', source_txn_id: `${prefix}-deposit`, amount_usd: '100.00' }),
    draft({
      source: 'usbroker',
      source_txn_id: `${prefix}-buy`,
      txn_type: 'buy_security',
      symbol: 'AAPL',
      quantity: '3',
      amount_usd: '450.10',
    }),
    draft({
      source: 'usbroker',
      source_txn_id: `${prefix}-aed`,
      customer_id: 'C-2',
      original_currency: 'AED',
      original_amount: '367.25',
      amount_usd: '100.00',
    }),
    draft({
      source: 'usbroker',
      source_txn_id: `${prefix}-fx`,
      txn_type: 'fx_spread',
      customer_id: null,
      amount_usd: '1.23',
      metadata: { b: 1, a: [1, 2] },
    }),
  ];

  it('answers inserted for each new record, in input order, with its id', async () => {
    const drafts = mixed('new');
    const result = await postTransactions(db, drafts, { chunkSize: 3 });
    expect(result.outcomes).to.deep.equal(drafts.map((d) => ({ outcome: 'inserted', txnId: d.txnId })));
    expect(counts(result)).to.deep.equal({ inserted: 4, duplicate: 0, conflict: 0, rejected: 0 });
  });

  it('run twice, answers every record duplicate the second time, naming the stored one, and the books are the same', async () => {
    const drafts = () => mixed('twice');
    const first = await postTransactions(db, drafts());
    const books = await booksSnapshot(db);
    const again = await postTransactions(db, drafts()); // new ids, as a fresh run of a sync job mints them
    expect(again.outcomes).to.deep.equal(
      first.outcomes.map((o) => ({ outcome: 'duplicate', txnId: (o as { txnId: string }).txnId })),
    );
    expect(counts(again)).to.deep.equal({ inserted: 0, duplicate: 4, conflict: 0, rejected: 0 });
    expect(await booksSnapshot(db)).to.deep.equal(books);
  });

  it('answers a re-sent key whose amount changed conflict, naming amount_usd and the lines; the stored one stands', async () => {
    const [original] = mixed('changed');
    await postTransactions(db, [original!]);
    const books = await booksSnapshot(db);
    const changed = draft({ source: 'usbroker', source_txn_id: 'changed-deposit', amount_usd: '100.01' });
    const result = await postTransactions(db, [changed]);
    expect(result.outcomes).to.deep.equal([
      { outcome: 'conflict', txnId: original!.txnId, fields: ['amount_usd', 'journal_lines'] },
    ]);
    expect(counts(result)).to.deep.equal({ inserted: 0, duplicate: 0, conflict: 1, rejected: 0 });
    expect(await booksSnapshot(db)).to.deep.equal(books);
  });

  it('names every fact that differs: customer, memo, metadata, type', async () => {
    const key = { source: 'usbroker' as const, source_txn_id: 'facts' };
    const original = draft({ ...key, memo: 'first', metadata: { desk: 'a' } });
    await postTransactions(db, [original]);
    const result = await postTransactions(db, [
      draft({ ...key, customer_id: 'C-2', memo: 'first', metadata: { desk: 'a' } }),
      draft({ ...key, memo: 'second', metadata: { desk: 'b' } }),
      draft({ ...key, txn_type: 'withdrawal', memo: 'first', metadata: { desk: 'a' } }),
    ]);
    expect(result.outcomes.map((o) => (o.outcome === 'conflict' ? o.fields : o.outcome))).to.deep.equal([
      ['customer_id'],
      ['memo', 'metadata'],
      ['txn_type', 'journal_lines'],
    ]);
  });

  it('compares by value: metadata in another key order and an adjustment with its lines in another order are duplicates', async () => {
    const adjustment = (lines: Array<{ account_code: string; debit: string; credit: string }>) =>
      draft({
        txn_type: 'adjustment',
        customer_id: null,
        source: 'usbroker',
        source_txn_id: 'by-value-adjustment',
        lines,
      });
    const lines = [
      { account_code: '1010', debit: '5.5', credit: '0' },
      { account_code: '3000', debit: '0', credit: '2.25' },
      { account_code: '4010', debit: '0', credit: '3.25' },
    ];
    const meta = (metadata: Record<string, unknown>) =>
      draft({ source: 'usbroker', source_txn_id: 'by-value-metadata', metadata });
    await postTransactions(db, [adjustment(lines), meta({ a: 1, b: { c: [1, 2], d: null } })]);
    const result = await postTransactions(db, [
      adjustment([...lines].reverse()),
      meta({ b: { d: null, c: [1, 2] }, a: 1 }),
    ]);
    expect(kinds(result)).to.deep.equal(['duplicate', 'duplicate']);
  });

  it('compares lines as the database spells them, whatever their posting kinds hold (separators, accents, emoji): same lines duplicate, one kind changed conflict', async () => {
    const adjustment = (kinds: [string, string]) =>
      draft({
        txn_type: 'adjustment',
        customer_id: null,
        source: 'usbroker',
        source_txn_id: 'odd-kinds',
        lines: [
          { account_code: '1010', debit: '1.10', credit: '0', posting_kind: kinds[0] },
          { account_code: '3000', debit: '0', credit: '1.1', posting_kind: kinds[1] },
        ],
      });
    await postTransactions(db, [adjustment(['a|b;c:1', 'écart 😀'])]);
    const again = await postTransactions(db, [adjustment(['a|b;c:1', 'écart 😀'])]);
    expect(kinds(again)).to.deep.equal(['duplicate']);
    const changed = await postTransactions(db, [adjustment(['a|b;c:1', 'écart 😁'])]);
    expect(changed.outcomes[0]).to.deep.include({ outcome: 'conflict', fields: ['journal_lines'] });
  });

  it('compares decimals by value: a stored 100.000 is the amount of a re-sent 100.00', async () => {
    const resent = draft({ source: 'usbroker', source_txn_id: 'stored-with-three-places', amount_usd: '100.00' });
    // Stored by another writer, spelling the same amounts with three places (the schema allows it: whole cents).
    const id = randomUUID();
    await db.transaction(async (trx) => {
      await trx.raw(
        `INSERT INTO transactions (txn_id, customer_id, txn_type, source, source_txn_id, category, txn_date, amount_usd)
         VALUES (?, 'C-1', 'deposit', 'usbroker', 'stored-with-three-places', 'funding', '2026-01-15', 100.000)`,
        [id],
      );
      await trx.raw(
        `INSERT INTO journal_lines (txn_id, account_code, debit, credit, posting_kind, customer_id, txn_date)
         VALUES (?, '1100', 100.000, 0, 'deposit', 'C-1', '2026-01-15'), (?, '2010', 0, 100.000, 'deposit', 'C-1', '2026-01-15')`,
        [id, id],
      );
    });
    expect((await postTransactions(db, [resent])).outcomes).to.deep.equal([{ outcome: 'duplicate', txnId: id }]);
  });

  it('answers a key repeated within one batch: the first inserted, a same copy duplicate, a changed one conflict', async () => {
    const first = draft({ source: 'usbroker', source_txn_id: 'twice-in-batch', amount_usd: '7.00' });
    const same = draft({ source: 'usbroker', source_txn_id: 'twice-in-batch', amount_usd: '7.00' });
    const changed = draft({ source: 'usbroker', source_txn_id: 'twice-in-batch', amount_usd: '8.00' });
    const result = await postTransactions(db, [first, same, first, changed]);
    expect(result.outcomes).to.deep.equal([
      { outcome: 'inserted', txnId: first.txnId },
      { outcome: 'duplicate', txnId: first.txnId },
      { outcome: 'duplicate', txnId: first.txnId },
      { outcome: 'conflict', txnId: first.txnId, fields: ['amount_usd', 'journal_lines'] },
    ]);
  });

  it('rejects an unknown customer among good records with unknown_customer, inserting the others, and counts each', async () => {
    const good = Array.from({ length: 6 }, (_, i) =>
      draft({ source: 'usbroker', source_txn_id: `good-${i}`, amount_usd: '2.00' }),
    );
    const unknown = draft({ source: 'usbroker', source_txn_id: 'unknown-customer', customer_id: 'C-404' });
    const drafts = [...good.slice(0, 4), unknown, ...good.slice(4)];
    const result = await postTransactions(db, drafts, { chunkSize: 5 });
    expect(kinds(result)).to.deep.equal([
      'inserted',
      'inserted',
      'inserted',
      'inserted',
      'rejected',
      'inserted',
      'inserted',
    ]);
    const rejected = result.outcomes[4] as Extract<BulkOutcome, { outcome: 'rejected' }>;
    expect(rejected.reason).to.be.instanceOf(LedgerError);
    expect(rejected.reason.code).to.equal('unknown_customer');
    expect(counts(result)).to.deep.equal({ inserted: 6, duplicate: 0, conflict: 0, rejected: 1 });
    expect(await db('transactions').where({ source_txn_id: 'unknown-customer' }).first()).to.equal(undefined);
    // Running it again: the good ones are duplicates, the bad one is still refused.
    expect(kinds(await postTransactions(db, drafts, { chunkSize: 5 }))).to.deep.equal([
      ...Array(4).fill('duplicate'),
      'rejected',
      'duplicate',
      'duplicate',
    ]);
  });

  it('isolates several refused records across chunks: each rejected with its reason (entry_refused naming the constraint), every other posted', async () => {
    const drafts = Array.from({ length: 20 }, (_, i) =>
      [3, 4, 17].includes(i)
        ? refusedByDatabase(`refused-${i}`)
        : draft({ source: 'usbroker', source_txn_id: `refused-mate-${i}`, amount_usd: '1.00' }),
    );
    const result = await postTransactions(db, drafts, { chunkSize: 8, concurrency: 2 });
    expect(counts(result)).to.deep.equal({ inserted: 17, duplicate: 0, conflict: 0, rejected: 3 });
    for (const i of [3, 4, 17]) {
      const outcome = result.outcomes[i] as Extract<BulkOutcome, { outcome: 'rejected' }>;
      expect(outcome.outcome, `record ${i}`).to.equal('rejected');
      expect([outcome.reason.code, outcome.reason.details]).to.deep.equal([
        'entry_refused',
        [{ constraint: 'transactions_fx_rate_check', sqlstate: '23514' }],
      ]);
    }
    expect(
      Number(
        (await db('transactions').whereLike('source_txn_id', 'refused-%').count<Array<{ n: string }>>({ n: '*' }))[0]!
          .n,
      ),
    ).to.equal(17);
  });

  it('stores memo and metadata to the character, whatever they hold (tabs, newlines, backslashes, quotes, emoji), and a re-send is a duplicate', async () => {
    const awkward = 'tab\there\nnew line\r\\N back\\slash "quoted" \u00e9\u{1f600}';
    const records = () => [
      draft({
        source: 'usbroker',
        source_txn_id: 'awkward',
        memo: awkward,
        metadata: { note: awkward, [awkward]: [awkward] },
      }),
      draft({ source: 'usbroker', source_txn_id: 'awkward-null-memo', memo: null, metadata: { note: null } }),
    ];
    const first = await postTransactions(db, records());
    expect(counts(first)).to.deep.equal({ inserted: 2, duplicate: 0, conflict: 0, rejected: 0 });
    const stored = await db('transactions')
      .whereIn('source_txn_id', ['awkward', 'awkward-null-memo'])
      .orderBy('source_txn_id')
      .select('memo', 'metadata');
    expect(stored).to.deep.equal([
      { memo: awkward, metadata: { note: awkward, [awkward]: [awkward] } },
      { memo: null, metadata: { note: null } },
    ]);
    expect(counts(await postTransactions(db, records()))).to.deep.equal({
      inserted: 0,
      duplicate: 2,
      conflict: 0,
      rejected: 0,
    });
  });

  it('throws a failure that is not about the records (connection lost) instead of rejecting them', async () => {
    const lost = Object.assign(new Error('connection terminated unexpectedly'), { code: '08006' });
    const store: LedgerStore = {
      write: () => Promise.reject(lost),
      findBySourceKeys: () => Promise.reject(lost),
      findFactsBySourceKeys: () => Promise.reject(lost),
      findTransaction: () => Promise.reject(lost),
      findReversalOf: () => Promise.reject(lost),
      closedThrough: () => Promise.resolve(null),
    };
    const error = await postTransactionsWith(store, [draft(), draft()]).catch((e: unknown) => e);
    expect(error).to.equal(lost);
  });
});
