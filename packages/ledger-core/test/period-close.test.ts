import { expect } from 'chai';
import type { Knex } from 'knex';
import { nextDay, restateIntoOpenPeriod } from '../src/domain/periods.js';
import { closedThrough, closePeriod, postTransactions, reopenPeriod } from '../src/entry-points/store.js';
import type { TestDatabase } from '../src/testing/index.js';
import { draft, expectLedgerError, storeDatabase, writeDrafts } from './helpers.js';

const TODAY = '2026-03-01';

describe('closed periods in the database', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => ({ t, db } = await storeDatabase()));
  after(() => t?.drop());

  it('the first open day is the day after the close, across month and leap-year ends', () => {
    expect(['2026-01-31', '2024-02-28', '2024-02-29', '2026-12-31'].map(nextDay)).to.deep.equal([
      '2026-02-01',
      '2024-02-29',
      '2024-03-01',
      '2027-01-01',
    ]);
    const late = draft({ txn_date: '2026-01-20', metadata: { ref: 'x' } });
    expect(restateIntoOpenPeriod(late, null)).to.equal(late);
    expect(restateIntoOpenPeriod(late, '2026-01-19')).to.equal(late);
    const restated = restateIntoOpenPeriod(late, '2026-01-31');
    expect([restated.txnDate, restated.metadata]).to.deep.equal([
      '2026-02-01',
      { ref: 'x', original_txn_date: '2026-01-20' },
    ]);
  });

  it('refuses, as the runtime role, any insert dated on or before the close, naming the close; the day after posts', async () => {
    const { close } = await closePeriod(db, { through: '2026-01-31', actor: 'api', today: TODAY });
    expect(close).to.include({ action: 'close', through: '2026-01-31', actor: 'api' });
    const error = await expectLedgerError(
      () => writeDrafts(db, [draft({ txn_date: '2026-02-01' }), draft({ txn_date: '2026-01-31' })]),
      'period_closed',
    );
    expect(error.details).to.deep.equal([{ path: '/txn_date', close_id: close.close_id, through: '2026-01-31' }]);
    // Raw SQL gets no further than the store.
    const raw = await db
      .raw(
        `INSERT INTO transactions (txn_id, txn_type, source, source_txn_id, category, txn_date, amount_usd) VALUES (gen_random_uuid(), 'deposit', 'manual', 'raw-1', 'funding', '2026-01-15', 1)`,
      )
      .catch((e: { constraint?: string }) => e);
    expect((raw as { constraint?: string }).constraint).to.equal('ledger_period_closed');
    expect((await writeDrafts(db, [draft({ txn_date: '2026-02-01' })])).size).to.equal(1);
  });

  it('bulk posting (syncs, import, webhook syncs, recost) restates a closed day’s record on the first open day, and a re-run is a duplicate', async () => {
    const late = draft({ source: 'uaefeed', source_txn_id: 'late-bulk-1', txn_date: '2026-01-10' });
    const first = await postTransactions(db, [late]);
    expect(first.inserted).to.equal(1);
    const row = await db('transactions').where('txn_id', late.txnId).first('txn_date', 'metadata');
    expect([row.txn_date, row.metadata]).to.deep.equal(['2026-02-01', { original_txn_date: '2026-01-10' }]);
    await closePeriod(db, { through: '2026-02-10', actor: 'api', today: TODAY });
    // After a later close the first open day moved: the same record is still the same record.
    expect(
      (await postTransactions(db, [{ ...late, txnId: '00000000-0000-4000-8000-000000000001' }])).duplicate,
    ).to.equal(1);
    const changed = await postTransactions(db, [
      draft({ source: 'uaefeed', source_txn_id: 'late-bulk-1', txn_date: '2026-01-10', amount_usd: '7.00' }),
    ]);
    expect(changed.outcomes[0]).to.deep.include({ outcome: 'conflict', fields: ['amount_usd', 'journal_lines'] });
  });

  it('a close waits for a posting in flight, and a posting that starts while the close runs waits for it and is refused', async () => {
    const trx = await db.transaction();
    await writeDrafts(trx, [draft({ txn_date: '2026-02-15' })]);
    let closed = false;
    const closing = closePeriod(db, { through: '2026-02-20', actor: 'api', today: TODAY }).then(
      (c) => ((closed = true), c),
    );
    // Until the close is seen waiting on the period lock the posting holds (bounded). In this
    // database only: another suite's on the same server may be waiting on one of its own.
    for (let tries = 0; tries < 200; tries += 1) {
      const { rows } = await db.raw<{ rows: Array<{ waiting: number }> }>(
        `SELECT count(*)::int AS waiting FROM pg_locks
          WHERE locktype = 'advisory' AND NOT granted
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      if (rows[0]!.waiting > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(closed, 'the close waited for the posting in flight').to.equal(false);
    await trx.commit();
    expect((await closing).created).to.equal(true);
    await expectLedgerError(() => writeDrafts(db, [draft({ txn_date: '2026-02-16' })]), 'period_closed');
  });

  it('a close moves forward only; a reopening moves it back with a reason, and is audited', async () => {
    await expectLedgerError(() => closePeriod(db, { through: '2026-02-01', actor: 'api', today: TODAY }), 'conflict');
    await expectLedgerError(() => closePeriod(db, { through: TODAY, actor: 'api', today: TODAY }), 'validation_error');
    await expectLedgerError(
      () => reopenPeriod(db, { through: '2026-02-20', reason: 'no move', actor: 'api' }),
      'conflict',
    );
    const reopened = await reopenPeriod(db, {
      through: '2026-01-31',
      reason: 'restated custodian statement',
      actor: 'api:ana',
    });
    expect(reopened).to.include({
      action: 'reopen',
      through: '2026-01-31',
      reason: 'restated custodian statement',
      actor: 'api:ana',
    });
    expect(await closedThrough(db)).to.equal('2026-01-31');
    expect((await writeDrafts(db, [draft({ txn_date: '2026-02-05' })])).size).to.equal(1);
    // Neither the runtime role nor anyone through it rewrites the history.
    const update = await db('period_closes')
      .update({ through: null })
      .catch((e: { code?: string }) => e);
    expect((update as { code?: string }).code).to.equal('42501');
    await reopenPeriod(db, { through: null, reason: 'open everything', actor: 'api' });
    expect(await closedThrough(db)).to.equal(null);
    await expectLedgerError(() => reopenPeriod(db, { through: null, reason: 'again', actor: 'api' }), 'conflict');
  });

  it('a reopening goes through ledger_reopen_period alone: a raw reopen row is refused to the runtime role (even marked as the function marks it) and to the owner; the function demands actor and reason', async () => {
    await closePeriod(db, { through: '2026-02-25', actor: 'api', today: TODAY });
    const refusedWith = (q: PromiseLike<unknown>) =>
      Promise.resolve(q).then(
        () => null,
        (e: { code?: string; constraint?: string }) => `${e.code} ${e.constraint}`,
      );
    const rawReopen = { action: 'reopen', through: '2026-02-20', reason: 'by hand', actor: 'sql' };
    expect(await refusedWith(db('period_closes').insert(rawReopen))).to.equal('42501 period_closes_reopen_by_function');
    expect(
      await refusedWith(
        db.transaction(async (trx) => {
          await trx.raw(`SELECT set_config('ledger.reopening', 'on', true)`);
          await trx('period_closes').insert(rawReopen);
        }),
      ),
    ).to.equal('42501 period_closes_reopen_by_function');
    expect(await refusedWith(t.db('period_closes').insert(rawReopen))).to.equal(
      '42501 period_closes_reopen_by_function',
    );
    const blanks: Array<[string | null, string]> = [
      ['', 'api'],
      ['  ', 'api'],
      ['why', ''],
      [null, 'api'],
    ];
    for (const [reason, actor] of blanks) {
      expect(
        await refusedWith(db.raw('SELECT * FROM ledger_reopen_period(?::date, ?, ?)', ['2026-02-20', reason, actor])),
        `${reason}/${actor}`,
      ).to.equal('23514 period_closes_reopen_has_reason');
    }
    expect(await closedThrough(db)).to.equal('2026-02-25');
    const reopened = await reopenPeriod(db, { through: '2026-02-20', reason: 'restated', actor: 'api:ana' });
    expect(reopened).to.include({ action: 'reopen', through: '2026-02-20', reason: 'restated', actor: 'api:ana' });
    expect(await closedThrough(db)).to.equal('2026-02-20');
    // The function's mark does not outlive its statement: a raw reopen after it in the same transaction is refused.
    expect(
      await refusedWith(
        db.transaction(async (trx) => {
          await trx.raw('SELECT * FROM ledger_reopen_period(?::date, ?, ?)', ['2026-02-15', 'restated', 'api']);
          await trx('period_closes').insert({ ...rawReopen, through: '2026-02-10' });
        }),
      ),
    ).to.equal('42501 period_closes_reopen_by_function');
    await reopenPeriod(db, { through: null, reason: 'open everything', actor: 'api' });
  });
});
