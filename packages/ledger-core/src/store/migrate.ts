import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { assert } from '../domain/errors.js';
import { LOCK_KEYS, withLockSession } from './advisory-lock.js';
import * as checksRunAsOwner from '../migrations/20261122_checks_run_as_owner.js';
import * as commentTheSchema from '../migrations/20261126_comment_the_schema.js';
import * as createCashRequests from '../migrations/20261130_create_cash_requests.js';
import * as createLedger from '../migrations/20261121_create_ledger.js';
import * as refuseNonFiniteAmounts from '../migrations/20261125_refuse_non_finite_amounts.js';
import * as addRecost from '../migrations/20261129_add_recost.js';
import * as addCustomerUpstreamReferences from '../migrations/20261201_add_customer_upstream_references.js';
import * as createPortfolioSnapshots from '../migrations/20261202_create_portfolio_snapshots.js';
import * as createRemittances from '../migrations/20261204_create_remittances.js';
import * as createDividendEvents from '../migrations/20261205_create_dividend_events.js';
import * as addDailyTotals from '../migrations/20261206_add_daily_totals.js';
import * as indexJournalLinesByCustomer from '../migrations/20261207_index_journal_lines_by_customer.js';
import * as createStatementSnapshots from '../migrations/20261203_create_statement_snapshots.js';
import * as guardTransactionUpdateByColumn from '../migrations/20261208_guard_transaction_update_by_column.js';
import * as addCashRequestIdempotencyKey from '../migrations/20261209_add_cash_request_idempotency_key.js';
import * as indexTransactionsByPair from '../migrations/20261210_index_transactions_by_pair.js';
import * as moveRecostStateOutOfTransactions from '../migrations/20261211_move_recost_state_out_of_transactions.js';
import * as guardCashRequestStates from '../migrations/20261212_guard_cash_request_states.js';
import * as createReconciliation from '../migrations/20261215_create_reconciliation.js';
import * as requireCustomerOnCustomerAccounts from '../migrations/20261220_require_customer_on_customer_accounts.js';
import * as addRemittanceSettlementFees from '../migrations/20261221_add_remittance_settlement_fees.js';
import * as createJobRuns from '../migrations/20261225_create_job_runs.js';
import * as createPeriodCloses from '../migrations/20261230_create_period_closes.js';
import * as recordActors from '../migrations/20261231_record_actors.js';
import * as createExceptions from '../migrations/20261231_create_exceptions.js';
import * as addReconHighWaterMarks from '../migrations/20261228_add_recon_high_water_marks.js';
import * as createLotMatches from '../migrations/20270101_create_lot_matches.js';
import * as createInrRates from '../migrations/20270102_create_inr_rates.js';
import * as createClosePrices from '../migrations/20270103_create_close_prices.js';
import * as addJournalLineNativeAmounts from '../migrations/20270116_add_journal_line_native_amounts.js';
import * as fillNativeAmountsOfPostedAedLines from '../migrations/20270117_fill_native_amounts_of_posted_aed_lines.js';
import * as createYearCloses from '../migrations/20270118_create_year_closes.js';
import * as admitClosingEntries from '../migrations/20270119_admit_closing_entries_into_closed_years.js';
import * as createLrsPriorUsage from '../migrations/20270120_create_lrs_prior_usage.js';
import * as createIssuers from '../migrations/20270121_create_issuers.js';
import * as holdCashRequestsToTheirOwnPosting from '../migrations/20270202_hold_cash_requests_to_their_own_posting.js';
import * as createCostInflationIndex from '../migrations/20270204_create_cost_inflation_index.js';
import * as addIssuerInstrumentType from '../migrations/20270204_add_issuer_instrument_type.js';
import * as guardLotMatches from '../migrations/20270207_guard_lot_matches.js';
import * as reopenThroughAFunction from '../migrations/20270207_reopen_through_a_function.js';
import * as recordWhoStartedJobRuns from '../migrations/20270209_record_who_started_job_runs.js';
import * as addFxRoundingAccount from '../migrations/20270213_add_fx_rounding_account.js';
import * as guardHistory from '../migrations/20270207_guard_history.js';
import * as brokerFeesPlatformPart from '../migrations/20270211_broker_fees_platform_part.js';
import * as reconMarksBySnapshot from '../migrations/20270203_recon_marks_by_snapshot.js';
import * as lotMatchesEconomicDates from '../migrations/20270205_lot_matches_economic_dates.js';
import * as createStockSplits from '../migrations/20270205_create_stock_splits.js';
import * as createVarianceTriage from '../migrations/20270215_create_variance_triage.js';
import * as settleUsbrokerBrokerCostAtExecution from '../migrations/20270216_settle_usbroker_broker_cost_at_execution.js';
import * as checkEachCustomerOnce from '../migrations/20270217_check_each_customer_once.js';
import * as codeTheCustomerFailuresOfJobRuns from '../migrations/20270220_code_the_customer_failures_of_job_runs.js';
import * as checkLotMatchesTransactionsPerStatement from '../migrations/20270221_check_lot_matches_transactions_per_statement.js';
import * as narrowTheCustomerIndexToCustomerAccounts from '../migrations/20270222_narrow_the_customer_index_to_customer_accounts.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
  /** `transaction: false`: run outside a transaction (an index built CONCURRENTLY). */
  config?: { transaction: boolean };
}

/** Every migration, in order. A list in code rather than a folder scan: it bundles and it cannot drift. */
const MIGRATIONS: ReadonlyArray<readonly [string, Migration]> = [
  ['20261121_create_ledger', createLedger],
  ['20261122_checks_run_as_owner', checksRunAsOwner],
  ['20261125_refuse_non_finite_amounts', refuseNonFiniteAmounts],
  ['20261126_comment_the_schema', commentTheSchema],
  ['20261129_add_recost', addRecost],
  ['20261130_create_cash_requests', createCashRequests],
  ['20261201_add_customer_upstream_references', addCustomerUpstreamReferences],
  ['20261202_create_portfolio_snapshots', createPortfolioSnapshots],
  ['20261203_create_statement_snapshots', createStatementSnapshots],
  ['20261204_create_remittances', createRemittances],
  ['20261205_create_dividend_events', createDividendEvents],
  ['20261206_add_daily_totals', addDailyTotals],
  ['20261207_index_journal_lines_by_customer', indexJournalLinesByCustomer],
  ['20261208_guard_transaction_update_by_column', guardTransactionUpdateByColumn],
  ['20261209_add_cash_request_idempotency_key', addCashRequestIdempotencyKey],
  ['20261210_index_transactions_by_pair', indexTransactionsByPair],
  ['20261211_move_recost_state_out_of_transactions', moveRecostStateOutOfTransactions],
  ['20261212_guard_cash_request_states', guardCashRequestStates],
  ['20261215_create_reconciliation', createReconciliation],
  ['20261220_require_customer_on_customer_accounts', requireCustomerOnCustomerAccounts],
  ['20261221_add_remittance_settlement_fees', addRemittanceSettlementFees],
  ['20261225_create_job_runs', createJobRuns],
  ['20261228_add_recon_high_water_marks', addReconHighWaterMarks],
  ['20261230_create_period_closes', createPeriodCloses],
  ['20261231_record_actors', recordActors],
  ['20261231_create_exceptions', createExceptions],
  ['20270101_create_lot_matches', createLotMatches],
  ['20270102_create_inr_rates', createInrRates],
  ['20270103_create_close_prices', createClosePrices],
  ['20270116_add_journal_line_native_amounts', addJournalLineNativeAmounts],
  ['20270117_fill_native_amounts_of_posted_aed_lines', fillNativeAmountsOfPostedAedLines],
  ['20270118_create_year_closes', createYearCloses],
  ['20270119_admit_closing_entries_into_closed_years', admitClosingEntries],
  ['20270120_create_lrs_prior_usage', createLrsPriorUsage],
  ['20270121_create_issuers', createIssuers],
  ['20270202_hold_cash_requests_to_their_own_posting', holdCashRequestsToTheirOwnPosting],
  ['20270203_recon_marks_by_snapshot', reconMarksBySnapshot],
  ['20270204_create_cost_inflation_index', createCostInflationIndex],
  ['20270204_add_issuer_instrument_type', addIssuerInstrumentType],
  ['20270205_create_stock_splits', createStockSplits],
  ['20270205_lot_matches_economic_dates', lotMatchesEconomicDates],
  ['20270207_guard_history', guardHistory],
  ['20270207_guard_lot_matches', guardLotMatches],
  ['20270207_reopen_through_a_function', reopenThroughAFunction],
  ['20270209_record_who_started_job_runs', recordWhoStartedJobRuns],
  ['20270211_broker_fees_platform_part', brokerFeesPlatformPart],
  ['20270213_add_fx_rounding_account', addFxRoundingAccount],
  ['20270215_create_variance_triage', createVarianceTriage],
  ['20270216_settle_usbroker_broker_cost_at_execution', settleUsbrokerBrokerCostAtExecution],
  ['20270217_check_each_customer_once', checkEachCustomerOnce],
  ['20270220_code_the_customer_failures_of_job_runs', codeTheCustomerFailuresOfJobRuns],
  ['20270221_check_lot_matches_transactions_per_statement', checkLotMatchesTransactionsPerStatement],
  ['20270222_narrow_the_customer_index_to_customer_accounts', narrowTheCustomerIndexToCustomerAccounts],
];

const migrationSource: Knex.MigrationSource<readonly [string, Migration]> = {
  getMigrations: async () => [...MIGRATIONS],
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};

const config: Knex.MigratorConfig = { migrationSource, tableName: 'knex_migrations' };

/**
 * Brings the schema to head. Processes starting together take turns on the migrate advisory lock
 * (knex's own lock table would make all but one of them fail) and find nothing left to do.
 * `whileLocked` runs after migrating, still under the lock: schema-owner work (grants) that
 * concurrent starts would otherwise race on the same catalog rows.
 */
export async function migrateToHead(db: Knex, whileLocked?: (db: Knex) => Promise<void>): Promise<string[]> {
  return withLockSession(db, async (session) => {
    for (;;) {
      const attempt = await session.withLock(
        LOCK_KEYS.migrate,
        async () => {
          const [, applied] = (await db.migrate.latest(config)) as [number, string[]];
          await whileLocked?.(db);
          return applied;
        },
        { wait: false },
      );
      if (attempt.acquired) return attempt.value;
      await sleep(MIGRATE_LOCK_RETRY_MS);
    }
  });
}

/**
 * How long a process waits before asking for the migrate lock again. It asks, rather than waits
 * inside pg_advisory_lock: a waiting statement holds a snapshot, and an index built CONCURRENTLY
 * (20270222) waits for every older snapshot in its database, so the migrating process would wait
 * on the waiters while they wait on it.
 */
const MIGRATE_LOCK_RETRY_MS = 100;

/** Undoes the migrations applied after `name`, newest first, each by its own `down` (a test walks the schema back). */
export async function migrateDownTo(db: Knex, name: string): Promise<void> {
  assert(
    MIGRATIONS.some(([known]) => known === name),
    `no migration ${name}`,
  );
  for (;;) {
    const [last] = await db('knex_migrations').orderBy('id', 'desc').limit(1).pluck('name');
    if (last === name) return;
    assert(last !== undefined, `migration ${name} was never applied`);
    await db.migrate.down(config);
  }
}

/** Whether every migration this code knows has been applied. */
export async function isAtHead(db: Knex): Promise<boolean> {
  const hasTable = await db.schema.hasTable('knex_migrations');
  if (!hasTable) return false;
  const rows: Array<{ name: string }> = await db('knex_migrations').select('name');
  const applied = new Set(rows.map((r) => r.name));
  return MIGRATIONS.every(([name]) => applied.has(name));
}

/**
 * Names the schema this code's migrations build: their names and their code. Two databases
 * migrated by code of one fingerprint hold the same schema (the tests copy a migrated one).
 */
export function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  for (const [name, migration] of MIGRATIONS) hash.update(`${name}\n${migration.up.toString()}\n`);
  return hash.digest('hex');
}
