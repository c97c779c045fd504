import type { Knex } from 'knex';

// Data as it stood when this migration was written: a migration is history, never re-derived.
const SOURCES = ['manual', 'ledger', 'uaefeed', 'custodian', 'usbroker', 'remit'];
const CHART_OF_ACCOUNTS: Array<[code: string, name: string, type: string, dormant: boolean]> = [
  ['1010', 'Operating bank (USD)', 'asset', false],
  ['1020', 'Operating bank (AED, USD equivalent)', 'asset', false],
  ['1100', 'Omnibus cash at broker / custodian', 'asset', false],
  ['1200', 'Custody, equities, at cost', 'asset', false],
  ['1210', 'Custody, bonds, at cost', 'asset', true],
  ['1300', 'FX receivable, remittance provider', 'asset', false],
  ['1500', 'Cash in transit', 'asset', false],
  ['2010', 'Customer cash wallet (USD)', 'liability', false],
  ['2020', 'Customer cash wallet (AED, USD equivalent)', 'liability', false],
  ['2100', 'Securities liability, equities', 'liability', false],
  ['2110', 'Securities liability, bonds', 'liability', true],
  ['2340', 'Payable to broker / custodian', 'liability', false],
  ['3000', 'Retained earnings', 'equity', false],
  ['4010', 'Brokerage revenue', 'revenue', false],
  ['4020', 'Custody fee revenue', 'revenue', false],
  ['4030', 'FX-spread revenue', 'revenue', false],
  ['4040', 'Partner revenue share (UAE partner sources)', 'revenue', false],
  ['5010', 'Brokerage cost (paid to broker / custodian)', 'expense', false],
  ['5030', 'Remittance provider fees', 'expense', false],
];

/**
 * The ledger's tables and the rules Postgres enforces on them, whatever code or hand-written
 * SQL writes to them:
 *  - at COMMIT, every transaction created by the committing database transaction has at least
 *    two journal lines and its debits equal its credits (one deferred, set-based check per
 *    database transaction, so bulk posting pays once, not once per row);
 *  - a journal line has exactly one side set, never negative;
 *  - journal lines can only be added to a transaction created in the same database
 *    transaction, so a committed transaction can never be unbalanced later;
 *  - the journal is append-only: posted lines are never updated or deleted, and a transaction's
 *    posted facts never change (only `recosted_at` moves); accounts are never deleted;
 *  - running totals per account are maintained in the same statement as the lines.
 * References (a transaction's customer and reversed original, a line's transaction and account)
 * are checked once per INSERT statement, set-based, in place of row-by-row foreign keys, and
 * the referenced rows can never be deleted: see docs/adr/0001.
 */
export async function up(knex: Knex): Promise<void> {
  await createTransactionTables(knex);
  await createJournalTables(knex);
  await createTransactionInsertCheck(knex);
  await createCommitBalanceCheck(knex);
  await createLinesInsertCheck(knex);
  await createAppendOnlyGuards(knex);
  await seedChartOfAccounts(knex);
}

/** The chart of accounts, the customers, and the transactions with their indexes. */
async function createTransactionTables(knex: Knex): Promise<void> {
  const sourceList = SOURCES.map((s) => `'${s}'`).join(', ');
  await knex.raw(`
    CREATE TABLE accounts (
      account_code text PRIMARY KEY CHECK (account_code ~ '^[0-9]{4}$'),
      name text NOT NULL,
      account_type text NOT NULL CHECK (account_type IN ('asset', 'liability', 'equity', 'revenue', 'expense')),
      dormant boolean NOT NULL DEFAULT false
    );

    CREATE TABLE customers (
      customer_id text PRIMARY KEY CHECK (length(customer_id) BETWEEN 1 AND 128),
      name text,
      email text,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE transactions (
      txn_id uuid PRIMARY KEY,
      customer_id text,
      txn_type text NOT NULL,
      source text NOT NULL CHECK (source IN (${sourceList})),
      source_txn_id text NOT NULL CHECK (length(source_txn_id) BETWEEN 1 AND 256),
      category text NOT NULL,
      symbol text,
      quantity numeric CHECK (quantity > 0),
      txn_date date NOT NULL,
      posted_at timestamptz NOT NULL DEFAULT now(),
      amount_usd numeric NOT NULL CHECK (amount_usd >= 0),
      original_currency text CHECK (original_currency ~ '^[A-Z]{3}$'),
      original_amount numeric CHECK (original_amount >= 0),
      fx_rate numeric CHECK (fx_rate > 0),
      recosted_at timestamptz,
      reverses_txn_id uuid,
      memo text,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      request_hash text,
      created_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
      CONSTRAINT transactions_source_txn_unique UNIQUE (source, source_txn_id),
      CONSTRAINT transactions_original_pair CHECK ((original_currency IS NULL) = (original_amount IS NULL))
    );
    CREATE UNIQUE INDEX transactions_one_reversal ON transactions (reverses_txn_id) WHERE reverses_txn_id IS NOT NULL;
    CREATE INDEX transactions_txn_date_idx ON transactions (txn_date, txn_id);
    CREATE INDEX transactions_posted_at_idx ON transactions (posted_at, txn_id);
    CREATE INDEX transactions_amount_idx ON transactions (amount_usd, txn_id);
    CREATE INDEX transactions_customer_idx ON transactions (customer_id, txn_date);
    CREATE INDEX transactions_type_idx ON transactions (txn_type, txn_date);
    CREATE INDEX transactions_symbol_idx ON transactions (symbol) WHERE symbol IS NOT NULL;
    CREATE INDEX transactions_pending_recost_idx ON transactions (txn_date, posted_at) WHERE recosted_at IS NULL;
  `);
}

/** The journal lines, and the running totals per account they move. */
async function createJournalTables(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE journal_lines (
      line_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      txn_id uuid NOT NULL,
      account_code text NOT NULL,
      debit numeric NOT NULL DEFAULT 0,
      credit numeric NOT NULL DEFAULT 0,
      customer_id text,
      posting_kind text,
      txn_date date NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT journal_lines_one_side CHECK (debit >= 0 AND credit >= 0 AND ((debit > 0) <> (credit > 0)))
    );
    CREATE INDEX journal_lines_txn_idx ON journal_lines (txn_id);
    CREATE INDEX journal_lines_account_idx ON journal_lines (account_code, line_id);

    -- Running totals per account, split over slots so concurrent posters rarely wait on
    -- one hot row (1100 and 2010 are touched by almost every transaction).
    CREATE TABLE account_totals (
      account_code text NOT NULL REFERENCES accounts (account_code),
      slot smallint NOT NULL,
      debit_total numeric NOT NULL DEFAULT 0,
      credit_total numeric NOT NULL DEFAULT 0,
      line_count bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (account_code, slot)
    );
  `);
}

/** The commit checks to come, and the check of each INSERT of transactions that schedules them. */
async function createTransactionInsertCheck(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The checks below look rows up by key (a handful per posted row), so their plans are pinned
    -- to index lookups: a plan chosen from statistics would seq-scan a never-analysed table (a
    -- new book, a restore, autovacuum off) and stay cached for the session as the table grows.

    -- One row per database transaction that created transactions, while it runs: its deferred
    -- trigger is the commit-time balance check.
    CREATE TABLE ledger_commit_checks (xid xid8 PRIMARY KEY);

    -- Per INSERT statement on transactions, set-based: a transaction is stamped with the database
    -- transaction that posts it and that transaction's start (never forged: the commit check
    -- finds a database transaction's postings by them, through the posted_at index); its customer
    -- and reversed original exist; the commit check is scheduled.
    CREATE FUNCTION ledger_after_transactions_inserted() RETURNS trigger LANGUAGE plpgsql
      SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM new_txns WHERE created_xid <> pg_current_xact_id() OR posted_at <> now()) THEN
        RAISE EXCEPTION 'created_xid and posted_at are stamped by the database; they cannot be given'
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_posting_stamp';
      END IF;
      IF EXISTS (SELECT 1 FROM new_txns n WHERE n.customer_id IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = n.customer_id)) THEN
        RAISE EXCEPTION 'customer_id names no customer of this book'
          USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_transaction_customer_known';
      END IF;
      IF EXISTS (SELECT 1 FROM new_txns n WHERE n.reverses_txn_id IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM transactions o WHERE o.txn_id = n.reverses_txn_id)) THEN
        RAISE EXCEPTION 'reverses_txn_id names no transaction'
          USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_reversed_transaction_known';
      END IF;
      INSERT INTO ledger_commit_checks (xid) VALUES (pg_current_xact_id()) ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$;
    CREATE TRIGGER transactions_after_insert AFTER INSERT ON transactions
      REFERENCING NEW TABLE AS new_txns FOR EACH STATEMENT EXECUTE FUNCTION ledger_after_transactions_inserted();
  `);
}

/** The check at COMMIT that every new transaction has two or more lines and balances. */
async function createCommitBalanceCheck(knex: Knex): Promise<void> {
  await knex.raw(`
    -- At COMMIT: every transaction this database transaction created has two or more lines and
    -- balances. The row is removed once checked, so a later insert in the same database
    -- transaction (after SET CONSTRAINTS ... IMMEDIATE) schedules a fresh check.
    CREATE FUNCTION ledger_assert_balanced_at_commit() RETURNS trigger LANGUAGE plpgsql
      SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS $$
    DECLARE
      bad record;
    BEGIN
      SELECT t.txn_id, count(l.line_id) AS line_count,
             coalesce(sum(l.debit), 0) AS debit_sum, coalesce(sum(l.credit), 0) AS credit_sum
        INTO bad
        FROM transactions t LEFT JOIN journal_lines l ON l.txn_id = t.txn_id
       WHERE t.posted_at = now() AND t.created_xid = NEW.xid
       GROUP BY t.txn_id
      HAVING count(l.line_id) < 2 OR coalesce(sum(l.debit), 0) <> coalesce(sum(l.credit), 0)
       LIMIT 1;
      IF bad.txn_id IS NOT NULL AND bad.line_count < 2 THEN
        RAISE EXCEPTION 'transaction % has % journal line(s); at least 2 are required', bad.txn_id, bad.line_count
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_min_lines';
      ELSIF bad.txn_id IS NOT NULL THEN
        RAISE EXCEPTION 'transaction % is unbalanced: debits % <> credits %', bad.txn_id, bad.debit_sum, bad.credit_sum
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_balanced';
      END IF;
      DELETE FROM ledger_commit_checks WHERE xid = NEW.xid;
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER ledger_commit_checks_balanced AFTER INSERT ON ledger_commit_checks
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_assert_balanced_at_commit();
  `);
}

/** The check of each INSERT of journal lines, which also moves the running totals. */
async function createLinesInsertCheck(knex: Knex): Promise<void> {
  await knex.raw(`
    -- Per INSERT statement on journal_lines, set-based: lines belong to a transaction created in
    -- this database transaction and agree with it, name a known account; running totals move.
    CREATE FUNCTION ledger_after_lines_inserted() RETURNS trigger LANGUAGE plpgsql
      SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS $$
    DECLARE
      bad_txn uuid;
      bad_account text;
    BEGIN
      SELECT n.txn_id INTO bad_txn
        FROM (SELECT DISTINCT txn_id, txn_date, customer_id FROM new_lines) n
        LEFT JOIN transactions t ON t.txn_id = n.txn_id
       WHERE t.txn_id IS NULL
          OR t.created_xid <> pg_current_xact_id()
          OR n.txn_date <> t.txn_date
          OR n.customer_id IS DISTINCT FROM t.customer_id
       LIMIT 1;
      IF bad_txn IS NOT NULL THEN
        RAISE EXCEPTION 'journal lines for transaction % must be posted with it and match its date and customer', bad_txn
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_lines_posted_with_transaction';
      END IF;
      SELECT n.account_code INTO bad_account
        FROM (SELECT DISTINCT account_code FROM new_lines) n LEFT JOIN accounts a ON a.account_code = n.account_code
       WHERE a.account_code IS NULL
       LIMIT 1;
      IF bad_account IS NOT NULL THEN
        RAISE EXCEPTION 'account % is not in the chart of accounts', bad_account
          USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_line_account_known';
      END IF;
      -- Lines may also be added after an early check (SET CONSTRAINTS ... IMMEDIATE): check again at commit.
      INSERT INTO ledger_commit_checks (xid) VALUES (pg_current_xact_id()) ON CONFLICT DO NOTHING;
      -- Totals rows are locked in account order, so concurrent posters never deadlock.
      INSERT INTO account_totals AS a (account_code, slot, debit_total, credit_total, line_count)
        SELECT account_code, (pg_backend_pid() % 16)::smallint, sum(debit), sum(credit), count(*)
          FROM new_lines GROUP BY account_code ORDER BY account_code
        ON CONFLICT (account_code, slot) DO UPDATE
          SET debit_total = a.debit_total + excluded.debit_total,
              credit_total = a.credit_total + excluded.credit_total,
              line_count = a.line_count + excluded.line_count;
      RETURN NULL;
    END $$;
    CREATE TRIGGER journal_lines_after_insert AFTER INSERT ON journal_lines
      REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_after_lines_inserted();
  `);
}

/** What keeps the journal append-only and posted facts fixed. */
async function createAppendOnlyGuards(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The journal is append-only: corrections are new entries (reversals), never edits.
    CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '% on % is refused: the ledger is append-only; post a reversing entry instead', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_append_only';
    END $$;
    CREATE TRIGGER journal_lines_append_only BEFORE UPDATE OR DELETE ON journal_lines
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER journal_lines_no_truncate BEFORE TRUNCATE ON journal_lines
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER transactions_no_delete BEFORE DELETE ON transactions
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER transactions_no_truncate BEFORE TRUNCATE ON transactions
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER accounts_no_delete BEFORE DELETE OR UPDATE OF account_code ON accounts
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER accounts_no_truncate BEFORE TRUNCATE ON accounts
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
    -- Running totals move only with the journal (from its insert trigger, one level down).
    CREATE FUNCTION ledger_guard_account_totals() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND pg_trigger_depth() > 1 THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION '% on account_totals is refused: totals move only with posted journal lines', TG_OP
        USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_append_only';
    END $$;
    CREATE TRIGGER account_totals_guard BEFORE UPDATE OR DELETE ON account_totals
      FOR EACH ROW EXECUTE FUNCTION ledger_guard_account_totals();
    CREATE TRIGGER account_totals_no_truncate BEFORE TRUNCATE ON account_totals
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER customers_no_delete BEFORE DELETE OR UPDATE OF customer_id ON customers
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER customers_no_truncate BEFORE TRUNCATE ON customers
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();

    -- A posted transaction's facts are fixed; only the recost stamp may move.
    CREATE FUNCTION ledger_guard_transaction_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (to_jsonb(NEW) - 'recosted_at') IS DISTINCT FROM (to_jsonb(OLD) - 'recosted_at') THEN
        RAISE EXCEPTION 'transaction % is posted; only recosted_at may change', OLD.txn_id
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_append_only';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER transactions_guard_update BEFORE UPDATE ON transactions
      FOR EACH ROW EXECUTE FUNCTION ledger_guard_transaction_update();
  `);
}

/** The accounts as they stood at this migration. */
async function seedChartOfAccounts(knex: Knex): Promise<void> {
  await knex('accounts').insert(
    CHART_OF_ACCOUNTS.map(([account_code, name, account_type, dormant]) => ({
      account_code,
      name,
      account_type,
      dormant,
    })),
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE IF EXISTS ledger_commit_checks, account_totals, journal_lines, transactions, customers, accounts CASCADE;
    DROP FUNCTION IF EXISTS ledger_after_transactions_inserted, ledger_assert_balanced_at_commit,
      ledger_after_lines_inserted, ledger_refuse_change, ledger_guard_transaction_update, ledger_guard_account_totals;
  `);
}
