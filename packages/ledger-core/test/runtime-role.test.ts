import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import type { Knex } from 'knex';
import winston from 'winston';
import {
  ConfigError,
  createLogger,
  openLedgerDatabase,
  postTransactions,
  reverseTransaction,
  runtimeRoleProblems,
  upsertCustomer,
  type Db,
} from '../src/index.js';
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
    expect(ownerProblems[1]).to.match(
      /^owns account_daily_totals, account_totals, accounts, broker_fees, cash_requests, cash_statements, close_prices, cost_inflation_index, customers, dividend_events, exceptions, holdings_snapshots, inr_rates, issuers, job_runs, journal_lines, ledger_commit_checks, lot_matches, lrs_prior_usage, period_closes, portfolio_snapshots, reconciliation_check_cycles, reconciliation_runs, reconciliation_variances, recost_flags, recost_states, remittances, stock_splits, transaction_daily_totals, transactions, uaefeed_statements, year_closes/,
    );
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
    expect(started.flatMap((s) => s.applied).sort()).to.deep.equal([
      '20261121_create_ledger',
      '20261122_checks_run_as_owner',
      '20261125_refuse_non_finite_amounts',
      '20261126_comment_the_schema',
      '20261129_add_recost',
      '20261130_create_cash_requests',
      '20261201_add_customer_upstream_references',
      '20261202_create_portfolio_snapshots',
      '20261203_create_statement_snapshots',
      '20261204_create_remittances',
      '20261205_create_dividend_events',
      '20261206_add_daily_totals',
      '20261207_index_journal_lines_by_customer',
      '20261208_guard_transaction_update_by_column',
      '20261209_add_cash_request_idempotency_key',
      '20261210_index_transactions_by_pair',
      '20261211_move_recost_state_out_of_transactions',
      '20261212_guard_cash_request_states',
      '20261215_create_reconciliation',
      '20261220_require_customer_on_customer_accounts',
      '20261221_add_remittance_settlement_fees',
      '20261225_create_job_runs',
      '20261228_add_recon_high_water_marks',
      '20261230_create_period_closes',
      '20261231_create_exceptions',
      '20261231_record_actors',
      '20270101_create_lot_matches',
      '20270102_create_inr_rates',
      '20270103_create_close_prices',
      '20270116_add_journal_line_native_amounts',
      '20270117_fill_native_amounts_of_posted_aed_lines',
      '20270118_create_year_closes',
      '20270119_admit_closing_entries_into_closed_years',
      '20270120_create_lrs_prior_usage',
      '20270121_create_issuers',
      '20270202_hold_cash_requests_to_their_own_posting',
      '20270203_recon_marks_by_snapshot',
      '20270204_add_issuer_instrument_type',
      '20270204_create_cost_inflation_index',
      '20270205_create_stock_splits',
      '20270205_lot_matches_economic_dates',
      '20270207_guard_history',
      '20270207_guard_lot_matches',
      '20270207_reopen_through_a_function',
      '20270209_record_who_started_job_runs',
      '20270213_add_fx_rounding_account',
    ]);
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
