import type { Knex } from 'knex';

/** The ledger's tables: a role that owns any of them can switch the ledger's checks off. */
const LEDGER_TABLES = [
  'accounts',
  'customers',
  'transactions',
  'journal_lines',
  'account_totals',
  'ledger_commit_checks',
  'broker_fees',
  'recost_flags',
  'recost_states',
  'cash_requests',
  'holdings_snapshots',
  'portfolio_snapshots',
  'remittances',
  'dividend_events',
  'account_daily_totals',
  'transaction_daily_totals',
  'cash_statements',
  'uaefeed_statements',
  'job_runs',
  'reconciliation_runs',
  'reconciliation_variances',
  'reconciliation_check_cycles',
  'variance_triage',
  'variance_triage_events',
  'variance_sightings',
  'lot_matches',
  'inr_rates',
  'close_prices',
  'issuers',
  'cost_inflation_index',
  'lrs_prior_usage',
  'period_closes',
  'exceptions',
  'year_closes',
  'stock_splits',
];

/**
 * What the role the service runs as may do, and nothing more: read the books; write only by
 * posting (transactions and their lines, checked by the owner's triggers, which keep the totals
 * and the commit checks themselves), stamp a recost, and keep customers' details. No UPDATE or
 * DELETE of the journal, no TRUNCATE, no DDL: not owning the tables, it cannot disable a trigger.
 */
const RUNTIME_GRANTS = [
  'GRANT SELECT ON ALL TABLES IN SCHEMA ?? TO ??',
  'GRANT INSERT ON transactions, journal_lines TO ??',
  'GRANT INSERT, UPDATE (recosted_at) ON recost_states TO ??',
  'GRANT INSERT ON broker_fees TO ??',
  // A split as the broker reported it: recorded once, never changed.
  'GRANT INSERT ON stock_splits TO ??',
  'GRANT INSERT, UPDATE (reason, detail, flagged_at, cleared_at) ON recost_flags TO ??',
  'GRANT INSERT, UPDATE (name, email, metadata, uaefeed_customer_number, uaefeed_account_number, custodian_account, usbroker_account_no, remit_customer_id, pan, partner_id, updated_at, updated_by) ON customers TO ??',
  'GRANT INSERT ON holdings_snapshots TO ??',
  'GRANT INSERT, UPDATE (as_of, positions, cash, taken_at) ON portfolio_snapshots TO ??',
  // A remittance keeps its order, customer and first sighting; the rest follows remit.
  'GRANT INSERT, UPDATE (pan, status, purpose_code, reference_number, amount_inr, amount_usd, quote_id, quoted_at, quote_expires_at, fx_rate, mid_rate, mid_rate_source, mid_rate_at, tcs_inr, payment_id, payment_status, funds_available, payment_error_code, paid_at, settlement_id, settlement_status, settlement_amount_usd, settlement_fx_fee_usd, settlement_txn_fee_usd, utr, settled_at, remitted_on, order_updated_at, status_history, updated_at) ON remittances TO ??',
  'GRANT INSERT, UPDATE (wht_txn_no, wht_rate, wht_usd, updated_at) ON dividend_events TO ??',
  'GRANT INSERT ON cash_statements, uaefeed_statements TO ??',
  // A request keeps what was asked for: a transition changes only these.
  'GRANT INSERT, UPDATE (status, txn_id, failure_reason, updated_at, updated_by) ON cash_requests TO ??',
  // A job run keeps its job, input, who started it and first start; its attempts, lease and outcome move (final once finished).
  'GRANT INSERT, UPDATE (status, attempts, attempt_started_at, finished_at, result, error, lease_owner, lease_expires_at) ON job_runs TO ??',
  // A reconciliation run and its variances are records: written once, never changed.
  'GRANT INSERT ON reconciliation_runs, reconciliation_variances TO ??',
  // A variance's triage follows the runs and the operators; its history (events, sightings) is appended, never changed.
  'GRANT INSERT, UPDATE (state, assignee, present, judged_at, last_seen_run_id, last_seen_at, times_seen, expected, actual, difference, detail, state_changed_at, state_changed_by) ON variance_triage TO ??',
  'GRANT INSERT ON variance_triage_events, variance_sightings TO ??',
  // A check's scheduled cycle and high-water mark move forward.
  'GRANT INSERT, UPDATE (cycle, claimed_at, swept_snapshot, full_swept_at) ON reconciliation_check_cycles TO ??',
  // Reference data the India reports convert and value at: a later sheet or reading replaces a day's.
  'GRANT INSERT, UPDATE (tt_buy, mid, source, published_at, loaded_at) ON inr_rates TO ??',
  'GRANT INSERT, UPDATE (close_usd, source, recorded_at) ON close_prices TO ??',
  'GRANT INSERT, UPDATE (entity_name, address, zip_code, country, nature_of_entity, instrument_type, source, recorded_at) ON issuers TO ??',
  'GRANT INSERT, UPDATE (cii, source, recorded_at) ON cost_inflation_index TO ??',
  // A PAN's declared LRS use elsewhere: a new declaration replaces the last.
  'GRANT INSERT, UPDATE (amount_usd, amount_inr, note, declared_at, declared_by) ON lrs_prior_usage TO ??',
  // Closes and reopenings are a history: appended, never changed.
  'GRANT INSERT ON period_closes TO ??',
  // A reopening only through the function, which demands actor and reason (a raw reopen row is refused).
  'GRANT EXECUTE ON FUNCTION ledger_reopen_period(date, text, text) TO ??',
  'GRANT INSERT ON year_closes TO ??',
  // An exception keeps its record's identity and first sighting; the rest follows the runs and the operator.
  'GRANT INSERT, UPDATE (customer_id, reason_code, reason, record, job, last_seen_at, times_seen, state, state_reason, state_changed_at, state_changed_by) ON exceptions TO ??',
];

/**
 * Grants `role` the runtime privileges on the ledger's schema. Run by the schema owner after
 * migrating, at every start: idempotent, and it covers tables a new migration added.
 */
export async function grantRuntimePrivileges(owner: Knex, role: string): Promise<void> {
  await owner.transaction(async (trx) => {
    const { rows } = await trx.raw<{ rows: Array<{ schema: string }> }>('SELECT current_schema() AS schema');
    const schema = rows[0]?.schema;
    if (!schema) throw new Error('no current schema to grant on');
    for (const grant of RUNTIME_GRANTS) {
      await trx.raw(grant, grant.includes('SCHEMA') ? [schema, role] : [role]);
    }
  });
}

/** The role a connection runs as. */
export async function currentRole(db: Knex): Promise<string> {
  const { rows } = await db.raw<{ rows: Array<{ role: string }> }>('SELECT current_user AS role');
  const role = rows[0]?.role;
  if (!role) throw new Error('the database named no current role');
  return role;
}

/**
 * Why this connection's role could bypass the ledger's checks, if it could: a superuser can
 * switch triggers off for its session, and an owner of a ledger table (or a member of its
 * owner's role) can disable, drop or replace the table's triggers. Empty when it could not.
 */
export async function runtimeRoleProblems(db: Knex): Promise<string[]> {
  const { rows } = await db.raw<{ rows: Array<{ superuser: boolean; owned: string[] | null }> }>(
    `SELECT r.rolsuper AS superuser,
            (SELECT array_agg(c.relname::text ORDER BY c.relname)
               FROM pg_class c
              WHERE c.relnamespace = current_schema()::regnamespace
                AND c.relname = ANY (?::text[])
                AND pg_has_role(current_user, c.relowner, 'USAGE')) AS owned
       FROM pg_roles r WHERE r.rolname = current_user`,
    [LEDGER_TABLES],
  );
  const [role] = rows;
  if (!role) throw new Error('the current role is not in pg_roles');
  return [
    ...(role.superuser ? ['is a superuser'] : []),
    ...(role.owned ? [`owns ${role.owned.join(', ')} (directly or through a role it is a member of)`] : []),
  ];
}
