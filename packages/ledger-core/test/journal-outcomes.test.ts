import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { Decimal, FeeSchedule, LedgerError } from '../src/entry-points/posting.js';
import { postEntry, postTransactions, previewTransactions, upsertCustomer } from '../src/entry-points/store.js';
import { JOURNAL_OUTCOMES, REJECTION_CODES, rejectedBy } from '../src/domain/journal-outcome.js';
import type { TestDatabase } from '../src/testing/index.js';
import { draft, expectLedgerError, storeDatabase } from './helpers.js';

/*
 * One idempotency rule for every door (ADR 0015, docs/outcomes.md): a repeated key is the same
 * record when it comes from the same request (its request hash) or states the same facts, and a
 * conflict otherwise, whether the API or a job sends it.
 */

const OUTCOMES_DOC = readFileSync(new URL('../../../docs/outcomes.md', import.meta.url), 'utf8');

describe('one outcome and one idempotency rule for every write of the journal', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => {
    ({ t, db } = await storeDatabase());
    for (const id of ['C-1', 'C-2']) await upsertCustomer(db, id, {});
  });
  after(async () => t?.drop());

  const trade = (sourceTxnId: string, feeBps: number) =>
    draft(
      {
        txn_type: 'buy_security',
        symbol: 'AAPL',
        quantity: '3',
        amount_usd: '450.00',
        source: 'usbroker',
        source_txn_id: sourceTxnId,
      },
      randomUUID(),
      { feeSchedule: new FeeSchedule(new Decimal(feeBps)) },
    );

  it('a job re-sending a record under another fee schedule: the same request, a duplicate, to the job and to preview', async () => {
    const original = trade('ORD-FEES-1', 22);
    const first = await postTransactions(db, [original]);
    const again = trade('ORD-FEES-1', 40);
    // The fees in force are pinned in the metadata: a fact that differs, from the same request.
    expect(again.metadata).to.not.deep.equal(original.metadata);
    expect(again.requestHash).to.equal(original.requestHash);
    const stored = first.outcomes[0] as { txnId: string };
    expect((await postTransactions(db, [again])).outcomes).to.deep.equal([
      { outcome: 'duplicate', txnId: stored.txnId },
    ]);
    expect((await previewTransactions(db, [again])).outcomes).to.deep.equal([
      { outcome: 'duplicate', txnId: stored.txnId },
    ]);
  });

  it('a record with other facts from another request is a conflict to a job, and 409 idempotency_conflict over the API', async () => {
    const key = `K-${randomUUID()}`;
    const posted = await postEntry(db, draft({ source_txn_id: key, amount_usd: '10.00' }));
    const other = draft({ source_txn_id: key, amount_usd: '11.00' });
    expect((await postTransactions(db, [other])).outcomes).to.deep.equal([
      { outcome: 'conflict', txnId: posted.transaction.txn_id, fields: ['amount_usd', 'journal_lines'] },
    ]);
    const refused = await expectLedgerError(() => postEntry(db, other), 'idempotency_conflict');
    expect(refused.details).to.deep.equal([{ txn_id: posted.transaction.txn_id }]);
  });

  it('an entry stating the same facts in another spelling (lines in another order) is a replay over the API, as it is to a job', async () => {
    const key = `K-${randomUUID()}`;
    const lines = [
      { account_code: '1010', debit: '5.00', credit: '0' },
      { account_code: '4010', debit: '0', credit: '5.00' },
    ];
    const adjustment = (order: typeof lines) =>
      draft({ txn_type: 'adjustment', customer_id: null, source_txn_id: key, amount_usd: '5.00', lines: order });
    const posted = await postEntry(db, adjustment(lines));
    const reordered = adjustment([...lines].reverse());
    expect(reordered.requestHash).to.not.equal(adjustment(lines).requestHash);
    const replay = await postEntry(db, reordered);
    expect(replay).to.deep.equal({ created: false, transaction: posted.transaction });
    expect((await postTransactions(db, [reordered])).outcomes).to.deep.equal([
      { outcome: 'duplicate', txnId: posted.transaction.txn_id },
    ]);
  });

  it('answers a refusal as rejected with a code of the closed set; another code is a bug', async () => {
    const result = await postTransactions(db, [draft({ customer_id: 'nobody' })]);
    expect(result.outcomes).to.have.length(1);
    const [rejected] = result.outcomes;
    expect(rejected).to.deep.include({ outcome: 'rejected' });
    expect((rejected as { reason: LedgerError }).reason.code).to.equal('unknown_customer');
    expect(() => rejectedBy(new LedgerError('idempotency_conflict', 'not a refusal'))).to.throw(/not a rejection code/);
  });

  it('documents each outcome and each rejection code once, in its table of docs/outcomes.md', () => {
    // Each in its own section: a code may name other things in the doc's later tables (a customer failure's `conflict`).
    const section = (title: string) => OUTCOMES_DOC.split('\n## ').find((part) => part.startsWith(`${title}\n`)) ?? '';
    const tables = [
      ['Outcomes', JOURNAL_OUTCOMES],
      ['Rejection codes', REJECTION_CODES],
    ] as const;
    for (const [title, names] of tables) {
      for (const name of names) {
        const rows = section(title)
          .split('\n')
          .filter((line) => line.startsWith(`| \`${name}\` |`));
        expect(rows, name).to.have.length(1);
      }
    }
  });
});
