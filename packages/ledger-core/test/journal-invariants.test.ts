import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { Decimal, type TransactionDraft } from '../src/entry-points/posting.js';
import { createDb, postTransactions, reverseTransaction } from '../src/entry-points/store.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import {
  aggregateSums,
  asPgFailure,
  booksSnapshot,
  caught,
  draft,
  journalSums,
  type PgFailure,
  writeDrafts,
} from './helpers.js';

/**
 * The database itself, reached with hand-written SQL, must refuse whatever would leave the
 * books unbalanced or edit history, at the latest at COMMIT.
 */
describe('journal (raw SQL against the database)', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => {
    t = await createTestDatabase({ poolMax: 30 });
    db = t.db;
    await db.raw(`INSERT INTO customers (customer_id) VALUES ('C-1'), ('C-2')`);
  });
  after(async () => {
    await t?.drop();
  });

  interface TxnFacts {
    id?: string;
    customerId?: string | null;
    source?: string;
    sourceTxnId?: string;
    txnDate?: string;
    amountUsd?: string;
  }
  async function insertTxn(q: Knex | Knex.Transaction, facts: TxnFacts = {}): Promise<string> {
    const id = facts.id ?? randomUUID();
    await q.raw(
      `INSERT INTO transactions (txn_id, customer_id, txn_type, source, source_txn_id, category, txn_date, amount_usd)
       VALUES (?, ?, 'adjustment', ?, ?, 'adjustment', ?, ?)`,
      [
        id,
        facts.customerId ?? null,
        facts.source ?? 'manual',
        facts.sourceTxnId ?? id,
        facts.txnDate ?? '2026-01-15',
        facts.amountUsd ?? '100',
      ],
    );
    return id;
  }
  interface Line {
    account: string;
    debit: string;
    credit: string;
    customerId?: string | null;
    txnDate?: string;
    /** The line's AED amount (native_currency AED); absent: none. */
    aed?: string;
  }
  const dr = (account: string, amount: string, extra: Partial<Line> = {}): Line => ({
    account,
    debit: amount,
    credit: '0',
    ...extra,
  });
  const cr = (account: string, amount: string, extra: Partial<Line> = {}): Line => ({
    account,
    debit: '0',
    credit: amount,
    ...extra,
  });
  async function insertLines(q: Knex | Knex.Transaction, txnId: string, lines: Line[]): Promise<void> {
    const values = lines.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
    await q.raw(
      `INSERT INTO journal_lines (txn_id, account_code, debit, credit, customer_id, txn_date, native_currency, native_amount) VALUES ${values}`,
      lines.flatMap((l) => [
        txnId,
        l.account,
        l.debit,
        l.credit,
        l.customerId ?? null,
        l.txnDate ?? '2026-01-15',
        l.aed === undefined ? null : 'AED',
        l.aed ?? null,
      ]),
    );
  }

  /** Runs `work` in one database transaction; says whether every statement ran and how COMMIT went. */
  async function attempt(
    work: (trx: Knex.Transaction) => Promise<void>,
  ): Promise<{ statementsRan: boolean; error: PgFailure | null }> {
    let statementsRan = false;
    try {
      await db.transaction(async (trx) => {
        await work(trx);
        statementsRan = true;
      });
      return { statementsRan, error: null };
    } catch (error) {
      return { statementsRan, error: asPgFailure(error) };
    }
  }

  async function storedTxnCount(id: string): Promise<number> {
    const { rows } = await db.raw<{ rows: Array<{ n: string }> }>(
      `SELECT ((SELECT count(*) FROM transactions WHERE txn_id = ?) + (SELECT count(*) FROM journal_lines WHERE txn_id = ?))::text AS n`,
      [id, id],
    );
    return Number(rows[0]!.n);
  }

  /** Asserts the refusal, and that the books are exactly as they were before the attempt. */
  async function expectRefused(
    work: (trx: Knex.Transaction) => Promise<void>,
    refusal: { atCommit: boolean; code: string | string[]; constraint?: string; message?: string },
  ): Promise<void> {
    const before = await booksSnapshot(db);
    const { statementsRan, error } = await attempt(work);
    expect(error, 'the database accepted it').to.not.equal(null);
    expect(error!.code, error!.message).to.be.oneOf([refusal.code].flat());
    if (refusal.constraint) expect(error!.constraint, error!.message).to.equal(refusal.constraint);
    if (refusal.message) expect(error!.message).to.contain(refusal.message);
    expect(statementsRan, 'refused at COMMIT (every statement ran)').to.equal(refusal.atCommit);
    expect(await booksSnapshot(db)).to.deep.equal(before);
  }

  /** A committed, balanced transaction to try to change. */
  async function committedTxn(customerId: string | null = null): Promise<string> {
    const id = randomUUID();
    await db.transaction(async (trx) => {
      await insertTxn(trx, { id, customerId });
      await insertLines(trx, id, [dr('1010', '100', { customerId }), cr('3000', '100', { customerId })]);
    });
    return id;
  }

  describe('at commit', () => {
    it('refuses a transaction with no lines, and stores nothing of it', async () => {
      const id = randomUUID();
      await expectRefused((trx) => insertTxn(trx, { id }).then(() => undefined), {
        atCommit: true,
        code: '23514',
        constraint: 'ledger_transaction_min_lines',
      });
      expect(await storedTxnCount(id)).to.equal(0);
    });

    it('refuses a transaction with one line', async () => {
      const id = randomUUID();
      await expectRefused(
        async (trx) => {
          await insertTxn(trx, { id });
          await insertLines(trx, id, [dr('1010', '100')]);
        },
        { atCommit: true, code: '23514', constraint: 'ledger_transaction_min_lines' },
      );
      expect(await storedTxnCount(id)).to.equal(0);
    });

    it('refuses unbalanced lines (debit 100 / credit 99.99)', async () => {
      const id = randomUUID();
      await expectRefused(
        async (trx) => {
          await insertTxn(trx, { id });
          await insertLines(trx, id, [dr('1010', '100'), cr('3000', '99.99')]);
        },
        { atCommit: true, code: '23514', constraint: 'ledger_transaction_balanced' },
      );
      expect(await storedTxnCount(id)).to.equal(0);
    });

    it('refuses lines that are off by a cent, the smallest amount the ledger keeps', async () => {
      const id = randomUUID();
      await expectRefused(
        async (trx) => {
          await insertTxn(trx, { id });
          await insertLines(trx, id, [dr('1010', '100.01'), cr('3000', '60'), cr('4010', '40')]);
        },
        { atCommit: true, code: '23514', constraint: 'ledger_transaction_balanced' },
      );
    });

    it('refuses one unbalanced transaction among balanced ones, storing none of them', async () => {
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      await expectRefused(
        async (trx) => {
          for (const [i, id] of ids.entries()) {
            await insertTxn(trx, { id });
            await insertLines(trx, id, [dr('1010', '10'), cr('3000', i === 1 ? '9' : '10')]);
          }
        },
        { atCommit: true, code: '23514', constraint: 'ledger_transaction_balanced' },
      );
      for (const id of ids) expect(await storedTxnCount(id)).to.equal(0);
    });

    it('commits a balanced transaction whose lines arrive over several statements (the check is at commit)', async () => {
      const id = randomUUID();
      const { statementsRan, error } = await attempt(async (trx) => {
        await insertTxn(trx, { id, customerId: 'C-1' });
        await insertLines(trx, id, [dr('1100', '60', { customerId: 'C-1' })]);
        await insertLines(trx, id, [dr('1100', '40', { customerId: 'C-1' })]);
        await insertLines(trx, id, [cr('2010', '100', { customerId: 'C-1' })]);
      });
      expect(error, error?.message).to.equal(null);
      expect(statementsRan).to.equal(true);
      expect(await storedTxnCount(id)).to.equal(4);
    });

    it('commits several transactions whose lines interleave over the statements of one database transaction', async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      const { error } = await attempt(async (trx) => {
        await insertTxn(trx, { id: a });
        await insertTxn(trx, { id: b });
        await insertLines(trx, a, [dr('1010', '5')]);
        await insertLines(trx, b, [dr('1010', '7'), cr('3000', '7')]);
        await insertLines(trx, a, [cr('3000', '5')]);
      });
      expect(error, error?.message).to.equal(null);
      expect(await storedTxnCount(a)).to.equal(3);
      expect(await storedTxnCount(b)).to.equal(3);
    });

    it('refuses unbalanced lines added after SET CONSTRAINTS ALL IMMEDIATE ran the balance check early', async () => {
      const id = randomUUID();
      const before = await booksSnapshot(db);
      const { error } = await attempt(async (trx) => {
        await insertTxn(trx, { id });
        await insertLines(trx, id, [dr('1010', '1'), cr('3000', '1')]);
        await trx.raw('SET CONSTRAINTS ALL IMMEDIATE');
        await insertLines(trx, id, [dr('1010', '5')]);
      });
      const stored = await db.raw<{ rows: Array<{ debit: string | null; credit: string | null }> }>(
        'SELECT sum(debit)::text AS debit, sum(credit)::text AS credit FROM journal_lines WHERE txn_id = ?',
        [id],
      );
      expect(error, `committed unbalanced: ${JSON.stringify(stored.rows[0])}`).to.not.equal(null);
      expect(await booksSnapshot(db)).to.deep.equal(before);
    });
  });

  describe('journal lines', () => {
    it('refuses a line with both sides set', async () => {
      const id = randomUUID();
      await expectRefused(
        async (trx) => {
          await insertTxn(trx, { id });
          await insertLines(trx, id, [
            { account: '1010', debit: '100', credit: '100' },
            { account: '3000', debit: '0', credit: '0.01' },
            dr('3000', '0.01'),
          ]);
        },
        { atCommit: false, code: '23514', constraint: 'journal_lines_one_side' },
      );
      expect(await storedTxnCount(id)).to.equal(0);
    });

    it('refuses a line with neither side set (both 0)', async () => {
      const id = randomUUID();
      await expectRefused(
        async (trx) => {
          await insertTxn(trx, { id });
          await insertLines(trx, id, [
            dr('1010', '100'),
            cr('3000', '100'),
            { account: '2340', debit: '0', credit: '0' },
          ]);
        },
        { atCommit: false, code: '23514', constraint: 'journal_lines_one_side' },
      );
    });

    it('refuses a negative amount on either side, even when the transaction would balance', async () => {
      for (const lines of [
        [dr('1010', '-100'), dr('3000', '100')],
        [cr('1010', '-100'), cr('3000', '100')],
        [{ account: '1010', debit: '100', credit: '-100' }, dr('3000', '-100'), cr('3000', '100')],
      ]) {
        const id = randomUUID();
        await expectRefused(
          async (trx) => {
            await insertTxn(trx, { id });
            await insertLines(trx, id, lines);
          },
          { atCommit: false, code: '23514', constraint: 'journal_lines_one_side' },
        );
      }
    });

    it('refuses lines added to an already committed transaction, even balanced ones', async () => {
      const id = await committedTxn();
      await expectRefused((trx) => insertLines(trx, id, [dr('1010', '5'), cr('3000', '5')]), {
        atCommit: false,
        code: '23514',
        constraint: 'ledger_lines_posted_with_transaction',
      });
      expect(await storedTxnCount(id)).to.equal(3);
    });

    it('refuses lines for a committed transaction smuggled into a statement with a new transaction’s lines', async () => {
      const old = await committedTxn();
      const id = randomUUID();
      await expectRefused(
        async (trx) => {
          await insertTxn(trx, { id });
          await trx.raw(
            `INSERT INTO journal_lines (txn_id, account_code, debit, credit, txn_date) VALUES
               (?, '1010', 5, 0, '2026-01-15'), (?, '3000', 0, 5, '2026-01-15'), (?, '1010', 1, 0, '2026-01-15'), (?, '3000', 0, 1, '2026-01-15')`,
            [id, id, old, old],
          );
        },
        { atCommit: false, code: '23514', constraint: 'ledger_lines_posted_with_transaction' },
      );
    });

    it('refuses a line for a transaction that does not exist', async () => {
      const id = randomUUID();
      await expectRefused(
        async (trx) => {
          await insertTxn(trx, { id });
          await insertLines(trx, id, [dr('1010', '5'), cr('3000', '5')]);
          await insertLines(trx, randomUUID(), [dr('1010', '5'), cr('3000', '5')]);
        },
        { atCommit: false, code: ['23514', '23503'] }, // a trigger's check_violation, or a foreign key's
      );
    });

    it('refuses a line whose txn_date differs from its transaction’s', async () => {
      const id = randomUUID();
      await expectRefused(
        async (trx) => {
          await insertTxn(trx, { id, txnDate: '2026-01-15' });
          await insertLines(trx, id, [dr('1010', '5'), cr('3000', '5', { txnDate: '2026-01-16' })]);
        },
        { atCommit: false, code: '23514', constraint: 'ledger_lines_posted_with_transaction' },
      );
    });

    it('refuses a line whose customer_id differs from its transaction’s (another customer, or none)', async () => {
      for (const [txnCustomer, lineCustomer] of [
        ['C-1', 'C-2'],
        ['C-1', null],
        [null, 'C-1'],
      ] as const) {
        const id = randomUUID();
        await expectRefused(
          async (trx) => {
            await insertTxn(trx, { id, customerId: txnCustomer });
            await insertLines(trx, id, [
              dr('1100', '5', { customerId: txnCustomer }),
              cr('4010', '5', { customerId: lineCustomer }),
            ]);
          },
          { atCommit: false, code: '23514', constraint: 'ledger_lines_posted_with_transaction' },
        );
      }
    });

    it('refuses a line on a customer account (2010, 2020, 2100) without a customer; a firm account needs none', async () => {
      for (const account of ['2010', '2020', '2100']) {
        const id = randomUUID();
        await expectRefused(
          async (trx) => {
            await insertTxn(trx, { id, customerId: null });
            await insertLines(trx, id, [dr('4010', '5'), cr(account, '5', account === '2020' ? { aed: '18.36' } : {})]);
          },
          { atCommit: false, code: '23514', constraint: 'journal_lines_customer_account_has_customer' },
        );
      }
      await db.transaction(async (trx) => {
        const id = await insertTxn(trx, { customerId: null });
        await insertLines(trx, id, [dr('5030', '5'), cr('1010', '5')]);
      });
    });

    it('refuses a line of an AED account (1020, 2020) without its AED amount, an AED amount on a USD line, and one not positive or not in fils', async () => {
      // Against a firm account (4010): the lines need no customer.
      const cases: Array<[Line[], string]> = [
        [[dr('1020', '2.72'), cr('4010', '2.72')], 'journal_lines_aed_line_has_native_amount'],
        [[dr('1100', '2.72', { aed: '10.00' }), cr('4010', '2.72')], 'journal_lines_native_currency_of_account'],
        [[dr('1020', '2.72', { aed: '0' }), cr('4010', '2.72')], 'journal_lines_native_amount_cents'],
        [[dr('1020', '2.72', { aed: '10.001' }), cr('4010', '2.72')], 'journal_lines_native_amount_cents'],
      ];
      for (const [lines, constraint] of cases) {
        const id = randomUUID();
        await expectRefused(
          async (trx) => {
            await insertTxn(trx, { id });
            await insertLines(trx, id, lines);
          },
          { atCommit: false, code: '23514', constraint },
        );
      }
      await db.transaction(async (trx) => {
        const id = await insertTxn(trx, {});
        await insertLines(trx, id, [dr('1020', '2.72', { aed: '10.00' }), cr('4010', '2.72')]);
      });
    });

    it('refuses an unknown account code', async () => {
      for (const account of ['9999', 'CASH']) {
        const id = randomUUID();
        await expectRefused(
          async (trx) => {
            await insertTxn(trx, { id });
            await insertLines(trx, id, [dr(account, '5'), cr('3000', '5')]);
          },
          { atCommit: false, code: '23503' },
        );
      }
    });

    it('refuses UPDATE of a posted line, even one that changes nothing', async () => {
      const id = await committedTxn();
      for (const sql of [
        'UPDATE journal_lines SET debit = debit + 1 WHERE txn_id = ?',
        `UPDATE journal_lines SET account_code = '1020' WHERE txn_id = ? AND account_code = '1010'`,
        'UPDATE journal_lines SET debit = debit WHERE txn_id = ?',
      ]) {
        await expectRefused((trx) => trx.raw(sql, [id]).then(() => undefined), {
          atCommit: false,
          code: '42501',
          constraint: 'ledger_append_only',
        });
      }
    });

    it('refuses UPDATE of a line within the database transaction that posted it', async () => {
      const id = randomUUID();
      await expectRefused(
        async (trx) => {
          await insertTxn(trx, { id });
          await insertLines(trx, id, [dr('1010', '5'), cr('3000', '5')]);
          await trx.raw('UPDATE journal_lines SET debit = 6 WHERE txn_id = ? AND debit > 0', [id]);
          await trx.raw('UPDATE journal_lines SET credit = 6 WHERE txn_id = ? AND credit > 0', [id]);
        },
        { atCommit: false, code: '42501', constraint: 'ledger_append_only' },
      );
    });

    it('refuses DELETE of a journal line', async () => {
      const id = await committedTxn();
      await expectRefused((trx) => trx.raw('DELETE FROM journal_lines WHERE txn_id = ?', [id]).then(() => undefined), {
        atCommit: false,
        code: '42501',
        constraint: 'ledger_append_only',
      });
      expect(await storedTxnCount(id)).to.equal(3);
    });

    it('refuses TRUNCATE of journal_lines', async () => {
      await committedTxn();
      await expectRefused((trx) => trx.raw('TRUNCATE journal_lines').then(() => undefined), {
        atCommit: false,
        code: '42501',
        message: 'TRUNCATE on journal_lines',
      });
    });
  });

  describe('transactions', () => {
    it('refuses TRUNCATE of transactions (also when cascading to the journal)', async () => {
      await committedTxn();
      const plain = asPgFailure(await caught(() => db.raw('TRUNCATE transactions')));
      expect(plain.code).to.be.oneOf(['42501', '0A000']);
      await expectRefused((trx) => trx.raw('TRUNCATE transactions CASCADE').then(() => undefined), {
        atCommit: false,
        code: '42501',
        message: 'TRUNCATE on transactions',
      });
    });

    it('refuses DELETE of a transaction', async () => {
      const id = await committedTxn();
      await expectRefused((trx) => trx.raw('DELETE FROM transactions WHERE txn_id = ?', [id]).then(() => undefined), {
        atCommit: false,
        code: '42501',
        constraint: 'ledger_append_only',
      });
    });

    it('refuses UPDATE of a posted transaction’s facts', async () => {
      const id = await committedTxn('C-1');
      for (const set of [
        'amount_usd = 101',
        `memo = 'edited'`,
        `customer_id = 'C-2'`,
        `txn_date = '2026-01-16'`,
        `metadata = '{"x": 1}'::jsonb`,
        'created_xid = pg_current_xact_id()',
        'txn_id = txn_id',
      ]) {
        await expectRefused(
          (trx) => trx.raw(`UPDATE transactions SET ${set} WHERE txn_id = ?`, [id]).then(() => undefined),
          {
            atCommit: false,
            code: '42501',
            constraint: 'ledger_append_only',
          },
        );
      }
    });

    it('guards every UPDATE of a posted transaction, of columns added later too (recost keeps its state in recost_states)', async () => {
      const { rows } = await db.raw<{ rows: Array<{ columns: string }> }>(
        `SELECT tgattr::text AS columns FROM pg_trigger WHERE tgname = 'transactions_guard_update'`,
      );
      expect(rows[0]!.columns, 'a trigger without a column list fires on every UPDATE').to.equal('');
    });

    it('lets recost stamp and re-pend a transaction’s recost state, and nothing else of it change', async () => {
      const id = await committedTxn();
      await db.raw(
        `INSERT INTO recost_states (txn_id, txn_date, posted_at) SELECT txn_id, txn_date, posted_at FROM transactions WHERE txn_id = ?`,
        [id],
      );
      await db.raw(`UPDATE recost_states SET recosted_at = '2026-02-01T00:00:00Z' WHERE txn_id = ?`, [id]);
      const { rows } = await db.raw<{ rows: Array<{ recosted_at: Date | null }> }>(
        'SELECT recosted_at FROM recost_states WHERE txn_id = ?',
        [id],
      );
      expect(rows[0]!.recosted_at?.toISOString()).to.equal('2026-02-01T00:00:00.000Z');
      await db.raw('UPDATE recost_states SET recosted_at = NULL WHERE txn_id = ?', [id]);
      for (const change of [
        `UPDATE recost_states SET txn_date = '2026-01-01' WHERE txn_id = ?`,
        'DELETE FROM recost_states WHERE txn_id = ?',
      ]) {
        await expectRefused((trx) => trx.raw(change, [id]).then(() => undefined), {
          atCommit: false,
          code: '42501',
          constraint: 'ledger_append_only',
        });
      }
    });

    it('refuses an unknown source', async () => {
      const id = randomUUID();
      await expectRefused(
        async (trx) => {
          await insertTxn(trx, { id, source: 'paypal' });
          await insertLines(trx, id, [dr('1010', '5'), cr('3000', '5')]);
        },
        { atCommit: false, code: '23514', constraint: 'transactions_source_check' },
      );
    });

    it('refuses a duplicate (source, source_txn_id)', async () => {
      const key = `dup-${randomUUID()}`;
      const first = randomUUID();
      await db.transaction(async (trx) => {
        await insertTxn(trx, { id: first, source: 'usbroker', sourceTxnId: key });
        await insertLines(trx, first, [dr('1010', '5'), cr('3000', '5')]);
      });
      const id = randomUUID();
      await expectRefused(
        async (trx) => {
          await insertTxn(trx, { id, source: 'usbroker', sourceTxnId: key });
          await insertLines(trx, id, [dr('1010', '5'), cr('3000', '5')]);
        },
        { atCommit: false, code: '23505', constraint: 'transactions_source_txn_unique' },
      );
      // The same key under another source is another transaction.
      const other = randomUUID();
      await db.transaction(async (trx) => {
        await insertTxn(trx, { id: other, source: 'custodian', sourceTxnId: key });
        await insertLines(trx, other, [dr('1010', '5'), cr('3000', '5')]);
      });
    });
  });

  describe('account_totals', () => {
    async function expectAggregateMatchesJournal(): Promise<void> {
      const [aggregate, journal] = await Promise.all([aggregateSums(db), journalSums(db)]);
      expect(Object.fromEntries(aggregate)).to.deep.equal(Object.fromEntries(journal));
    }

    /** Per account, what some drafts add. */
    function expectedDelta(
      drafts: TransactionDraft[],
    ): Map<string, { debit: Decimal; credit: Decimal; lines: number }> {
      const delta = new Map<string, { debit: Decimal; credit: Decimal; lines: number }>();
      for (const l of drafts.flatMap((d) => d.lines)) {
        const prev = delta.get(l.accountCode) ?? { debit: new Decimal(0), credit: new Decimal(0), lines: 0 };
        delta.set(l.accountCode, {
          debit: prev.debit.plus(l.debit),
          credit: prev.credit.plus(l.credit),
          lines: prev.lines + 1,
        });
      }
      return delta;
    }

    function expectMovedBy(
      before: Map<string, { debit: string; credit: string; lines: number }>,
      after: typeof before,
      drafts: TransactionDraft[],
    ) {
      const delta = expectedDelta(drafts);
      const accounts = new Set([...before.keys(), ...after.keys(), ...delta.keys()]);
      for (const account of accounts) {
        const b = before.get(account) ?? { debit: '0', credit: '0', lines: 0 };
        const a = after.get(account) ?? { debit: '0', credit: '0', lines: 0 };
        const d = delta.get(account) ?? { debit: new Decimal(0), credit: new Decimal(0), lines: 0 };
        expect(new Decimal(a.debit).minus(b.debit).isEqualTo(d.debit), `${account} debit`).to.equal(true);
        expect(new Decimal(a.credit).minus(b.credit).isEqualTo(d.credit), `${account} credit`).to.equal(true);
        expect(a.lines - b.lines, `${account} lines`).to.equal(d.lines);
      }
    }

    const mixedDrafts = (prefix: string, n: number): TransactionDraft[] =>
      Array.from({ length: n }, (_, i) => {
        const kinds = [
          { txn_type: 'deposit' as const, amount_usd: `${100 + i}.25` },
          {
            txn_type: 'deposit' as const,
            amount_usd: `${10 + i}.00`,
            original_currency: 'AED' as const,
            original_amount: new Decimal(10 + i).times('3.6725').decimalPlaces(2).toFixed(),
          },
          { txn_type: 'buy_security' as const, symbol: 'AAPL', amount_usd: `${50 + i}.10` },
          { txn_type: 'sell_security' as const, symbol: 'AAPL', amount_usd: `${20 + i}.00` },
          { txn_type: 'withdrawal' as const, amount_usd: `${i + 1}.99` },
          { txn_type: 'fx_spread' as const, customer_id: null, amount_usd: '0.37' },
          { txn_type: 'fx_spread_settle' as const, customer_id: null, amount_usd: '0.37' },
          { txn_type: 'dividend' as const, amount_usd: '3.33' },
          { txn_type: 'wht_tax' as const, amount_usd: '0.99' },
        ];
        const customer = i % 2 === 0 ? 'C-1' : 'C-2';
        return draft({
          customer_id: customer,
          ...kinds[i % kinds.length]!,
          source: 'usbroker',
          source_txn_id: `${prefix}-${i}`,
        });
      });

    it('equals the journal summed per account after a mix of posts, refusals and reversals', async () => {
      const before = await journalSums(db);
      const drafts = mixedDrafts('mix', 30);
      await postTransactions(db, drafts, { chunkSize: 7 });
      await postTransactions(db, drafts, { chunkSize: 7 }); // a re-run posts nothing
      const reversal = await reverseTransaction(db, drafts[2]!.txnId, {
        txnId: randomUUID(),
        txnDate: '2026-01-20',
        memo: null,
      });
      await caught(() => writeDrafts(db, [draft({ customer_id: 'nobody' })]));
      await attempt(async (trx) => {
        const id = await insertTxn(trx);
        await insertLines(trx, id, [dr('1010', '1'), cr('3000', '2')]);
      });
      await expectAggregateMatchesJournal();
      const reversalDraft = {
        ...drafts[2]!,
        lines: reversal.transaction.journal_lines.map((l) => ({
          accountCode: l.account_code,
          debit: new Decimal(l.debit),
          credit: new Decimal(l.credit),
          postingKind: l.posting_kind,
        })),
      };
      expectMovedBy(before, await journalSums(db), [...drafts, reversalDraft]);
    });

    it('lets a deposit and a withdrawal racing on one totals slot both commit (rows locked in one order: no deadlock)', async () => {
      // Two sessions that write the same account_totals slot, found by watching which slot each one moves.
      const sessions: Knex[] = [];
      const slotOf = new Map<number, Knex>();
      let pair: [Knex, Knex] | null = null;
      try {
        for (let i = 0; i < 40 && !pair; i += 1) {
          const session = createDb({ url: t.url, poolMax: 1, applicationName: `slot-probe-${i}` });
          sessions.push(session);
          const before = await db('account_totals').where({ account_code: '2010' }).select('slot', 'line_count');
          await writeDrafts(session, [draft({ customer_id: 'C-1', amount_usd: '1.00' })]);
          const after = await db('account_totals').where({ account_code: '2010' }).select('slot', 'line_count');
          const moved = after.filter((a) => !before.some((b) => b.slot === a.slot && b.line_count === a.line_count));
          expect(moved, 'one slot moved').to.have.length(1);
          const slot = Number(moved[0].slot);
          const other = slotOf.get(slot);
          if (other) pair = [other, session];
          else slotOf.set(slot, session);
        }
        if (!pair) return; // every session got a slot of its own: nothing to race on
        const [first, second] = pair;
        const pidOf = async (session: Knex) =>
          Number((await session.raw('SELECT pg_backend_pid() AS pid')).rows[0].pid);
        const [firstPid, secondPid] = [await pidOf(first), await pidOf(second)];
        const slot = [...slotOf].find(([, s]) => s === first)![0];
        /** Whether the session queued on a lock (if it never does, it does not write that slot: no race). */
        const waitingOnLock = async (pid: number, posting: Promise<unknown>) => {
          let settled = false;
          void posting.finally(() => (settled = true)).catch(() => undefined);
          for (let i = 0; i < 400 && !settled; i += 1) {
            const { rows } = await db.raw('SELECT wait_event_type FROM pg_stat_activity WHERE pid = ?', [pid]);
            if (rows[0]?.wait_event_type === 'Lock') return true;
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          return false;
        };
        // Hold the wallet row of that slot, queue a deposit and then a withdrawal behind it, let go.
        const holder = await db.transaction();
        await holder.raw(`SELECT 1 FROM account_totals WHERE account_code = '2010' AND slot = ? FOR UPDATE`, [slot]);
        const deposit = writeDrafts(first, [draft({ customer_id: 'C-1', amount_usd: '2.00' })]);
        const depositQueued = await waitingOnLock(firstPid, deposit);
        const withdrawal = writeDrafts(second, [
          draft({ customer_id: 'C-1', txn_type: 'withdrawal', amount_usd: '1.00' }),
        ]);
        if (depositQueued) await waitingOnLock(secondPid, withdrawal);
        await holder.rollback();
        const outcomes = await Promise.allSettled([deposit, withdrawal]);
        const failures = outcomes.flatMap((o) =>
          o.status === 'rejected' ? [`${(o.reason as PgFailure).code} ${(o.reason as Error).message.slice(-40)}`] : [],
        );
        expect(failures, 'both postings commit').to.deep.equal([]);
        await expectAggregateMatchesJournal();
      } finally {
        await Promise.all(sessions.map((s) => s.destroy()));
      }
    });

    it('stays equal to the journal under concurrent posts from many connections', async () => {
      const before = await aggregateSums(db);
      const workers = 24;
      const posted: TransactionDraft[][] = [];
      await Promise.all(
        Array.from({ length: workers }, async (_, w) => {
          for (let round = 0; round < 4; round += 1) {
            const drafts = mixedDrafts(`conc-${w}-${round}`, 1 + ((w + round) % 5));
            if (round === 2 && w % 3 === 0) {
              // A refused batch in the middle of the traffic: nothing of it may count.
              const bad = [
                ...drafts,
                draft({
                  customer_id: 'C-1',
                  txn_type: 'adjustment',
                  lines: [
                    { account_code: '1010', debit: '1', credit: '0' },
                    { account_code: '3000', debit: '0', credit: '1' },
                  ],
                }),
              ];
              await db
                .transaction(async (trx) => {
                  await writeDrafts(trx, bad);
                  await trx.raw(
                    `INSERT INTO journal_lines (txn_id, account_code, debit, credit, txn_date, customer_id) VALUES (?, '1010', 1, 0, '2026-01-15', 'C-1')`,
                    [bad.at(-1)!.txnId],
                  );
                })
                .then(
                  () => expect.fail('an unbalanced batch committed'),
                  (error: unknown) => expect((error as PgFailure).constraint).to.equal('ledger_transaction_balanced'),
                );
              continue;
            }
            await postTransactions(db, drafts);
            posted.push(drafts);
          }
        }),
      );
      await expectAggregateMatchesJournal();
      expectMovedBy(before, await aggregateSums(db), posted.flat());
    });
  });
});
