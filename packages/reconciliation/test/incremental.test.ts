import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { NO_UPSTREAMS } from '@ledger/upstream-clients';
import { createDb } from '@ledger/core/store';
import { DEFAULT_RECON_SETTINGS, runReconciliation, type ReconSettings } from '../src/index.js';
import { cleanBook, corrupt, post } from './book.js';

type Book = Awaited<ReturnType<typeof cleanBook>>;

/**
 * A transaction of two lines that do not balance (5.00 against 4.99), written around the ledger's
 * checks, by this database transaction (default) or, `long_ago`, stamped as if posted by the
 * first one the cluster ever ran (xid 3: every snapshot saw it).
 */
async function plantUnbalanced(book: Book, when: 'now' | 'long_ago' = 'now'): Promise<string> {
  const txnId = randomUUID();
  await corrupt(
    book.db,
    `INSERT INTO transactions (txn_id, customer_id, txn_type, source, source_txn_id, category, txn_date, amount_usd, created_xid)
     VALUES (?, 'C-1', 'deposit', 'manual', ?, 'funding', '2026-01-20', '5.00', CASE WHEN ?::text = 'long_ago' THEN '3'::xid8 ELSE pg_current_xact_id() END)`,
    [txnId, `planted-${txnId}`, when],
  );
  await corrupt(
    book.db,
    `INSERT INTO journal_lines (txn_id, account_code, debit, credit, customer_id, posting_kind, txn_date)
     VALUES (?, '1100', 5.00, 0, 'C-1', 'deposit', '2026-01-20'), (?, '2010', 0, 4.99, 'C-1', 'deposit', '2026-01-20')`,
    [txnId, txnId],
  );
  return txnId;
}

describe('incremental reconciliation runs', function () {
  this.timeout(60_000);
  let book: Book;
  const settings = (fullSweepEveryHours = 24): ReconSettings => ({
    ...DEFAULT_RECON_SETTINGS,
    incremental: { enabled: true, fullSweepEveryHours },
  });
  const run = (s: ReconSettings = settings()) =>
    runReconciliation(
      { db: book.runtimeDb, book: 'ENTITY_UAE', settings: s, upstreams: NO_UPSTREAMS },
      { category: 'A' },
    );
  const resultOf = (r: Awaited<ReturnType<typeof run>>, name: string) => r.results.find((x) => x.check_name === name)!;
  const mark = async (name: string) =>
    (await book
      .db('reconciliation_check_cycles')
      .where({ check_name: name })
      .first(book.db.raw('swept_snapshot::text AS swept_snapshot'), 'full_swept_at')) as
      { swept_snapshot: string | null; full_swept_at: Date | null } | undefined;

  beforeEach(async () => {
    book = await cleanBook();
  });
  afterEach(async () => book?.drop());

  it('the first run sweeps the whole book and, clean, sets each journal check’s high-water mark; the next looks only at what was posted since', async () => {
    const first = await run();
    expect(resultOf(first, 'journal_line_completeness').metrics).to.include({ sweep: 'full' });
    expect(resultOf(first, 'trial_balance_zero').metrics).to.not.have.property('sweep');
    const names = ['journal_line_completeness', 'source_txn_uniqueness', 'dr_cr_sign_convention'];
    const marks = new Map<string, string | null>();
    for (const name of names) {
      const after = await mark(name);
      expect(after?.swept_snapshot, name).to.be.a('string');
      expect(after?.full_swept_at, name).to.be.instanceOf(Date);
      marks.set(name, after!.swept_snapshot);
    }
    await post(book.db, { txn_type: 'deposit', amount_usd: '10.00', source_txn_id: 'dep-later' });
    const second = await run();
    for (const name of names) {
      expect(resultOf(second, name), name).to.deep.include({ status: 'ok' });
      expect(resultOf(second, name).metrics, name).to.include({
        sweep: 'incremental',
        since: marks.get(name),
        new_transactions: 1,
      });
    }
  });

  it('a variance planted after the mark is found by the incremental run, and the mark stays until it is gone', async () => {
    await run();
    const before = await mark('journal_line_completeness');
    const planted = await plantUnbalanced(book);
    const found = await run();
    const check = resultOf(found, 'journal_line_completeness');
    expect(check).to.deep.include({ status: 'fail' });
    expect(check.metrics).to.include({ sweep: 'incremental', incomplete_transactions: 1 });
    expect(
      found.metadata.variances
        .filter((v) => v.check_name === 'journal_line_completeness')
        .map((v) => [v.txn_id, v.detail.problem]),
    ).to.deep.equal([[planted, 'unbalanced']]);
    // Not clean: the mark does not move, so the next run looks at the planted transaction again.
    expect((await mark('journal_line_completeness'))?.swept_snapshot).to.deep.equal(before?.swept_snapshot);
    expect(resultOf(await run(), 'journal_line_completeness')).to.deep.include({ status: 'fail' });
  });

  it('a transaction the mark’s snapshot saw is not looked at again until the periodic full sweep, which finds it', async () => {
    await run();
    // As if its posting had committed long ago: only a full sweep looks at it.
    const planted = await plantUnbalanced(book, 'long_ago');
    expect(resultOf(await run(settings(1)), 'journal_line_completeness')).to.deep.include({ status: 'ok' });
    // The last full sweep two hours old, and RECON_FULL_SWEEP_HOURS 1: a full sweep is due.
    await book.db('reconciliation_check_cycles').update({ full_swept_at: book.db.raw(`now() - interval '2 hours'`) });
    const swept = await run(settings(1));
    expect(resultOf(swept, 'journal_line_completeness')).to.deep.include({ status: 'fail' });
    expect(resultOf(swept, 'journal_line_completeness').metrics).to.include({ sweep: 'full' });
    expect(swept.metadata.variances.map((v) => v.txn_id)).to.include(planted);
  });

  it('a transaction left open elsewhere (a run waiting for a check’s lock, a long report) does not hold the mark back: the next run looks only at what is new', async () => {
    const other = createDb({ url: book.runtime!.url, poolMax: 1, applicationName: 'long-reader' });
    const reader = await other.transaction();
    try {
      await run();
      await reader.raw('SELECT 1');
      for (const n of [1, 2, 3])
        await post(book.db, { txn_type: 'deposit', amount_usd: '1.00', source_txn_id: `open-${n}` });
      const names = ['journal_line_completeness', 'source_txn_uniqueness', 'dr_cr_sign_convention'];
      const seen = await run();
      // A line slipped (around the checks) into a transaction that clean run verified: a run that
      // looked at it again would find it unbalanced; one that reads only what is new does not.
      await corrupt(
        book.db,
        `INSERT INTO journal_lines (txn_id, account_code, debit, credit, customer_id, posting_kind, txn_date)
         SELECT txn_id, '1100', 1.00, 0, 'C-1', 'deposit', txn_date FROM transactions WHERE source_txn_id = 'open-1'`,
      );
      const next = await run();
      expect(resultOf(next, 'journal_line_completeness').status).to.equal('ok');
      for (const name of names) expect(resultOf(seen, name).metrics, name).to.include({ new_transactions: 3 });
      for (const name of names)
        expect(resultOf(next, name).metrics, name).to.include({ sweep: 'incremental', new_transactions: 0 });
    } finally {
      await reader.rollback();
      await other.destroy();
    }
  });

  it('a posting in progress when a clean run takes its snapshot is looked at by the next run, once it commits', async () => {
    const other = createDb({ url: book.url, poolMax: 1, applicationName: 'late-writer' });
    const writer = await other.transaction();
    try {
      await run();
      await writer.raw('SET LOCAL session_replication_role = replica');
      const late = randomUUID();
      await writer.raw(
        `INSERT INTO transactions (txn_id, customer_id, txn_type, source, source_txn_id, category, txn_date, amount_usd)
         VALUES (?, 'C-1', 'deposit', 'manual', 'late-1', 'funding', '2026-01-20', '5.00')`,
        [late],
      );
      // Posted, not committed: the run does not see it, is clean, and moves its mark.
      expect(resultOf(await run(), 'journal_line_completeness').status).to.equal('ok');
      await writer.commit();
      const found = await run();
      expect(resultOf(found, 'journal_line_completeness')).to.deep.include({ status: 'fail' });
      expect(resultOf(found, 'journal_line_completeness').metrics).to.include({
        sweep: 'incremental',
        new_transactions: 1,
      });
      expect(found.metadata.variances.map((v) => v.txn_id)).to.include(late);
    } finally {
      if (!writer.isCompleted()) await writer.rollback();
      await other.destroy();
    }
  });

  it('a second reversal posted after the mark is counted with the first, posted before it', async () => {
    const original = (await book.db('transactions').where({ source_txn_id: 'dep-1' }).first('txn_id')) as {
      txn_id: string;
    };
    await book.db.raw('DROP INDEX transactions_one_reversal');
    const reverse = (id: string, i: number) =>
      corrupt(
        book.db,
        `INSERT INTO transactions (txn_id, customer_id, txn_type, source, source_txn_id, category, txn_date, amount_usd, reverses_txn_id)
         VALUES (?, 'C-1', 'reversal', 'ledger', ?, 'funding', '2026-01-20', 1000.00, ?)`,
        [id, `reversal:${original.txn_id}:${i}`, original.txn_id],
      );
    const reversals = [randomUUID(), randomUUID()];
    await reverse(reversals[0]!, 0);
    expect(resultOf(await run(), 'source_txn_uniqueness').status).to.equal('ok');
    await reverse(reversals[1]!, 1);
    const found = await run();
    expect(resultOf(found, 'source_txn_uniqueness').metrics).to.include({ sweep: 'incremental' });
    expect(
      found.metadata.variances.filter((v) => v.check_name === 'source_txn_uniqueness').map((v) => [v.txn_id, v.detail]),
    ).to.deep.equal([[original.txn_id, { problem: 'reversed_more_than_once', reversals }]]);
  });

  it('with RECON_INCREMENTAL_ENABLED false every run is a full sweep', async () => {
    const off: ReconSettings = { ...DEFAULT_RECON_SETTINGS, incremental: { enabled: false, fullSweepEveryHours: 24 } };
    await run(off);
    expect(resultOf(await run(off), 'journal_line_completeness').metrics).to.include({ sweep: 'full' });
  });

  it('each journal check finds its own kind of variance planted after the mark: a duplicate source id, an overdrawn wallet, a drifted wallet total, lines no daily total counts', async () => {
    await runReconciliation({ db: book.runtimeDb, book: 'ENTITY_UAE', settings: settings(), upstreams: NO_UPSTREAMS });
    // After the mark: a second transaction under dep-2's key, its lines overdrawing C-2 (no total counts them), the 2010 total drifted by 1.00.
    await post(book.db, {
      txn_type: 'deposit',
      customer_id: 'C-2',
      amount_usd: '1.00',
      txn_date: '2026-01-22',
      source_txn_id: 'dep-late',
    });
    await book.db.raw('ALTER TABLE transactions DROP CONSTRAINT transactions_source_txn_unique');
    await corrupt(
      book.db,
      `INSERT INTO transactions (txn_id, customer_id, txn_type, source, source_txn_id, category, txn_date, amount_usd) VALUES (?, 'C-2', 'withdrawal', 'manual', 'dep-2', 'funding', '2026-01-21', '500.00')`,
      [randomUUID()],
    );
    await corrupt(
      book.db,
      `INSERT INTO account_totals (account_code, slot, debit_total, credit_total, line_count) VALUES ('2010', 99, 0, 1.00, 0)`,
    );
    await corrupt(
      book.db,
      `INSERT INTO journal_lines (txn_id, account_code, debit, credit, customer_id, posting_kind, txn_date) SELECT txn_id, '2010', 600.00, 0, 'C-2', 'withdrawal', '2026-01-21' FROM transactions WHERE source_txn_id = 'dep-2' AND txn_type = 'withdrawal'`,
    );
    await corrupt(
      book.db,
      `INSERT INTO journal_lines (txn_id, account_code, debit, credit, customer_id, posting_kind, txn_date) SELECT txn_id, '1100', 0, 600.00, 'C-2', 'withdrawal', '2026-01-21' FROM transactions WHERE source_txn_id = 'dep-2' AND txn_type = 'withdrawal'`,
    );
    const found = await runReconciliation({
      db: book.runtimeDb,
      book: 'ENTITY_UAE',
      settings: settings(),
      upstreams: NO_UPSTREAMS,
    });
    const problems = (name: string) =>
      found.metadata.variances.filter((v) => v.check_name === name).map((v) => v.detail.problem);
    for (const name of ['source_txn_uniqueness', 'dr_cr_sign_convention', 'wallet_derivation', 'account_totals'])
      expect(resultOf(found, name).metrics, name).to.include({ sweep: 'incremental' });
    expect(problems('source_txn_uniqueness')).to.deep.equal(['duplicate_source_txn_id']);
    expect(problems('dr_cr_sign_convention')).to.deep.equal(['wallet_in_debit']);
    expect(problems('wallet_derivation')).to.deep.equal(['wallet_total_differs_from_daily_totals']);
    expect(problems('account_totals')).to.have.members([
      'account_totals_differs',
      'account_daily_totals_differs',
      'account_daily_totals_differs',
      'transaction_daily_totals_differs',
    ]);
  });
});
