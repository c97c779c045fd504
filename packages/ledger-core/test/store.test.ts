import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import {
  accountTotals,
  categoryFacets,
  type BulkResult,
  createDb,
  Decimal,
  getTransaction,
  groupJournal,
  groupTransactions,
  isAtHead,
  listCustomers,
  listJournalLines,
  listPostings,
  listTransactions,
  migrateToHead,
  createEntryBatcher,
  postEntries,
  postEntry,
  postTransactions,
  reverseTransaction,
  reversingLines,
  trialBalance,
  upsertCustomer,
  type EntryRequest,
  type JournalGroupBy,
  type JournalLineDraft,
  type LedgerError,
  type SortOrder,
  type TransactionDraft,
  type TransactionGroupBy,
  type TransactionSort,
  type TransactionSummary,
} from '../src/index.js';
import { insertDrafts } from '../src/store/posting.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { booksSnapshot, caught, draft, entry, expectLedgerError, journalSums } from './helpers.js';

const PAGE = { limit: 500, offset: 0 };
/** A bulk result's counts, without the outcome of each record. */
const counts = ({ outcomes: _outcomes, ...rest }: BulkResult) => rest;
const dec = (value: string | number | null | undefined) => new Decimal(String(value ?? 0));

describe('store', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => {
    // As production runs: a role that does not own the schema, with the runtime privileges only.
    t = await createTestDatabase({ poolMax: 25, runtimeRole: true });
    db = t.runtime!.db;
    for (const id of ['C-1', 'C-2']) await upsertCustomer(db, id, {});
  });
  after(async () => {
    await t?.drop();
  });

  async function count(table: string, where: Record<string, unknown> = {}): Promise<number> {
    const [row] = await db(table).where(where).count<Array<{ n: string }>>({ n: '*' });
    return Number(row?.n ?? 0);
  }

  /** The stored lines of a transaction as (account, debit, credit, kind, customer, date). */
  async function storedLines(txnId: string) {
    const rows: Array<{ account_code: string; debit: string; credit: string; posting_kind: string | null; customer_id: string | null; txn_date: string }> =
      await db('journal_lines').where({ txn_id: txnId }).orderBy('line_id').select('account_code', 'debit', 'credit', 'posting_kind', 'customer_id', 'txn_date');
    return rows.map((r) => [r.account_code, dec(r.debit).toFixed(), dec(r.credit).toFixed(), r.posting_kind, r.customer_id, r.txn_date]);
  }
  const draftLines = (d: TransactionDraft) =>
    d.lines.map((l) => [l.accountCode, l.debit.toFixed(), l.credit.toFixed(), l.postingKind, d.customerId, d.txnDate]);

  describe('insertDrafts / postTransactions', () => {
    it('inserts transactions with their lines, and says which it inserted', async () => {
      const drafts = [
        draft({ txn_type: 'buy_security', symbol: 'AAPL', quantity: '3', amount_usd: '450.00' }),
        draft({ customer_id: 'C-2', amount_usd: '100.00', original_currency: 'AED', original_amount: '367.25' }),
        draft({ txn_type: 'fx_spread', customer_id: null, amount_usd: '1.23' }),
      ];
      const inserted = await insertDrafts(db, drafts);
      expect([...inserted].sort()).to.deep.equal(drafts.map((d) => d.txnId).sort());
      for (const d of drafts) {
        expect(await storedLines(d.txnId)).to.deep.equal(draftLines(d));
        const stored = await getTransaction(db, { txnId: d.txnId });
        expect(stored?.transaction).to.include({ txn_type: d.txnType, source: d.source, source_txn_id: d.sourceTxnId, customer_id: d.customerId });
        expect(stored?.transaction.recosted_at === null, 'pending recost').to.equal(d.pendingRecost);
      }
      const aed = (await getTransaction(db, { txnId: drafts[1]!.txnId }))!.transaction;
      expect([aed.original_currency, dec(aed.original_amount).toFixed(), dec(aed.fx_rate).toFixed()]).to.deep.equal(['AED', '367.25', '3.6725']);
    });

    it('posts the same batch a second time as nothing, leaving identical books (idempotent ingest)', async () => {
      const batch = () =>
        Array.from({ length: 12 }, (_, i) =>
          draft({ txn_type: i % 3 === 0 ? 'buy_security' : 'deposit', symbol: 'MSFT', source: 'usbroker', source_txn_id: `rerun-${i}`, amount_usd: `${i + 1}.50` }),
        );
      const first = batch();
      expect(counts(await postTransactions(db, first))).to.deep.equal({ inserted: 12, duplicate: 0, conflict: 0, rejected: 0 });
      const books = await booksSnapshot(db);
      const totals = await accountTotals(db);
      // Re-ingest: same business keys, new ids (as a fresh run would mint them) and the very same drafts.
      expect(counts(await postTransactions(db, batch()))).to.deep.equal({ inserted: 0, duplicate: 12, conflict: 0, rejected: 0 });
      expect(counts(await postTransactions(db, first))).to.deep.equal({ inserted: 0, duplicate: 12, conflict: 0, rejected: 0 });
      expect(await booksSnapshot(db)).to.deep.equal(books);
      expect(await accountTotals(db)).to.deep.equal(totals);
    });

    it('posts a business key repeated within one batch once', async () => {
      const a = draft({ source: 'custodian', source_txn_id: 'twice-in-batch', amount_usd: '10.00' });
      const b = draft({ source: 'custodian', source_txn_id: 'twice-in-batch', amount_usd: '10.00' });
      const before = await journalSums(db);
      const inserted = await insertDrafts(db, [a, b]);
      expect(inserted.size).to.equal(1);
      expect(await count('transactions', { source: 'custodian', source_txn_id: 'twice-in-batch' })).to.equal(1);
      const [winner] = [...inserted];
      expect(await storedLines(winner!)).to.have.length(2);
      const after = await journalSums(db);
      expect(dec(after.get('1100')?.debit).minus(dec(before.get('1100')?.debit)).toFixed()).to.equal('10');
    });

    it('posts a draft repeated within one batch once, with its lines once', async () => {
      const d = draft({ source: 'custodian', source_txn_id: 'same-draft-twice', amount_usd: '10.00' });
      const inserted = await insertDrafts(db, [d, d]);
      expect([...inserted]).to.deep.equal([d.txnId]);
      expect(await storedLines(d.txnId)).to.deep.equal(draftLines(d));
    });

    it('posts in chunks, and a re-run answers every record duplicate', async () => {
      const drafts = Array.from({ length: 25 }, (_, i) => draft({ source: 'uaefeed', source_txn_id: `chunk-${i}`, amount_usd: '1.00' }));
      expect(counts(await postTransactions(db, drafts, { chunkSize: 4, concurrency: 3 }))).to.deep.equal({ inserted: 25, duplicate: 0, conflict: 0, rejected: 0 });
      expect(await count('transactions', { source: 'uaefeed' })).to.equal(25);
      expect(counts(await postTransactions(db, [...drafts].reverse(), { chunkSize: 3 }))).to.deep.equal({ inserted: 0, duplicate: 25, conflict: 0, rejected: 0 });
    });

    // Bulk posting answers per record (ADR 0005): the record the database refuses is rejected
    // alone, and stores nothing; its chunk-mates are posted.
    it('stores nothing of a record the database refuses, and posts the rest of its batch', async () => {
      const before = await journalSums(db);
      const drafts = [...Array.from({ length: 5 }, () => draft()), draft({ customer_id: 'no-such-customer' })];
      const result = await postTransactions(db, drafts);
      expect(counts(result)).to.deep.equal({ inserted: 5, duplicate: 0, conflict: 0, rejected: 1 });
      const rejected = result.outcomes[5];
      expect(rejected?.outcome === 'rejected' && rejected.reason.code).to.equal('unknown_customer');
      expect(await count('transactions', { txn_id: drafts[5]!.txnId })).to.equal(0);
      const after = await journalSums(db);
      expect(dec(after.get('2010')?.credit).minus(dec(before.get('2010')?.credit)).toFixed()).to.equal('500');
    });

    it('refuses an unbalanced draft before it reaches the database', async () => {
      const d = draft();
      const unbalanced: TransactionDraft = { ...d, lines: [d.lines[0]!, { ...d.lines[1]!, credit: d.lines[1]!.credit.minus('0.01') }] };
      const before = await booksSnapshot(db);
      const error = await caught(() => insertDrafts(db, [unbalanced]));
      expect(String(error)).to.contain('invariant violated');
      expect(await booksSnapshot(db)).to.deep.equal(before);
    });
  });

  describe('postEntry', () => {
    it('posts a new entry and answers with the stored transaction and its lines', async () => {
      const d = draft({ amount_usd: '75.5', memo: 'first' });
      const { created, transaction } = await postEntry(db, d);
      expect(created).to.equal(true);
      expect(transaction).to.include({ txn_id: d.txnId, customer_id: 'C-1', txn_type: 'deposit', source: 'manual', memo: 'first', txn_date: '2026-01-15' });
      expect(dec(transaction.amount_usd).toFixed()).to.equal('75.5');
      expect(
        transaction.journal_lines.map((l) => [l.account_code, l.account_name, dec(l.debit).toFixed(), dec(l.credit).toFixed(), l.customer_id, l.posting_kind]),
      ).to.deep.equal([
        ['1100', 'Omnibus cash at broker / custodian', '75.5', '0', 'C-1', 'deposit'],
        ['2010', 'Customer cash wallet (USD)', '0', '75.5', 'C-1', 'deposit'],
      ]);
      for (const l of transaction.journal_lines) {
        expect([typeof l.debit, typeof l.credit, l.txn_id]).to.deep.equal(['string', 'string', d.txnId]);
      }
    });

    it('answers a repeat of the same key and payload with the existing transaction (created false)', async () => {
      const e = entry({ source_txn_id: 'repeat-me', amount_usd: '20.00' });
      const first = await postEntry(db, draft(e));
      const books = await booksSnapshot(db);
      const again = await postEntry(db, draft({ ...e, amount_usd: '20.0' }));
      expect(again.created).to.equal(false);
      expect(again.transaction).to.deep.equal(first.transaction);
      expect(await booksSnapshot(db)).to.deep.equal(books);
    });

    it('refuses the same key with a different payload with idempotency_conflict, storing nothing', async () => {
      const e = entry({ source_txn_id: 'conflict-me', amount_usd: '20.00' });
      const first = await postEntry(db, draft(e));
      const books = await booksSnapshot(db);
      for (const change of [{ amount_usd: '20.01' }, { customer_id: 'C-2' }, { memo: 'other' }, { txn_type: 'withdrawal' as const }]) {
        const error = await expectLedgerError(() => postEntry(db, draft({ ...e, ...change })), 'idempotency_conflict');
        expect(error.details).to.deep.equal([{ txn_id: first.transaction.txn_id }]);
      }
      expect(await booksSnapshot(db)).to.deep.equal(books);
    });

    it('refuses an unknown customer with unknown_customer, storing nothing', async () => {
      const books = await booksSnapshot(db);
      const d = draft({ customer_id: 'C-404', source_txn_id: 'who' });
      await expectLedgerError(() => postEntry(db, d), 'unknown_customer');
      expect(await booksSnapshot(db)).to.deep.equal(books);
      expect(await getTransaction(db, { source: 'manual', sourceTxnId: 'who' })).to.equal(null);
    });

    it('refuses an adjustment to an unknown account with unknown_account, storing nothing', async () => {
      const books = await booksSnapshot(db);
      const d = draft({
        txn_type: 'adjustment',
        customer_id: null,
        source_txn_id: 'where',
        lines: [
          { account_code: '1010', debit: '5.00', credit: '0' },
          { account_code: '9999', debit: '0', credit: '5.00' },
        ],
      });
      await expectLedgerError(() => postEntry(db, d), 'unknown_account');
      expect(await booksSnapshot(db)).to.deep.equal(books);
    });

    it('refuses a zero quantity with validation_error, storing nothing', async () => {
      const books = await booksSnapshot(db);
      await expectLedgerError(() => postEntry(db, draft({ txn_type: 'buy_security', symbol: 'AAPL', quantity: '0' })), 'validation_error');
      expect(await booksSnapshot(db)).to.deep.equal(books);
    });

    it('posts one transaction for 20 concurrent calls with one key', async () => {
      const e = entry({ source_txn_id: 'stampede', amount_usd: '33.00' });
      const before = await journalSums(db);
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => postEntry(db, draft(e))));
      expect(outcomes.filter((o) => o.created)).to.have.length(1);
      expect(new Set(outcomes.map((o) => o.transaction.txn_id)).size).to.equal(1);
      expect(await count('transactions', { source: 'manual', source_txn_id: 'stampede' })).to.equal(1);
      const after = await journalSums(db);
      expect(dec(after.get('2010')?.credit).minus(dec(before.get('2010')?.credit)).toFixed()).to.equal('33');
    });

    it('lets exactly one of two payloads racing on one key win; the other gets idempotency_conflict', async () => {
      const e = entry({ source_txn_id: 'race-two-payloads' });
      const settled = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => postEntry(db, draft({ ...e, amount_usd: i % 2 === 0 ? '1.00' : '2.00' }))),
      );
      const won = settled.filter((s) => s.status === 'fulfilled').map((s) => (s as PromiseFulfilledResult<Awaited<ReturnType<typeof postEntry>>>).value);
      const lost = settled.filter((s) => s.status === 'rejected').map((s) => (s as PromiseRejectedResult).reason as LedgerError);
      expect(won.filter((o) => o.created)).to.have.length(1);
      expect(won).to.have.length(10);
      expect(lost.map((l) => l.code)).to.deep.equal(Array(10).fill('idempotency_conflict'));
    });
  });

  describe('postEntries and the entry batcher (group commit)', () => {
    it('posts a batch in one go and answers each entry on its own: created, repeat, conflict', async () => {
      const repeat = entry({ source_txn_id: 'batch-repeat' });
      const conflicting = entry({ source_txn_id: 'batch-conflict', amount_usd: '1.00' });
      await postEntry(db, draft(repeat));
      await postEntry(db, draft(conflicting));
      const fresh = draft({ source_txn_id: 'batch-fresh' });
      const outcomes = await postEntries(db, [fresh, draft(repeat), draft({ ...conflicting, amount_usd: '2.00' })]);
      expect(outcomes.map((o) => ('code' in o ? o.code : o.created))).to.deep.equal([true, false, 'idempotency_conflict']);
      expect(await count('transactions', { source_txn_id: 'batch-fresh' })).to.equal(1);
    });

    it('fails only the bad entry of a batch the database refuses; the others are posted', async () => {
      const books = await booksSnapshot(db);
      const good = [draft({ source_txn_id: 'batch-good-1' }), draft({ source_txn_id: 'batch-good-2' })];
      const outcomes = await postEntries(db, [good[0]!, draft({ customer_id: 'C-404', source_txn_id: 'batch-bad' }), good[1]!]);
      expect(outcomes.map((o) => ('code' in o ? o.code : o.created))).to.deep.equal([true, 'unknown_customer', true]);
      expect(await count('transactions', { source_txn_id: 'batch-bad' })).to.equal(0);
      const after = await booksSnapshot(db);
      expect(after).to.not.deep.equal(books);
      expect(await count('transactions', { source_txn_id: 'batch-good-2' })).to.equal(1);
    });

    /** What a read of the entry's key answers, as postEntries' outcomes carry it. */
    const readBack = async (d: TransactionDraft) => (await getTransaction(db, { source: d.source, sourceTxnId: d.sourceTxnId }))?.transaction;

    it('answers each entry with exactly what a read of it returns: created, repeated in the batch, already posted', async () => {
      const earlier = draft({ source_txn_id: 'read-back-earlier', memo: 'before', metadata: { desk: 'b', n: [1, 2] } });
      await postEntry(db, earlier);
      const fresh = [
        draft({ txn_type: 'buy_security', symbol: 'AAPL', quantity: '3', amount_usd: '450.10', memo: 'with fee', metadata: { a: { b: 1 } } }),
        draft({ customer_id: 'C-2', amount_usd: '100.00', original_currency: 'AED', original_amount: '367.25' }),
        draft({ txn_type: 'fx_spread', customer_id: null, amount_usd: '1.23' }),
        draft({
          txn_type: 'adjustment',
          customer_id: null,
          source_txn_id: 'read-back-adjustment',
          lines: [
            { account_code: '1010', debit: '5.5', credit: '0', posting_kind: 'correction' },
            { account_code: '3000', debit: '0', credit: '2.25' },
            { account_code: '4010', debit: '0', credit: '3.25' },
          ],
        }),
      ];
      const twin = draft({ txn_type: 'buy_security', symbol: 'AAPL', quantity: '3', amount_usd: '450.10', memo: 'with fee', metadata: { a: { b: 1 } }, source_txn_id: fresh[0]!.sourceTxnId });
      const batch = [...fresh, twin, draft({ ...entry({ source_txn_id: 'read-back-earlier', memo: 'before', metadata: { n: [1, 2], desk: 'b' } }) })];
      const outcomes = await postEntries(db, batch);
      expect(outcomes.map((o) => ('code' in o ? o.code : o.created))).to.deep.equal([true, true, true, true, false, false]);
      for (const [i, d] of batch.entries()) {
        const outcome = outcomes[i] as Awaited<ReturnType<typeof postEntry>>;
        expect(outcome.transaction, `entry ${i}`).to.deep.equal(await readBack(d));
      }
      expect((outcomes[4] as Awaited<ReturnType<typeof postEntry>>).transaction.txn_id).to.equal(fresh[0]!.txnId);
      expect((outcomes[5] as Awaited<ReturnType<typeof postEntry>>).transaction.txn_id).to.equal(earlier.txnId);
      // The original of a reversal shows it when answered as already posted.
      const { transaction: reversal } = await reverseTransaction(db, earlier.txnId, { txnId: randomUUID(), txnDate: '2026-02-01', memo: null });
      const [again] = await postEntries(db, [draft(entry({ source_txn_id: 'read-back-earlier', memo: 'before', metadata: { desk: 'b', n: [1, 2] } }))]);
      expect((again as Awaited<ReturnType<typeof postEntry>>).transaction.reversed_by_txn_id).to.equal(reversal.txn_id);
      expect((again as Awaited<ReturnType<typeof postEntry>>).transaction).to.deep.equal(await readBack(earlier));
    });

    it('answers an entry whose key a concurrent transaction took after the statement began with that transaction', async () => {
      const same = entry({ source_txn_id: 'taken-meanwhile-same', amount_usd: '4.00' });
      const other = entry({ source_txn_id: 'taken-meanwhile-other', amount_usd: '4.00' });
      const rival = await db.transaction();
      try {
        // Inserted, not yet committed: the batch's insert waits on these keys, its snapshot predates their commit.
        await insertDrafts(rival, [draft(same), draft(other)]);
        const batch = [draft(same), draft({ source_txn_id: 'taken-meanwhile-fresh' }), draft({ ...other, amount_usd: '5.00' })];
        const posting = postEntries(db, batch);
        for (let waited = 0; ; waited += 1) {
          const { rows } = await db.raw<{ rows: unknown[] }>(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%new_txns%'`,
          );
          if (rows.length > 0) break;
          expect(waited, 'the batch never waited on the rival').to.be.lessThan(500);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await rival.commit();
        const outcomes = await posting;
        expect(outcomes.map((o) => ('code' in o ? o.code : o.created))).to.deep.equal([false, true, 'idempotency_conflict']);
        const won = await readBack(batch[0]!);
        expect((outcomes[0] as Awaited<ReturnType<typeof postEntry>>).transaction).to.deep.equal(won);
        expect((outcomes[1] as Awaited<ReturnType<typeof postEntry>>).transaction).to.deep.equal(await readBack(batch[1]!));
        expect((outcomes[2] as LedgerError).details).to.deep.equal([{ txn_id: (await readBack(batch[2]!))!.txn_id }]);
        expect(await count('transactions', { source_txn_id: 'taken-meanwhile-same' })).to.equal(1);
      } finally {
        if (!rival.isCompleted()) await rival.rollback();
      }
    });

    /** A stand-in for the pool whose one statement answers as `answer` says, when it says: to control the batcher's timing. */
    const dbAnswering = (answer: (values: unknown[]) => Promise<unknown>) =>
      ({
        isTransaction: false,
        client: {
          acquireConnection: async () => ({ query: ({ values }: { values: unknown[] }) => answer(values) }),
          releaseConnection: async () => {},
        },
      }) as unknown as Knex;

    it('sends the next batch before answering the callers of the one that finished', async () => {
      // A database that answers each statement when told to, as if every entry were new.
      const events: string[] = [];
      const release: Array<() => void> = [];
      const posted = new Map<string, TransactionDraft>();
      // Rows as the statement returns them for new entries (which entries: by their ids in what was sent).
      const stored = (d: TransactionDraft) => ({
        txn_id: d.txnId, customer_id: d.customerId, txn_type: d.txnType, source: d.source, source_txn_id: d.sourceTxnId,
        category: d.category, symbol: d.symbol, quantity: null, txn_date: d.txnDate, posted_at: new Date(), amount_usd: d.amountUsd.toFixed(),
        original_currency: null, original_amount: null, fx_rate: null, recosted_at: null, reverses_txn_id: null, reversed_by_txn_id: null,
        memo: d.memo, metadata: d.metadata, request_hash: d.requestHash, journal_lines: [],
      });
      const fakeDb = dbAnswering((values) => {
        const sent = JSON.stringify(values);
        const drafts = [...posted.values()].filter((d) => sent.includes(d.txnId));
        events.push(`statement ${drafts.map((d) => d.sourceTxnId).join(',')}`);
        return new Promise((resolve) => release.push(() => resolve({ rows: drafts.map(stored) })));
      });
      const batcher = createEntryBatcher(fakeDb);
      const post = (key: string) => {
        const d = draft({ source_txn_id: key });
        posted.set(key, d);
        return batcher.post(d).then((o) => events.push(`answered ${key} ${o.created}`));
      };
      const first = post('pipe-1'); // goes at once, alone
      const rest = [post('pipe-2'), post('pipe-3')]; // wait for it, then go together
      await new Promise((resolve) => setImmediate(resolve));
      expect(events).to.deep.equal(['statement pipe-1']);
      release[0]!();
      await first;
      expect(events).to.deep.equal(['statement pipe-1', 'statement pipe-2,pipe-3', 'answered pipe-1 true']);
      release[1]!();
      await Promise.all(rest);
      expect(events.slice(3)).to.deep.equal(['answered pipe-2 true', 'answered pipe-3 true']);
    });

    it('fails every caller of a batch the database fails, and goes on with the next batch', async () => {
      let statements = 0;
      const fakeDb = dbAnswering(() => {
        statements += 1;
        return statements === 1 ? Promise.reject(new Error('connection terminated')) : Promise.reject(Object.assign(new Error('still down'), { code: '08006' }));
      });
      const batcher = createEntryBatcher(fakeDb);
      const results = await Promise.allSettled([batcher.post(draft()), batcher.post(draft()), batcher.post(draft())]);
      expect(results.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'fulfilled'))).to.deep.equal([
        'connection terminated',
        'still down',
        'still down',
      ]);
      expect(statements).to.equal(2);
    });

    it('batches concurrent entries: 60 callers, one key each plus one shared key, each answered right', async () => {
      const batcher = createEntryBatcher(db, { batchSizeMax: 16, concurrency: 2 });
      const shared = entry({ source_txn_id: 'batcher-shared', amount_usd: '9.00' });
      const before = await journalSums(db);
      const results = await Promise.allSettled([
        ...Array.from({ length: 50 }, (_, i) => batcher.post(draft({ source_txn_id: `batcher-${i}`, amount_usd: '1.00' }))),
        ...Array.from({ length: 10 }, () => batcher.post(draft(shared))),
        batcher.post(draft({ customer_id: 'C-404', source_txn_id: 'batcher-bad' })),
      ]);
      const outcomes = results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as LedgerError)));
      expect(outcomes.slice(0, 50).every((o) => 'created' in o && o.created)).to.equal(true);
      const sharedOutcomes = outcomes.slice(50, 60).map((o) => o as Awaited<ReturnType<typeof postEntry>>);
      expect(sharedOutcomes.filter((o) => o.created)).to.have.length(1);
      expect(new Set(sharedOutcomes.map((o) => o.transaction.txn_id)).size).to.equal(1);
      expect((outcomes[60] as LedgerError).code).to.equal('unknown_customer');
      const after = await journalSums(db);
      expect(dec(after.get('2010')?.credit).minus(dec(before.get('2010')?.credit)).toFixed()).to.equal('59');
    });
  });

  describe('reverseTransaction', () => {
    const reverse = (txnId: string, memo: string | null = null) => reverseTransaction(db, txnId, { txnId: randomUUID(), txnDate: '2026-02-01', memo });

    it('posts the mirror of the original, naming it, and the original shows who reversed it', async () => {
      const original = (await postEntry(db, draft({ txn_type: 'buy_security', symbol: 'AAPL', quantity: '4', amount_usd: '800.00' }))).transaction;
      const { created, transaction: r } = await reverse(original.txn_id, 'mistake');
      expect(created).to.equal(true);
      expect(r).to.include({ txn_type: 'reversal', source: 'ledger', reverses_txn_id: original.txn_id, customer_id: 'C-1', symbol: 'AAPL', txn_date: '2026-02-01', memo: 'mistake' });
      const key = (l: { account_code: string; debit: string; credit: string; posting_kind: string | null }) => `${l.account_code} ${dec(l.debit).toFixed()} ${dec(l.credit).toFixed()} ${l.posting_kind}`;
      expect(r.journal_lines.map(key).sort()).to.deep.equal(
        original.journal_lines.map((l) => key({ ...l, debit: l.credit, credit: l.debit })).sort(),
      );
      const net = new Map<string, Decimal>();
      for (const l of [...original.journal_lines, ...r.journal_lines]) net.set(l.account_code, (net.get(l.account_code) ?? dec(0)).plus(l.debit).minus(l.credit));
      for (const [account, n] of net) expect(n.isZero(), account).to.equal(true);
      const reread = (await getTransaction(db, { txnId: original.txn_id }))!.transaction;
      expect(reread.reversed_by_txn_id).to.equal(r.txn_id);
      expect(r.reversed_by_txn_id).to.equal(null);
    });

    it('answers a repeat with the same reversal (created false)', async () => {
      const original = (await postEntry(db, draft())).transaction;
      const first = await reverse(original.txn_id);
      const again = await reverse(original.txn_id);
      expect(again.created).to.equal(false);
      expect(again.transaction).to.deep.equal(first.transaction);
    });

    it('posts exactly one reversal for 20 concurrent calls', async () => {
      const original = (await postEntry(db, draft({ amount_usd: '61.00' }))).transaction;
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => reverse(original.txn_id)));
      expect(outcomes.filter((o) => o.created)).to.have.length(1);
      expect(new Set(outcomes.map((o) => o.transaction.txn_id)).size).to.equal(1);
      expect(await count('transactions', { reverses_txn_id: original.txn_id })).to.equal(1);
      expect(await count('transactions', { source: 'ledger', source_txn_id: `reversal:${original.txn_id}` })).to.equal(1);
    });

    it('refuses to reverse a reversal with conflict, storing nothing', async () => {
      const original = (await postEntry(db, draft())).transaction;
      const { transaction: r } = await reverse(original.txn_id);
      const books = await booksSnapshot(db);
      await expectLedgerError(() => reverse(r.txn_id), 'conflict');
      expect(await booksSnapshot(db)).to.deep.equal(books);
    });

    it('answers an unknown id with not_found', async () => {
      await expectLedgerError(() => reverse(randomUUID()), 'not_found');
    });
  });

  describe('queries', () => {
    // Everything here is dated 2031, which no other test uses: SCOPE isolates it from them.
    const SCOPE = { from: '2031-01-01', to: '2031-12-31' };
    interface Model {
      txn_id: string;
      customer_id: string | null;
      txn_type: string;
      source: string;
      category: string;
      symbol: string | null;
      txn_date: string;
      amount: Decimal;
      order: number;
      lines: JournalLineDraft[];
    }
    const FIXTURE: Array<Partial<EntryRequest>> = [
      { txn_type: 'deposit', customer_id: 'L-A', source: 'usbroker', txn_date: '2031-01-05', amount_usd: '100.00' },
      { txn_type: 'deposit', customer_id: 'L-B', source: 'manual', txn_date: '2031-01-05', amount_usd: '250.00' },
      { txn_type: 'buy_security', customer_id: 'L-A', symbol: 'AAPL', quantity: '5', source: 'usbroker', txn_date: '2031-02-10', amount_usd: '1000.00' },
      { txn_type: 'sell_security', customer_id: 'L-A', symbol: 'AAPL', quantity: '2', source: 'custodian', txn_date: '2031-02-11', amount_usd: '500.00' },
      { txn_type: 'dividend', customer_id: 'L-B', symbol: 'MSFT', source: 'custodian', txn_date: '2031-03-01', amount_usd: '12.34' },
      { txn_type: 'wht_tax', customer_id: 'L-B', symbol: 'MSFT', source: 'custodian', txn_date: '2031-03-01', amount_usd: '3.70' },
      { txn_type: 'withdrawal', customer_id: 'L-A', source: 'manual', txn_date: '2031-03-15', amount_usd: '40.00' },
      { txn_type: 'fx_spread', customer_id: null, source: 'remit', txn_date: '2031-03-20', amount_usd: '5.55' },
      { txn_type: 'fx_spread_settle', customer_id: null, source: 'remit', txn_date: '2031-03-31', amount_usd: '5.55' },
      { txn_type: 'deposit', customer_id: 'L-C', source: 'uaefeed', txn_date: '2031-04-01', amount_usd: '100.00', original_currency: 'AED', original_amount: '367.25' },
    ];
    const models: Model[] = [];
    let withdrawalId = '';
    let reversalId = '';

    before(async () => {
      for (const id of ['L-A', 'L-B', 'L-C']) await upsertCustomer(db, id, {});
      // One at a time, so that posted_at follows the fixture's order.
      for (const [i, e] of FIXTURE.entries()) {
        const d = draft({ ...e, source_txn_id: `q-${i}` });
        await postEntry(db, d);
        models.push({
          txn_id: d.txnId,
          customer_id: d.customerId,
          txn_type: d.txnType,
          source: d.source,
          category: d.category,
          symbol: d.symbol,
          txn_date: d.txnDate,
          amount: d.amountUsd,
          order: i,
          lines: d.lines,
        });
      }
      withdrawalId = models[6]!.txn_id;
      const reversal = await reverseTransaction(db, withdrawalId, { txnId: randomUUID(), txnDate: '2031-04-02', memo: null });
      reversalId = reversal.transaction.txn_id;
      models.push({
        ...models[6]!,
        txn_id: reversalId,
        txn_type: 'reversal',
        source: 'ledger',
        category: 'reversal',
        txn_date: '2031-04-02',
        order: models.length,
        lines: reversingLines(models[6]!.lines),
      });
    });

    const byDate = (a: Model, b: Model) => (a.txn_date < b.txn_date ? -1 : a.txn_date > b.txn_date ? 1 : a.txn_id < b.txn_id ? -1 : 1);
    const ids = (ms: Model[]) => [...ms].sort(byDate).map((m) => m.txn_id);
    const listIds = async (filter: Record<string, string>, page = PAGE, sort: TransactionSort = 'txn_date', order: SortOrder = 'asc') => {
      const result = await listTransactions(db, { ...SCOPE, ...filter }, page, sort, order);
      return { ids: result.items.map((r: { txn_id: string }) => r.txn_id), total: result.total, result };
    };

    describe('listTransactions', () => {
      it('lists every transaction in range with its total', async () => {
        const { ids: got, total } = await listIds({});
        expect(got).to.deep.equal(ids(models));
        expect(total).to.equal(11);
      });

      const filters: Array<[string, Record<string, string>, (m: Model) => boolean]> = [
        ['customer_id', { customer_id: 'L-A' }, (m) => m.customer_id === 'L-A'],
        ['txn_type', { txn_type: 'deposit' }, (m) => m.txn_type === 'deposit'],
        ['source', { source: 'custodian' }, (m) => m.source === 'custodian'],
        ['category', { category: 'funding' }, (m) => m.category === 'funding'],
        ['symbol', { symbol: 'AAPL' }, (m) => m.symbol === 'AAPL'],
        ['from and to (inclusive)', { from: '2031-03-01', to: '2031-03-20' }, (m) => m.txn_date >= '2031-03-01' && m.txn_date <= '2031-03-20'],
        ['amount_min and amount_max (inclusive, numeric)', { amount_min: '100', amount_max: '500.00' }, (m) => m.amount.gte(100) && m.amount.lte(500)],
        ['amount_min alone', { amount_min: '99.99' }, (m) => m.amount.gte('99.99')],
        ['several filters at once', { customer_id: 'L-A', category: 'funding' }, (m) => m.customer_id === 'L-A' && m.category === 'funding'],
      ];
      for (const [name, filter, predicate] of filters) {
        it(`filters by ${name}`, async () => {
          const expected = ids(models.filter(predicate));
          expect(expected.length, 'the fixture exercises the filter').to.be.within(1, models.length - 1);
          const { ids: got, total } = await listIds(filter);
          expect(got).to.deep.equal(expected);
          expect(total).to.equal(expected.length);
        });
      }

      const sorts: Array<[TransactionSort, (m: Model) => Decimal | string | number]> = [
        ['txn_date', (m) => m.txn_date],
        ['posted_at', (m) => m.order],
        ['amount_usd', (m) => m.amount],
      ];
      for (const [sort, key] of sorts) {
        for (const order of ['asc', 'desc'] as const) {
          it(`sorts by ${sort} ${order}, ties by txn_id`, async () => {
            const cmp = (a: Model, b: Model) => {
              const [ka, kb] = [key(a), key(b)];
              const c = ka instanceof Decimal ? ka.comparedTo(kb as Decimal)! : ka < kb ? -1 : ka > kb ? 1 : 0;
              return c !== 0 ? c : a.txn_id < b.txn_id ? -1 : 1;
            };
            const expected = [...models].sort((a, b) => (order === 'asc' ? cmp(a, b) : cmp(b, a))).map((m) => m.txn_id);
            expect((await listIds({}, PAGE, sort, order)).ids).to.deep.equal(expected);
          });
        }
      }

      it('pages through the list without gaps or repeats, total unchanged', async () => {
        const all = (await listIds({}, PAGE, 'amount_usd', 'desc')).ids;
        const seen: string[] = [];
        for (let offset = 0; offset < 14; offset += 4) {
          const { ids: page, total, result } = await listIds({}, { limit: 4, offset }, 'amount_usd', 'desc');
          expect(total).to.equal(11);
          expect([result.limit, result.offset]).to.deep.equal([4, offset]);
          seen.push(...page);
        }
        expect(seen).to.deep.equal(all);
      });

      it('shows reverses_txn_id on a reversal and reversed_by_txn_id on its original, with decimal strings', async () => {
        const { result } = await listIds({ customer_id: 'L-A', category: 'funding' });
        const byId = new Map(result.items.map((r: TransactionSummary) => [r.txn_id, r]));
        expect(byId.get(withdrawalId)).to.include({ reversed_by_txn_id: reversalId, reverses_txn_id: null });
        const all = await listIds({});
        const reversal = all.result.items.find((r: TransactionSummary) => r.txn_id === reversalId) as TransactionSummary;
        expect(reversal).to.include({ reverses_txn_id: withdrawalId, reversed_by_txn_id: null, txn_type: 'reversal' });
        for (const r of all.result.items as TransactionSummary[]) expect(r.amount_usd).to.be.a('string');
      });
    });

    describe('groupTransactions', () => {
      const keyOf: Record<TransactionGroupBy, (m: Model) => string | null> = {
        type: (m) => m.txn_type,
        source: (m) => m.source,
        customer: (m) => m.customer_id,
        day: (m) => m.txn_date,
        symbol: (m) => m.symbol,
      };
      function expectedGroups(groupBy: TransactionGroupBy) {
        const groups = new Map<string | null, { count: number; total: Decimal }>();
        for (const m of models) {
          const k = keyOf[groupBy](m);
          const g = groups.get(k) ?? { count: 0, total: dec(0) };
          groups.set(k, { count: g.count + 1, total: g.total.plus(m.amount) });
        }
        const keyCmp = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);
        return [...groups]
          .sort(([ka, a], [kb, b]) => (groupBy === 'day' ? keyCmp(kb, ka) : b.total.comparedTo(a.total)! || keyCmp(ka, kb)))
          .map(([key, g]) => ({ key, count: g.count, total_usd: g.total.toFixed() }));
      }
      const normalise = (items: Array<{ key: string | null; count: number; total_usd: string }>) =>
        items.map((i) => ({ key: i.key, count: i.count, total_usd: dec(i.total_usd).toFixed() }));

      for (const groupBy of ['type', 'source', 'customer', 'day', 'symbol'] as const) {
        it(`counts and totals per ${groupBy}, ${groupBy === 'day' ? 'newest day' : 'largest total'} first`, async () => {
          const expected = expectedGroups(groupBy);
          const result = await groupTransactions(db, SCOPE, groupBy, PAGE);
          expect(result.group_by).to.equal(groupBy);
          expect(normalise(result.items)).to.deep.equal(expected);
          expect(result.total).to.equal(expected.length);
        });
      }

      it('pages over the groups and still counts them all past the last page', async () => {
        const expected = expectedGroups('type');
        const page = await groupTransactions(db, SCOPE, 'type', { limit: 2, offset: 1 });
        expect(normalise(page.items)).to.deep.equal(expected.slice(1, 3));
        expect(page.total).to.equal(expected.length);
        const beyond = await groupTransactions(db, SCOPE, 'type', { limit: 2, offset: 50 });
        expect(beyond.items).to.deep.equal([]);
        expect(beyond.total).to.equal(expected.length);
      });

      it('groups only the filtered transactions', async () => {
        const result = await groupTransactions(db, { ...SCOPE, customer_id: 'L-B' }, 'type', PAGE);
        expect(normalise(result.items)).to.deep.equal([
          { key: 'deposit', count: 1, total_usd: '250' },
          { key: 'dividend', count: 1, total_usd: '12.34' },
          { key: 'wht_tax', count: 1, total_usd: '3.7' },
        ]);
      });
    });

    describe('categoryFacets', () => {
      it('counts and totals per category, most frequent first, under the filters', async () => {
        const facets = async (filter: Record<string, string>) =>
          (await categoryFacets(db, { ...SCOPE, ...filter })).items.map((i: { category: string; count: number; total_usd: string }) => [
            i.category,
            i.count,
            dec(i.total_usd).toFixed(),
          ]);
        expect(await facets({})).to.deep.equal([
          ['funding', 4, '490'],
          ['fx', 2, '11.1'],
          ['trading', 2, '1500'],
          ['income', 1, '12.34'],
          ['reversal', 1, '40'],
          ['tax', 1, '3.7'],
        ]);
        expect(await facets({ customer_id: 'L-A' })).to.deep.equal([
          ['funding', 2, '140'],
          ['trading', 2, '1500'],
          ['reversal', 1, '40'],
        ]);
      });
    });

    describe('journal queries', () => {
      interface LineModel {
        txn_id: string;
        account_code: string;
        debit: Decimal;
        credit: Decimal;
        customer_id: string | null;
        posting_kind: string | null;
        txn_date: string;
        txn_type: string;
        source: string;
      }
      const lineModels = (): LineModel[] =>
        models.flatMap((m) =>
          m.lines.map((l) => ({
            txn_id: m.txn_id,
            account_code: l.accountCode,
            debit: l.debit,
            credit: l.credit,
            customer_id: m.customer_id,
            posting_kind: l.postingKind,
            txn_date: m.txn_date,
            txn_type: m.txn_type,
            source: m.source,
          })),
        );
      const lineKey = (l: { txn_id: string; account_code: string; debit: Decimal | string; credit: Decimal | string; posting_kind: string | null }) =>
        `${l.txn_id} ${l.account_code} ${dec(String(l.debit)).toFixed()} ${dec(String(l.credit)).toFixed()} ${l.posting_kind}`;

      const lineFilters: Array<[string, Record<string, string>, (l: LineModel) => boolean]> = [
        ['no filter', {}, () => true],
        ['txn_id', { txn_id: 'BUY' }, (l) => l.txn_id === models[2]!.txn_id],
        ['account_code', { account_code: '2010' }, (l) => l.account_code === '2010'],
        ['customer_id', { customer_id: 'L-B' }, (l) => l.customer_id === 'L-B'],
        ['posting_kind', { posting_kind: 'brokerage_fee' }, (l) => l.posting_kind === 'brokerage_fee'],
        ['from and to (inclusive)', { from: '2031-02-11', to: '2031-03-15' }, (l) => l.txn_date >= '2031-02-11' && l.txn_date <= '2031-03-15'],
        ['account and customer', { account_code: '1100', customer_id: 'L-A' }, (l) => l.account_code === '1100' && l.customer_id === 'L-A'],
      ];
      const resolve = (filter: Record<string, string>) => (filter.txn_id === 'BUY' ? { ...filter, txn_id: models[2]!.txn_id } : filter);

      for (const [name, filter, predicate] of lineFilters) {
        it(`listJournalLines filters by ${name}, newest line first`, async () => {
          const expected = lineModels().filter(predicate);
          expect(expected.length).to.be.greaterThan(0);
          const result = await listJournalLines(db, { ...SCOPE, ...resolve(filter) }, PAGE);
          expect(result.total).to.equal(expected.length);
          expect(result.items.map(lineKey).sort()).to.deep.equal(expected.map(lineKey).sort());
          const lineIds = result.items.map((l: { line_id: string }) => BigInt(l.line_id));
          expect(lineIds.every((id: bigint, i: number) => i === 0 || lineIds[i - 1]! > id), 'newest first').to.equal(true);
        });
      }

      it('listJournalLines names the account and pages', async () => {
        const all = await listJournalLines(db, SCOPE, PAGE);
        const page = await listJournalLines(db, SCOPE, { limit: 5, offset: 5 });
        expect(page.items).to.deep.equal(all.items.slice(5, 10));
        expect(page.total).to.equal(all.total);
        const names = new Map(all.items.map((l: { account_code: string; account_name: string }) => [l.account_code, l.account_name]));
        expect(names.get('1100')).to.equal('Omnibus cash at broker / custodian');
        expect(names.get('4030')).to.equal('FX-spread revenue');
      });

      it('listPostings flattens lines with their transaction and filters by txn_type and source too', async () => {
        const buys = await listPostings(db, { ...SCOPE, txn_type: 'buy_security' }, PAGE);
        expect(buys.total).to.equal(6);
        for (const p of buys.items) {
          expect(p).to.include({ txn_id: models[2]!.txn_id, txn_type: 'buy_security', source: 'usbroker', source_txn_id: 'q-2', category: 'trading', symbol: 'AAPL', reverses_txn_id: null });
        }
        expect(new Set(buys.items.map((p: { account_code: string; account_type: string }) => `${p.account_code}:${p.account_type}`))).to.deep.equal(
          new Set(['1200:asset', '1100:asset', '2010:liability', '2100:liability', '4010:revenue']),
        );
        const expected = lineModels().filter((l) => l.source === 'custodian' && l.account_code === '2010');
        const custodian = await listPostings(db, { ...SCOPE, source: 'custodian', account_code: '2010' }, PAGE);
        expect(custodian.total).to.equal(expected.length);
        expect(custodian.items.map(lineKey).sort()).to.deep.equal(expected.map(lineKey).sort());
        const reversal = await listPostings(db, { ...SCOPE, txn_type: 'reversal', customer_id: 'L-A' }, PAGE);
        expect(reversal.items.map((p: { reverses_txn_id: string | null }) => p.reverses_txn_id)).to.deep.equal([withdrawalId, withdrawalId]);
      });

      const groupKey: Record<JournalGroupBy, (l: LineModel) => string | null> = {
        account: (l) => l.account_code,
        posting_kind: (l) => l.posting_kind,
        customer: (l) => l.customer_id,
        day: (l) => l.txn_date,
      };
      for (const groupBy of ['account', 'posting_kind', 'customer', 'day'] as const) {
        it(`groupJournal sums debit, credit and net per ${groupBy}`, async () => {
          const groups = new Map<string | null, { line_count: number; debit: Decimal; credit: Decimal }>();
          for (const l of lineModels()) {
            const k = groupKey[groupBy](l);
            const g = groups.get(k) ?? { line_count: 0, debit: dec(0), credit: dec(0) };
            groups.set(k, { line_count: g.line_count + 1, debit: g.debit.plus(l.debit), credit: g.credit.plus(l.credit) });
          }
          const keyCmp = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);
          const expected = [...groups]
            .sort(([a], [b]) => (groupBy === 'day' ? keyCmp(b, a) : keyCmp(a, b)))
            .map(([key, g]) => ({ key, line_count: g.line_count, debit: g.debit.toFixed(), credit: g.credit.toFixed(), net: g.debit.minus(g.credit).toFixed() }));
          const result = await groupJournal(db, SCOPE, groupBy, PAGE);
          expect(result.group_by).to.equal(groupBy);
          expect(result.total).to.equal(expected.length);
          expect(
            result.items.map((i: Record<string, unknown>) => ({
              key: i.key,
              line_count: i.line_count,
              debit: dec(i.debit as string).toFixed(),
              credit: dec(i.credit as string).toFixed(),
              net: dec(i.net as string).toFixed(),
            })),
          ).to.deep.equal(expected);
        });
      }

      it('groupJournal filters and pages', async () => {
        const all = await groupJournal(db, { ...SCOPE, customer_id: 'L-A' }, 'account', PAGE);
        expect(all.items.map((i) => i.key)).to.deep.equal(['1100', '1200', '2010', '2100', '4010']);
        const page = await groupJournal(db, { ...SCOPE, customer_id: 'L-A' }, 'account', { limit: 2, offset: 2 });
        expect(page.items).to.deep.equal(all.items.slice(2, 4));
        expect(page.total).to.equal(5);
        const beyond = await groupJournal(db, { ...SCOPE, customer_id: 'L-A' }, 'account', { limit: 2, offset: 9 });
        expect([beyond.items.length, beyond.total]).to.deep.equal([0, 5]);
      });
    });
  });

  describe('accountTotals and trialBalance', () => {
    it('show every account of the chart with the journal’s totals, net and balance on the normal side', async () => {
      const totals = await accountTotals(db);
      expect(totals.map((a) => a.account_code)).to.deep.equal([
        '1010', '1020', '1100', '1200', '1210', '1300', '1500', '2010', '2020', '2100', '2110', '2340', '3000', '4010', '4020', '4030', '4040', '5010', '5030',
      ]);
      const journal = await journalSums(db);
      for (const a of totals) {
        const j = journal.get(a.account_code) ?? { debit: '0', credit: '0', lines: 0 };
        const net = dec(j.debit).minus(j.credit);
        expect(a.normal_side, a.account_code).to.equal(['asset', 'expense'].includes(a.account_type) ? 'debit' : 'credit');
        expect([dec(a.debit).toFixed(), dec(a.credit).toFixed(), dec(a.net).toFixed(), dec(a.balance).toFixed(), a.line_count], a.account_code).to.deep.equal([
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
        expect(dec(row.credit_balance).toFixed(), row.account_code).to.equal(net.isLessThan(0) ? net.negated().toFixed() : '0');
        debit = debit.plus(row.debit_balance);
      }
      expect(debit.isEqualTo(tb.total_debit)).to.equal(true);
      expect(tb.accounts.some((r) => dec(r.credit_balance).isGreaterThan(0))).to.equal(true);
    });
  });

  describe('customers', () => {
    it('upsertCustomer creates, then updates, keeping the fields left out', async () => {
      const created = await upsertCustomer(db, 'U-1', { name: 'Ada', email: 'ada@example.com', metadata: { tier: 'gold' } });
      expect(created.created).to.equal(true);
      expect(created.customer).to.include({ customer_id: 'U-1', name: 'Ada', email: 'ada@example.com' });
      expect(created.customer.metadata).to.deep.equal({ tier: 'gold' });
      const updated = await upsertCustomer(db, 'U-1', { name: 'Ada L.' });
      expect(updated.created).to.equal(false);
      expect(updated.customer).to.include({ customer_id: 'U-1', name: 'Ada L.', email: 'ada@example.com' });
      expect(updated.customer.metadata).to.deep.equal({ tier: 'gold' });
      expect((updated.customer.created_at as Date).getTime()).to.equal((created.customer.created_at as Date).getTime());
      expect((updated.customer.updated_at as Date).getTime()).to.be.at.least((created.customer.updated_at as Date).getTime());
      const cleared = await upsertCustomer(db, 'U-1', { email: null, metadata: {} });
      expect(cleared.customer).to.include({ name: 'Ada L.', email: null });
      expect(cleared.customer.metadata).to.deep.equal({});
      const untouched = await upsertCustomer(db, 'U-1', {});
      expect(untouched.created).to.equal(false);
      expect(untouched.customer).to.include({ name: 'Ada L.', email: null });
      expect(await count('customers', { customer_id: 'U-1' })).to.equal(1);
    });

    it('listCustomers matches q against id, name and email, case-insensitively, and pages', async () => {
      await upsertCustomer(db, 'find-1', { name: 'Zebra Holdings' });
      await upsertCustomer(db, 'find-2', { email: 'ZEBRA@example.com' });
      await upsertCustomer(db, 'zebra-3', {});
      await upsertCustomer(db, 'find-4', { name: 'Other' });
      const found = await listCustomers(db, { q: 'zEbRa' }, PAGE);
      expect(found.items.map((c: { customer_id: string }) => c.customer_id)).to.deep.equal(['find-1', 'find-2', 'zebra-3']);
      expect(found.total).to.equal(3);
      const page = await listCustomers(db, { q: 'zebra' }, { limit: 1, offset: 1 });
      expect(page.items.map((c: { customer_id: string }) => c.customer_id)).to.deep.equal(['find-2']);
      expect([page.total, page.limit, page.offset]).to.deep.equal([3, 1, 1]);
      const everyone = await listCustomers(db, {}, PAGE);
      expect(everyone.total).to.equal(await count('customers'));
    });

    it('listCustomers takes % and _ and \\ in q literally', async () => {
      await upsertCustomer(db, 'esc_a', {});
      await upsertCustomer(db, 'escXa', {});
      await upsertCustomer(db, 'esc%b', {});
      await upsertCustomer(db, 'escYb', { name: 'back\\slash' });
      const ids = async (q: string) => (await listCustomers(db, { q }, PAGE)).items.map((c: { customer_id: string }) => c.customer_id);
      expect(await ids('esc_')).to.deep.equal(['esc_a']);
      expect(await ids('c%b')).to.deep.equal(['esc%b']);
      expect(await ids('%')).to.deep.equal(['esc%b']);
      expect(await ids('\\')).to.deep.equal(['escYb']);
      expect(await ids('esc')).to.have.length(4);
    });
  });

  describe('migrations', () => {
    it('migrateToHead on a database at head applies nothing', async () => {
      expect(await isAtHead(db), 'the runtime role can tell').to.equal(true);
      const before = await db('knex_migrations').select('name');
      expect(await migrateToHead(t.db)).to.deep.equal([]);
      expect(await db('knex_migrations').select('name')).to.deep.equal(before);
    });

    it('isAtHead is false on an unmigrated database and true once migrated', async () => {
      const fresh = await createTestDatabase({ migrate: false });
      try {
        expect(await isAtHead(fresh.db)).to.equal(false);
        const applied = await migrateToHead(fresh.db);
        expect(applied.length).to.be.greaterThan(0);
        expect(await isAtHead(fresh.db)).to.equal(true);
        expect(await migrateToHead(fresh.db)).to.deep.equal([]);
      } finally {
        await fresh.drop();
      }
    });

    it('several processes migrating one fresh database at once all succeed, applying each migration once', async () => {
      const fresh = await createTestDatabase({ migrate: false });
      const processes = Array.from({ length: 6 }, (_, i) => createDb({ url: fresh.url, poolMax: 2, applicationName: `migrator-${i}` }));
      try {
        const applied = await Promise.all(processes.map((p) => migrateToHead(p)));
        const names = applied.flat();
        const recorded: string[] = (await fresh.db('knex_migrations').select('name')).map((r: { name: string }) => r.name);
        expect(recorded.length).to.be.greaterThan(0);
        expect(new Set(recorded).size, 'no migration recorded twice').to.equal(recorded.length);
        expect([...names].sort(), 'each migration applied by exactly one process').to.deep.equal([...recorded].sort());
        expect(Number((await fresh.db('accounts').count<Array<{ n: string }>>({ n: '*' }))[0]!.n)).to.equal(19);
        expect(await isAtHead(fresh.db)).to.equal(true);
      } finally {
        await Promise.all(processes.map((p) => p.destroy()));
        await fresh.drop();
      }
    });
  });
});
