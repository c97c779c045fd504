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
 * The ledger's tables and the rules Postgres enforces on them at commit, whatever code or
 * hand-written SQL writes to them:
 *  - every transaction has at least two journal lines and its debits equal its credits
 *    (a deferred constraint trigger, checked at COMMIT);
 *  - a journal line has exactly one side set, never negative;
 *  - journal lines can only be added to a transaction created in the same database
 *    transaction, so a committed transaction can never be unbalanced later;
 *  - the journal is append-only: posted lines are never updated or deleted, and a transaction's
 *    posted facts never change (only `recosted_at` moves);
 *  - running totals per account are maintained in the same statement as the lines.
 */
export async function up(knex: Knex): Promise<void> {
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
      customer_id text REFERENCES customers (customer_id),
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
      reverses_txn_id uuid UNIQUE REFERENCES transactions (txn_id),
      memo text,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      request_hash text,
      created_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
      CONSTRAINT transactions_source_txn_unique UNIQUE (source, source_txn_id),
      CONSTRAINT transactions_original_pair CHECK ((original_currency IS NULL) = (original_amount IS NULL))
    );
    CREATE INDEX transactions_txn_date_idx ON transactions (txn_date, txn_id);
    CREATE INDEX transactions_posted_at_idx ON transactions (posted_at, txn_id);
    CREATE INDEX transactions_amount_idx ON transactions (amount_usd, txn_id);
    CREATE INDEX transactions_customer_idx ON transactions (customer_id, txn_date);
    CREATE INDEX transactions_type_idx ON transactions (txn_type, txn_date);
    CREATE INDEX transactions_symbol_idx ON transactions (symbol) WHERE symbol IS NOT NULL;
    CREATE INDEX transactions_pending_recost_idx ON transactions (txn_date, posted_at) WHERE recosted_at IS NULL;

    CREATE TABLE journal_lines (
      line_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      txn_id uuid NOT NULL REFERENCES transactions (txn_id),
      account_code text NOT NULL REFERENCES accounts (account_code),
      debit numeric NOT NULL DEFAULT 0,
      credit numeric NOT NULL DEFAULT 0,
      customer_id text REFERENCES customers (customer_id),
      posting_kind text,
      txn_date date NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT journal_lines_one_side CHECK (debit >= 0 AND credit >= 0 AND ((debit > 0) <> (credit > 0)))
    );
    CREATE INDEX journal_lines_txn_idx ON journal_lines (txn_id);
    CREATE INDEX journal_lines_account_idx ON journal_lines (account_code, txn_date);
    CREATE INDEX journal_lines_customer_idx ON journal_lines (customer_id, account_code) WHERE customer_id IS NOT NULL;

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

    -- A transaction's created_xid is the database transaction that created it: never forged.
    CREATE FUNCTION ledger_stamp_created_xid() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.created_xid := pg_current_xact_id();
      RETURN NEW;
    END $$;
    CREATE TRIGGER transactions_stamp_created_xid BEFORE INSERT ON transactions
      FOR EACH ROW EXECUTE FUNCTION ledger_stamp_created_xid();

    -- At COMMIT: the transaction has two or more lines and its debits equal its credits.
    CREATE FUNCTION ledger_assert_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      line_count bigint;
      debit_sum numeric;
      credit_sum numeric;
    BEGIN
      SELECT count(*), coalesce(sum(debit), 0), coalesce(sum(credit), 0)
        INTO line_count, debit_sum, credit_sum
        FROM journal_lines WHERE txn_id = NEW.txn_id;
      IF line_count < 2 THEN
        RAISE EXCEPTION 'transaction % has % journal line(s); at least 2 are required', NEW.txn_id, line_count
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_min_lines';
      END IF;
      IF debit_sum <> credit_sum THEN
        RAISE EXCEPTION 'transaction % is unbalanced: debits % <> credits %', NEW.txn_id, debit_sum, credit_sum
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_balanced';
      END IF;
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER transactions_balanced_at_commit AFTER INSERT ON transactions
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_assert_transaction_balanced();

    -- Per INSERT statement on journal_lines, set-based: lines belong to transactions created in
    -- this database transaction and agree with them; running totals move by the new lines.
    CREATE FUNCTION ledger_after_lines_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      bad_txn uuid;
    BEGIN
      SELECT n.txn_id INTO bad_txn
        FROM new_lines n JOIN transactions t ON t.txn_id = n.txn_id
       WHERE t.created_xid <> pg_current_xact_id()
          OR n.txn_date <> t.txn_date
          OR n.customer_id IS DISTINCT FROM t.customer_id
       LIMIT 1;
      IF bad_txn IS NOT NULL THEN
        RAISE EXCEPTION 'journal lines for transaction % must be posted with it and match its date and customer', bad_txn
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_lines_posted_with_transaction';
      END IF;
      INSERT INTO account_totals AS a (account_code, slot, debit_total, credit_total, line_count)
        SELECT account_code, (pg_backend_pid() % 16)::smallint, sum(debit), sum(credit), count(*)
          FROM new_lines GROUP BY account_code
        ON CONFLICT (account_code, slot) DO UPDATE
          SET debit_total = a.debit_total + excluded.debit_total,
              credit_total = a.credit_total + excluded.credit_total,
              line_count = a.line_count + excluded.line_count;
      RETURN NULL;
    END $$;
    CREATE TRIGGER journal_lines_after_insert AFTER INSERT ON journal_lines
      REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_after_lines_inserted();

    -- The journal is append-only: corrections are new entries (reversals), never edits.
    CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '% on % is refused: the journal is append-only; post a reversing entry instead', TG_OP, TG_TABLE_NAME
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

  await knex('accounts').insert(
    CHART_OF_ACCOUNTS.map(([account_code, name, account_type, dormant]) => ({ account_code, name, account_type, dormant })),
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE IF EXISTS account_totals, journal_lines, transactions, customers, accounts CASCADE;
    DROP FUNCTION IF EXISTS ledger_stamp_created_xid, ledger_assert_transaction_balanced,
      ledger_after_lines_inserted, ledger_refuse_change, ledger_guard_transaction_update;
  `);
}
