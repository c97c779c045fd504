import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import type { Knex } from 'knex';
import winston from 'winston';
import { ConfigError, createLogger } from '../src/entry-points/runtime.js';
import { postTransactions, reverseTransaction, upsertCustomer, type Db } from '../src/entry-points/store.js';
import { openLedgerDatabase } from '../src/runtime/database.js';
import { runtimeRoleProblems } from '../src/store/runtime-role.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { aggregateSums, asPgFailure, booksSnapshot, caught, draft, journalSums } from './helpers.js';

const INSUFFICIENT_PRIVILEGE = '42501';

/**
 * Production runs as a role that does not own the schema (LEDGER_DB_URL), so that not even
 * the service's own connection can switch the ledger's checks off; the owner only migrates.
 */
describe('the runtime role (a non-owner LEDGER_DB_URL)', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let runtime: Knex;
  let postedTxnId: string;

  before(async () => {
    t = await createTestDatabase({ runtimeRole: true });
    runtime = t.runtime!.db;
    await upsertCustomer(runtime, 'C-1', { name: 'First' });
    const posted = draft({ customer_id: 'C-1' });
    await postTransactions(runtime, [posted]);
    postedTxnId = posted.txnId;
  });
  after(async () => {
    await t?.drop();
  });

  /** Asserts the runtime role is refused for lack of privilege, and that the books did not move. */
  async function expectNoPrivilege(sql: string, bindings: Knex.RawBinding[] = []): Promise<void> {
    const before = await booksSnapshot(t.db);
    const error = asPgFailure(await caught(() => runtime.raw(sql, bindings)));
    expect(error.code, `${sql}: ${error.message}`).to.equal(INSUFFICIENT_PRIVILEGE);
    expect(await booksSnapshot(t.db)).to.deep.equal(before);
  }

  it('has no problems that would let it bypass the checks; the owner (a superuser here) has both', async () => {
    expect(await runtimeRoleProblems(runtime)).to.deep.equal([]);
    const ownerProblems = await runtimeRoleProblems(t.db);
    expect(ownerProblems[0]).to.equal('is a superuser');
    // The owner owns every table but knex's own: a new table missing from the runtime role's list fails here.
    const tables: string[] = await t
      .db('pg_tables')
      .where({ schemaname: 'public' })
      .orderBy('tablename')
      .pluck('tablename');
    expect(ownerProblems[1]).to.match(/^owns /);
    const owned = String(ownerProblems[1])
      .replace(/^owns /, '')
      .replace(/ \(directly .*$/, '')
      .split(', ');
    expect(owned).to.deep.equal(tables.filter((name) => !name.startsWith('knex_')));
  });

  it('cannot disable, drop or replace a ledger check, nor turn triggers off for its session', async () => {
    for (const sql of [
      'ALTER TABLE journal_lines DISABLE TRIGGER journal_lines_after_insert',
      'ALTER TABLE journal_lines DISABLE TRIGGER ALL',
      'ALTER TABLE ledger_commit_checks DISABLE TRIGGER ledger_commit_checks_balanced',
      'DROP TRIGGER journal_lines_append_only ON journal_lines',
      'ALTER TABLE journal_lines DROP CONSTRAINT journal_lines_one_side',
      `CREATE OR REPLACE FUNCTION ledger_assert_balanced_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
      'SET session_replication_role = replica',
    ]) {
      await expectNoPrivilege(sql);
    }
  });

  it('cannot edit or remove posted entries, nor write the totals, the commit checks or the chart by hand', async () => {
    for (const sql of [
      'UPDATE journal_lines SET debit = debit WHERE txn_id = ?',
      'DELETE FROM journal_lines WHERE txn_id = ?',
      'UPDATE transactions SET amount_usd = 0 WHERE txn_id = ?',
      'DELETE FROM transactions WHERE txn_id = ?',
    ]) {
      await expectNoPrivilege(sql, [postedTxnId]);
    }
    for (const sql of [
      'TRUNCATE journal_lines',
      `UPDATE account_totals SET debit_total = 0`,
      `INSERT INTO account_totals (account_code, slot) VALUES ('1010', 99)`,
      'DELETE FROM ledger_commit_checks',
      `INSERT INTO ledger_commit_checks (xid) VALUES (pg_current_xact_id())`,
      `UPDATE accounts SET name = 'x' WHERE account_code = '1010'`,
      `INSERT INTO accounts (account_code, name, account_type) VALUES ('9999', 'x', 'asset')`,
      `DELETE FROM customers WHERE customer_id = 'C-1'`,
    ]) {
      await expectNoPrivilege(sql);
    }
  });

  it('is held to the balance at commit: the checks run for it, with the owner’s rights', async () => {
    const before = await booksSnapshot(t.db);
    const error = asPgFailure(
      await caught(() =>
        runtime.transaction(async (trx) => {
          await trx.raw(
            `INSERT INTO transactions (txn_id, txn_type, source, source_txn_id, category, txn_date, amount_usd)
             VALUES ('0190f0f0-0000-7000-8000-000000000001', 'adjustment', 'manual', 'unbalanced-by-hand', 'adjustment', '2026-01-15', 100)`,
          );
          await trx.raw(
            `INSERT INTO journal_lines (txn_id, account_code, debit, credit, txn_date) VALUES
               ('0190f0f0-0000-7000-8000-000000000001', '1010', 100, 0, '2026-01-15'),
               ('0190f0f0-0000-7000-8000-000000000001', '3000', 0, 99.99, '2026-01-15')`,
          );
        }),
      ),
    );
    expect(error.constraint, error.message).to.equal('ledger_transaction_balanced');
    expect(await booksSnapshot(t.db)).to.deep.equal(before);
  });

  it('posts, reverses and stamps a recost, and the running totals follow the journal', async () => {
    await postTransactions(runtime, [
      draft({ customer_id: 'C-1', amount_usd: '250.00' }),
      draft({ customer_id: 'C-1' }),
    ]);
    await reverseTransaction(runtime, postedTxnId, {
      txnId: randomUUID(),
      txnDate: '2026-01-20',
      memo: 'posted by mistake',
    });
    await runtime.raw(`UPDATE recost_states SET recosted_at = now() WHERE txn_id = ?`, [postedTxnId]);
    expect(await aggregateSums(t.db)).to.deep.equal(await journalSums(t.db));
  });
});

describe('openLedgerDatabase (how a process opens its book)', function () {
  this.timeout(60_000);
  const opened: Db[] = [];
  const databases: TestDatabase[] = [];
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.destroy();
    for (const database of databases.splice(0)) await database.drop();
  });

  function captureLogger() {
    const logger = createLogger({ level: 'debug', service: 'test', book: 'ENTITY_UAE' });
    const lines: Array<Record<string, unknown>> = [];
    logger.clear();
    logger.add(
      new winston.transports.Stream({
        stream: new Writable({
          write(chunk: Buffer, _encoding, done) {
            lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
            done();
          },
        }),
      }),
    );
    return { logger, lines };
  }

  it('with LEDGER_MIGRATION_DB_URL: the owner migrates and grants, and the process runs as the runtime role', async () => {
    const database = await createTestDatabase({ migrate: false, runtimeRole: true });
    databases.push(database);
    const { logger, lines } = captureLogger();
    const { db, applied } = await openLedgerDatabase(
      { url: database.runtime!.url, migrationUrl: database.url, poolMax: 2, applicationName: 'test' },
      logger,
      (db) => opened.push(db),
    );
    expect(applied).to.include('20261122_checks_run_as_owner');
    expect(await runtimeRoleProblems(db)).to.deep.equal([]);
    await upsertCustomer(db, 'C-1', {});
    expect((await postTransactions(db, [draft({ customer_id: 'C-1' })])).inserted).to.equal(1);
    expect(lines.filter((l) => l.level === 'warn')).to.deep.equal([]);
  });

  it('with LEDGER_MIGRATION_DB_URL, several processes starting at once all come up (migrations and grants do not race)', async () => {
    const database = await createTestDatabase({ migrate: false, runtimeRole: true });
    databases.push(database);
    const settings = { url: database.runtime!.url, migrationUrl: database.url, poolMax: 2, applicationName: 'test' };
    const started = await Promise.all(
      Array.from({ length: 6 }, () => openLedgerDatabase(settings, captureLogger().logger, (db) => opened.push(db))),
    );
    // Every migration applied exactly once, by one of the six: the union of what each applied is
    // what the database records, with no name twice.
    const recorded: string[] = await started[0]!.db('knex_migrations').orderBy('name').pluck('name');
    expect(recorded).to.include.members(['20261121_create_ledger', '20270209_record_who_started_job_runs']);
    expect(started.flatMap((s) => s.applied).sort()).to.deep.equal([...recorded].sort());
    for (const { db } of started) expect(await runtimeRoleProblems(db)).to.deep.equal([]);
  });

  it('with LEDGER_MIGRATION_DB_URL, refuses to run as a role that could bypass the checks', async () => {
    const database = await createTestDatabase({ migrate: false });
    databases.push(database);
    const error = await caught(() =>
      openLedgerDatabase(
        { url: database.url, migrationUrl: database.url, poolMax: 2, applicationName: 'test' },
        captureLogger().logger,
        (db) => opened.push(db),
      ),
    );
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as Error).message).to.match(
      /^configuration error: LEDGER_DB_URL's role \S+ is a superuser and owns .*could bypass the ledger checks/,
    );
  });

  it('without it (development), migrates with LEDGER_DB_URL and warns that its role can bypass the checks', async () => {
    const database = await createTestDatabase({ migrate: false });
    databases.push(database);
    const { logger, lines } = captureLogger();
    const { applied } = await openLedgerDatabase(
      { url: database.url, migrationUrl: undefined, poolMax: 2, applicationName: 'test' },
      logger,
      (db) => opened.push(db),
    );
    expect(applied).to.have.length.greaterThan(0);
    const warning = lines.find((l) => l.level === 'warn');
    expect(warning?.message).to.match(/can bypass the ledger checks/);
    expect(warning?.problems).to.deep.include('is a superuser');
  });
});
