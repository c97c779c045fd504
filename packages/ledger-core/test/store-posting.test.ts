import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { Decimal, type LedgerError, type TransactionDraft } from '../src/entry-points/posting.js';
import { accountTotals } from '../src/entry-points/reports.js';
import {
  type BulkResult,
  getTransaction,
  createEntryBatcher,
  postEntry,
  postTransactions,
  reverseTransaction,
} from '../src/entry-points/store.js';
import { postEntries } from '../src/ledger.js';
import type { TestDatabase } from '../src/testing/index.js';
import {
  booksSnapshot,
  caught,
  draft,
  entry,
  expectLedgerError,
  journalSums,
  rowCount,
  storeDatabase,
  writeDrafts,
} from './helpers.js';

/** A bulk result's counts, without the outcome of each record. */
const counts = ({ outcomes: _outcomes, ...rest }: BulkResult) => rest;
const dec = (value: string | number | null | undefined) => new Decimal(String(value ?? 0));

describe('store', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => ({ t, db } = await storeDatabase()));
  after(async () => t?.drop());

  /** The stored lines of a transaction as (account, debit, credit, kind, customer, date). */
  async function storedLines(txnId: string) {
    const rows: Array<{
      account_code: string;
      debit: string;
      credit: string;
      posting_kind: string | null;
      customer_id: string | null;
      txn_date: string;
    }> = await db('journal_lines')
      .where({ txn_id: txnId })
      .orderBy('line_id')
      .select('account_code', 'debit', 'credit', 'posting_kind', 'customer_id', 'txn_date');
    return rows.map((r) => [
      r.account_code,
      dec(r.debit).toFixed(),
      dec(r.credit).toFixed(),
      r.posting_kind,
      r.customer_id,
      r.txn_date,
    ]);
  }
  const draftLines = (d: TransactionDraft) =>
    d.lines.map((l) => [l.accountCode, l.debit.toFixed(), l.credit.toFixed(), l.postingKind, d.customerId, d.txnDate]);

  describe('writeJournal / postTransactions', () => {
    it('inserts transactions with their lines, and says which it inserted', async () => {
      const drafts = [
        draft({ txn_type: 'buy_security', symbol: 'AAPL', quantity: '3', amount_usd: '450.00' }),
        draft({ customer_id: 'C-2', amount_usd: '100.00', original_currency: 'AED', original_amount: '367.25' }),
        draft({ txn_type: 'fx_spread', customer_id: null, amount_usd: '1.23' }),
      ];
      const inserted = await writeDrafts(db, drafts);
      expect([...inserted].sort()).to.deep.equal(drafts.map((d) => d.txnId).sort());
      for (const d of drafts) {
        expect(await storedLines(d.txnId)).to.deep.equal(draftLines(d));
        const stored = await getTransaction(db, { txnId: d.txnId });
        expect(stored?.transaction).to.include({
          txn_type: d.txnType,
          source: d.source,
          source_txn_id: d.sourceTxnId,
          customer_id: d.customerId,
        });
        expect(stored?.transaction.recosted_at === null, 'pending recost').to.equal(d.pendingRecost);
      }
      const aed = (await getTransaction(db, { txnId: drafts[1]!.txnId }))!.transaction;
      expect([aed.original_currency, dec(aed.original_amount).toFixed(), dec(aed.fx_rate).toFixed()]).to.deep.equal([
        'AED',
        '367.25',
        '3.6725',
      ]);
    });

    it('posts the same batch a second time as nothing, leaving identical books (idempotent ingest)', async () => {
      const batch = () =>
        Array.from({ length: 12 }, (_, i) =>
          draft({
            txn_type: i % 3 === 0 ? 'buy_security' : 'deposit',
            symbol: 'MSFT',
            source: 'usbroker',
            source_txn_id: `rerun-${i}`,
            amount_usd: `${i + 1}.50`,
          }),
        );
      const first = batch();
      expect(counts(await postTransactions(db, first))).to.deep.equal({
        inserted: 12,
        duplicate: 0,
        conflict: 0,
        rejected: 0,
      });
      const books = await booksSnapshot(db);
      const totals = await accountTotals(db);
      // Re-ingest: same business keys, new ids (as a fresh run would mint them) and the very same drafts.
      expect(counts(await postTransactions(db, batch()))).to.deep.equal({
        inserted: 0,
        duplicate: 12,
        conflict: 0,
        rejected: 0,
      });
      expect(counts(await postTransactions(db, first))).to.deep.equal({
        inserted: 0,
        duplicate: 12,
        conflict: 0,
        rejected: 0,
      });
      expect(await booksSnapshot(db)).to.deep.equal(books);
      expect(await accountTotals(db)).to.deep.equal(totals);
    });

    it('posts a business key repeated within one batch once', async () => {
      const a = draft({ source: 'custodian', source_txn_id: 'twice-in-batch', amount_usd: '10.00' });
      const b = draft({ source: 'custodian', source_txn_id: 'twice-in-batch', amount_usd: '10.00' });
      const before = await journalSums(db);
      const inserted = await writeDrafts(db, [a, b]);
      expect(inserted.size).to.equal(1);
      expect(await rowCount(db, 'transactions', { source: 'custodian', source_txn_id: 'twice-in-batch' })).to.equal(1);
      const [winner] = [...inserted];
      expect(await storedLines(winner!)).to.have.length(2);
      const after = await journalSums(db);
      expect(
        dec(after.get('1100')?.debit)
          .minus(dec(before.get('1100')?.debit))
          .toFixed(),
      ).to.equal('10');
    });

    it('posts a draft repeated within one batch once, with its lines once', async () => {
      const d = draft({ source: 'custodian', source_txn_id: 'same-draft-twice', amount_usd: '10.00' });
      const inserted = await writeDrafts(db, [d, d]);
      expect([...inserted]).to.deep.equal([d.txnId]);
      expect(await storedLines(d.txnId)).to.deep.equal(draftLines(d));
    });

    it('posts in chunks, and a re-run answers every record duplicate', async () => {
      const drafts = Array.from({ length: 25 }, (_, i) =>
        draft({ source: 'uaefeed', source_txn_id: `chunk-${i}`, amount_usd: '1.00' }),
      );
      expect(counts(await postTransactions(db, drafts, { chunkSize: 4, concurrency: 3 }))).to.deep.equal({
        inserted: 25,
        duplicate: 0,
        conflict: 0,
        rejected: 0,
      });
      expect(await rowCount(db, 'transactions', { source: 'uaefeed' })).to.equal(25);
      expect(counts(await postTransactions(db, [...drafts].reverse(), { chunkSize: 3 }))).to.deep.equal({
        inserted: 0,
        duplicate: 25,
        conflict: 0,
        rejected: 0,
      });
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
      expect(await rowCount(db, 'transactions', { txn_id: drafts[5]!.txnId })).to.equal(0);
      const after = await journalSums(db);
      expect(
        dec(after.get('2010')?.credit)
          .minus(dec(before.get('2010')?.credit))
          .toFixed(),
      ).to.equal('500');
    });

    it('refuses an unbalanced draft before it reaches the database', async () => {
      const d = draft();
      const unbalanced: TransactionDraft = {
        ...d,
        lines: [d.lines[0]!, { ...d.lines[1]!, credit: d.lines[1]!.credit.minus('0.01') }],
      };
      const before = await booksSnapshot(db);
      const error = await caught(() => writeDrafts(db, [unbalanced]));
      expect(String(error)).to.contain('invariant violated');
      expect(await booksSnapshot(db)).to.deep.equal(before);
    });
  });

  describe('postEntry', () => {
    it('posts a new entry and answers with the stored transaction and its lines', async () => {
      const d = draft({ amount_usd: '75.5', memo: 'first' });
      const { created, transaction } = await postEntry(db, d);
      expect(created).to.equal(true);
      expect(transaction).to.include({
        txn_id: d.txnId,
        customer_id: 'C-1',
        txn_type: 'deposit',
        source: 'manual',
        memo: 'first',
        txn_date: '2026-01-15',
      });
      expect(dec(transaction.amount_usd).toFixed()).to.equal('75.5');
      expect(
        transaction.journal_lines.map((l) => [
          l.account_code,
          l.account_name,
          dec(l.debit).toFixed(),
          dec(l.credit).toFixed(),
          l.customer_id,
          l.posting_kind,
        ]),
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
      for (const change of [
        { amount_usd: '20.01' },
        { customer_id: 'C-2' },
        { memo: 'other' },
        { txn_type: 'withdrawal' as const },
      ]) {
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
      await expectLedgerError(
        () => postEntry(db, draft({ txn_type: 'buy_security', symbol: 'AAPL', quantity: '0' })),
        'validation_error',
      );
      expect(await booksSnapshot(db)).to.deep.equal(books);
    });

    it('posts one transaction for 20 concurrent calls with one key', async () => {
      const e = entry({ source_txn_id: 'stampede', amount_usd: '33.00' });
      const before = await journalSums(db);
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => postEntry(db, draft(e))));
      expect(outcomes.filter((o) => o.created)).to.have.length(1);
      expect(new Set(outcomes.map((o) => o.transaction.txn_id)).size).to.equal(1);
      expect(await rowCount(db, 'transactions', { source: 'manual', source_txn_id: 'stampede' })).to.equal(1);
      const after = await journalSums(db);
      expect(
        dec(after.get('2010')?.credit)
          .minus(dec(before.get('2010')?.credit))
          .toFixed(),
      ).to.equal('33');
    });

    it('lets exactly one of two payloads racing on one key win; the other gets idempotency_conflict', async () => {
      const e = entry({ source_txn_id: 'race-two-payloads' });
      const settled = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => postEntry(db, draft({ ...e, amount_usd: i % 2 === 0 ? '1.00' : '2.00' }))),
      );
      const won = settled
        .filter((s) => s.status === 'fulfilled')
        .map((s) => (s as PromiseFulfilledResult<Awaited<ReturnType<typeof postEntry>>>).value);
      const lost = settled
        .filter((s) => s.status === 'rejected')
        .map((s) => (s as PromiseRejectedResult).reason as LedgerError);
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
      expect(outcomes.map((o) => ('code' in o ? o.code : o.created))).to.deep.equal([
        true,
        false,
        'idempotency_conflict',
      ]);
      expect(await rowCount(db, 'transactions', { source_txn_id: 'batch-fresh' })).to.equal(1);
    });

    it('fails only the bad entry of a batch the database refuses; the others are posted', async () => {
      const books = await booksSnapshot(db);
      const good = [draft({ source_txn_id: 'batch-good-1' }), draft({ source_txn_id: 'batch-good-2' })];
      const outcomes = await postEntries(db, [
        good[0]!,
        draft({ customer_id: 'C-404', source_txn_id: 'batch-bad' }),
        good[1]!,
      ]);
      expect(outcomes.map((o) => ('code' in o ? o.code : o.created))).to.deep.equal([true, 'unknown_customer', true]);
      expect(await rowCount(db, 'transactions', { source_txn_id: 'batch-bad' })).to.equal(0);
      const after = await booksSnapshot(db);
      expect(after).to.not.deep.equal(books);
      expect(await rowCount(db, 'transactions', { source_txn_id: 'batch-good-2' })).to.equal(1);
    });

    /** What a read of the entry's key answers, as postEntries' outcomes carry it. */
    const readBack = async (d: TransactionDraft) =>
      (await getTransaction(db, { source: d.source, sourceTxnId: d.sourceTxnId }))?.transaction;

    it('answers each entry with exactly what a read of it returns: created, repeated in the batch, already posted', async () => {
      const earlier = draft({ source_txn_id: 'read-back-earlier', memo: 'before', metadata: { desk: 'b', n: [1, 2] } });
      await postEntry(db, earlier);
      const fresh = [
        draft({
          txn_type: 'buy_security',
          symbol: 'AAPL',
          quantity: '3',
          amount_usd: '450.10',
          memo: 'with fee',
          metadata: { a: { b: 1 } },
        }),
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
      const twin = draft({
        txn_type: 'buy_security',
        symbol: 'AAPL',
        quantity: '3',
        amount_usd: '450.10',
        memo: 'with fee',
        metadata: { a: { b: 1 } },
        source_txn_id: fresh[0]!.sourceTxnId,
      });
      const batch = [
        ...fresh,
        twin,
        draft({ ...entry({ source_txn_id: 'read-back-earlier', memo: 'before', metadata: { n: [1, 2], desk: 'b' } }) }),
      ];
      const outcomes = await postEntries(db, batch);
      expect(outcomes.map((o) => ('code' in o ? o.code : o.created))).to.deep.equal([
        true,
        true,
        true,
        true,
        false,
        false,
      ]);
      for (const [i, d] of batch.entries()) {
        const outcome = outcomes[i] as Awaited<ReturnType<typeof postEntry>>;
        expect(outcome.transaction, `entry ${i}`).to.deep.equal(await readBack(d));
      }
      expect((outcomes[4] as Awaited<ReturnType<typeof postEntry>>).transaction.txn_id).to.equal(fresh[0]!.txnId);
      expect((outcomes[5] as Awaited<ReturnType<typeof postEntry>>).transaction.txn_id).to.equal(earlier.txnId);
      // The original of a reversal shows it when answered as already posted.
      const { transaction: reversal } = await reverseTransaction(db, earlier.txnId, {
        txnId: randomUUID(),
        txnDate: '2026-02-01',
        memo: null,
      });
      const [again] = await postEntries(db, [
        draft(entry({ source_txn_id: 'read-back-earlier', memo: 'before', metadata: { desk: 'b', n: [1, 2] } })),
      ]);
      expect((again as Awaited<ReturnType<typeof postEntry>>).transaction.reversed_by_txn_id).to.equal(reversal.txn_id);
      expect((again as Awaited<ReturnType<typeof postEntry>>).transaction).to.deep.equal(await readBack(earlier));
    });

    it('answers an entry whose key a concurrent transaction took after the statement began with that transaction', async () => {
      const same = entry({ source_txn_id: 'taken-meanwhile-same', amount_usd: '4.00' });
      const other = entry({ source_txn_id: 'taken-meanwhile-other', amount_usd: '4.00' });
      const rival = await db.transaction();
      try {
        // Inserted, not yet committed: the batch's insert waits on these keys, its snapshot predates their commit.
        await writeDrafts(rival, [draft(same), draft(other)]);
        const batch = [
          draft(same),
          draft({ source_txn_id: 'taken-meanwhile-fresh' }),
          draft({ ...other, amount_usd: '5.00' }),
        ];
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
        expect(outcomes.map((o) => ('code' in o ? o.code : o.created))).to.deep.equal([
          false,
          true,
          'idempotency_conflict',
        ]);
        const won = await readBack(batch[0]!);
        expect((outcomes[0] as Awaited<ReturnType<typeof postEntry>>).transaction).to.deep.equal(won);
        expect((outcomes[1] as Awaited<ReturnType<typeof postEntry>>).transaction).to.deep.equal(
          await readBack(batch[1]!),
        );
        expect((outcomes[2] as LedgerError).details).to.deep.equal([{ txn_id: (await readBack(batch[2]!))!.txn_id }]);
        expect(await rowCount(db, 'transactions', { source_txn_id: 'taken-meanwhile-same' })).to.equal(1);
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
        txn_id: d.txnId,
        customer_id: d.customerId,
        txn_type: d.txnType,
        source: d.source,
        source_txn_id: d.sourceTxnId,
        category: d.category,
        symbol: d.symbol,
        quantity: null,
        txn_date: d.txnDate,
        posted_at: new Date(),
        amount_usd: d.amountUsd.toFixed(),
        original_currency: null,
        original_amount: null,
        fx_rate: null,
        recosted_at: null,
        reverses_txn_id: null,
        reversed_by_txn_id: null,
        memo: d.memo,
        metadata: d.metadata,
        request_hash: d.requestHash,
        journal_lines: [],
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
        return statements === 1
          ? Promise.reject(new Error('connection terminated'))
          : Promise.reject(Object.assign(new Error('still down'), { code: '08006' }));
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
        ...Array.from({ length: 50 }, (_, i) =>
          batcher.post(draft({ source_txn_id: `batcher-${i}`, amount_usd: '1.00' })),
        ),
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
      expect(
        dec(after.get('2010')?.credit)
          .minus(dec(before.get('2010')?.credit))
          .toFixed(),
      ).to.equal('59');
    });
  });

  describe('reverseTransaction', () => {
    const reverse = (txnId: string, memo: string | null = null) =>
      reverseTransaction(db, txnId, { txnId: randomUUID(), txnDate: '2026-02-01', memo });

    it('posts the mirror of the original, naming it, and the original shows who reversed it', async () => {
      const original = (
        await postEntry(db, draft({ txn_type: 'buy_security', symbol: 'AAPL', quantity: '4', amount_usd: '800.00' }))
      ).transaction;
      const { created, transaction: r } = await reverse(original.txn_id, 'mistake');
      expect(created).to.equal(true);
      expect(r).to.include({
        txn_type: 'reversal',
        source: 'ledger',
        reverses_txn_id: original.txn_id,
        customer_id: 'C-1',
        symbol: 'AAPL',
        txn_date: '2026-02-01',
        memo: 'mistake',
      });
      const key = (l: { account_code: string; debit: string; credit: string; posting_kind: string | null }) =>
        `${l.account_code} ${dec(l.debit).toFixed()} ${dec(l.credit).toFixed()} ${l.posting_kind}`;
      expect(r.journal_lines.map(key).sort()).to.deep.equal(
        original.journal_lines.map((l) => key({ ...l, debit: l.credit, credit: l.debit })).sort(),
      );
      const net = new Map<string, Decimal>();
      for (const l of [...original.journal_lines, ...r.journal_lines])
        net.set(l.account_code, (net.get(l.account_code) ?? dec(0)).plus(l.debit).minus(l.credit));
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
      expect(await rowCount(db, 'transactions', { reverses_txn_id: original.txn_id })).to.equal(1);
      expect(
        await rowCount(db, 'transactions', { source: 'ledger', source_txn_id: `reversal:${original.txn_id}` }),
      ).to.equal(1);
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
});
