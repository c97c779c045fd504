import type { Knex } from 'knex';

/**
 * Per-day aggregates the firm reports read instead of the journal (docs/adr/0010), kept by the
 * posting triggers in the same statement as the rows they count, set-based, like account_totals:
 *  - `account_daily_totals`: per account, txn_date and posting kind, the debits, credits and
 *    line count posted. Balances as they stood at the end of a day are the sum of the days up to
 *    it; deposits and withdrawals are the wallets' movements of the funding posting kinds, net of
 *    reversals (a reversal keeps its original's posting kinds, sides swapped).
 *  - `transaction_daily_totals`: per txn_date and txn_type, the transactions posted and their
 *    amount_usd.
 * Both are spread over 16 slots (pg_backend_pid() % 16, as account_totals) so concurrent posters
 * of the same day rarely wait on one row, and locked in key order so they never deadlock. The
 * journal is append-only, so a day's totals only grow. Only the triggers write them (owner's
 * rights); a guard refuses any other UPDATE, DELETE or TRUNCATE. Existing books are backfilled
 * here, with posting held off (SHARE lock) so no row is counted twice or missed.
 *
 * The two trigger functions are redefined whole: CREATE OR REPLACE resets what it is not told,
 * so each repeats its planner pins (20261121) and owner's rights with a pinned search_path
 * (20261122).
 */
export async function up(knex: Knex): Promise<void> {
  const schema = await currentSchema(knex);
  await knex.raw(`
    LOCK TABLE transactions, journal_lines IN SHARE MODE;

    CREATE TABLE account_daily_totals (
      account_code text NOT NULL REFERENCES accounts (account_code),
      day date NOT NULL,
      posting_kind text NOT NULL,
      slot smallint NOT NULL,
      debit_total numeric NOT NULL DEFAULT 0
        CONSTRAINT account_daily_totals_debit_total_finite CHECK (debit_total > '-Infinity' AND debit_total < 'Infinity'),
      credit_total numeric NOT NULL DEFAULT 0
        CONSTRAINT account_daily_totals_credit_total_finite CHECK (credit_total > '-Infinity' AND credit_total < 'Infinity'),
      line_count bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (account_code, day, posting_kind, slot)
    );
    CREATE TABLE transaction_daily_totals (
      day date NOT NULL,
      txn_type text NOT NULL,
      slot smallint NOT NULL,
      txn_count bigint NOT NULL DEFAULT 0,
      amount_usd_total numeric NOT NULL DEFAULT 0
        CONSTRAINT transaction_daily_totals_amount_usd_total_finite CHECK (amount_usd_total > '-Infinity' AND amount_usd_total < 'Infinity'),
      PRIMARY KEY (day, txn_type, slot)
    );

    INSERT INTO account_daily_totals (account_code, day, posting_kind, slot, debit_total, credit_total, line_count)
      SELECT account_code, txn_date, coalesce(posting_kind, ''), 0, sum(debit), sum(credit), count(*)
        FROM journal_lines GROUP BY account_code, txn_date, coalesce(posting_kind, '');
    INSERT INTO transaction_daily_totals (day, txn_type, slot, txn_count, amount_usd_total)
      SELECT txn_date, txn_type, 0, count(*), sum(amount_usd) FROM transactions GROUP BY txn_date, txn_type;

    -- Daily totals move only with the journal (from its insert triggers, one level down).
    CREATE FUNCTION ledger_guard_daily_totals() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND pg_trigger_depth() > 1 THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION '% on % is refused: daily totals move only with posted transactions and lines', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_append_only';
    END $$;
    CREATE TRIGGER account_daily_totals_guard BEFORE UPDATE OR DELETE ON account_daily_totals
      FOR EACH ROW EXECUTE FUNCTION ledger_guard_daily_totals();
    CREATE TRIGGER account_daily_totals_no_truncate BEFORE TRUNCATE ON account_daily_totals
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER transaction_daily_totals_guard BEFORE UPDATE OR DELETE ON transaction_daily_totals
      FOR EACH ROW EXECUTE FUNCTION ledger_guard_daily_totals();
    CREATE TRIGGER transaction_daily_totals_no_truncate BEFORE TRUNCATE ON transaction_daily_totals
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();

    ${transactionsCheck(schema, { daily: true })}
    ${linesCheck(schema, { daily: true })}

    COMMENT ON TABLE account_daily_totals IS ${literal(
      'Per account, txn_date and posting kind: the debits, credits and line count posted (account_totals by day). ' +
        'Moved only by ledger_after_lines_inserted, in the statement that posts the lines; a day only grows. ' +
        'Read summed over slots; a balance at the end of a day is the sum of the days up to it.',
    )};
    COMMENT ON COLUMN account_daily_totals.posting_kind IS ${literal("The lines' posting_kind; '' for lines without one.")};
    COMMENT ON COLUMN account_daily_totals.slot IS ${literal('pg_backend_pid() % 16 of the posting session, as account_totals.slot.')};
    COMMENT ON TABLE transaction_daily_totals IS ${literal(
      'Per txn_date and txn_type: the transactions posted and their amount_usd. Moved only by ' +
        'ledger_after_transactions_inserted, in the statement that posts them. Read summed over slots.',
    )};
    COMMENT ON COLUMN transaction_daily_totals.slot IS ${literal('pg_backend_pid() % 16 of the posting session, as account_totals.slot.')};
  `);
}

export async function down(knex: Knex): Promise<void> {
  const schema = await currentSchema(knex);
  await knex.raw(`
    ${transactionsCheck(schema, { daily: false })}
    ${linesCheck(schema, { daily: false })}
    DROP TABLE account_daily_totals, transaction_daily_totals;
    DROP FUNCTION ledger_guard_daily_totals;
  `);
}

/** The function's attributes every definition repeats: planner pins and the owner's rights on a pinned path. */
const attributes = (schema: string) => `
      SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off
      SECURITY DEFINER SET search_path = "${schema.replaceAll('"', '""')}", pg_temp`;

/** `ledger_after_transactions_inserted` (20261121), with or without keeping transaction_daily_totals. */
function transactionsCheck(schema: string, { daily }: { daily: boolean }): string {
  return `
    CREATE OR REPLACE FUNCTION ledger_after_transactions_inserted() RETURNS trigger LANGUAGE plpgsql${attributes(schema)} AS $$
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
      INSERT INTO ledger_commit_checks (xid) VALUES (pg_current_xact_id()) ON CONFLICT DO NOTHING;${
        daily
          ? `
      -- Rows locked in key order, so concurrent posters never deadlock.
      INSERT INTO transaction_daily_totals AS d (day, txn_type, slot, txn_count, amount_usd_total)
        SELECT txn_date, txn_type, (pg_backend_pid() % 16)::smallint, count(*), sum(amount_usd)
          FROM new_txns GROUP BY txn_date, txn_type ORDER BY txn_date, txn_type
        ON CONFLICT (day, txn_type, slot) DO UPDATE
          SET txn_count = d.txn_count + excluded.txn_count,
              amount_usd_total = d.amount_usd_total + excluded.amount_usd_total;`
          : ''
      }
      RETURN NULL;
    END $$;`;
}

/** `ledger_after_lines_inserted` (20261121), with or without keeping account_daily_totals. */
function linesCheck(schema: string, { daily }: { daily: boolean }): string {
  return `
    CREATE OR REPLACE FUNCTION ledger_after_lines_inserted() RETURNS trigger LANGUAGE plpgsql${attributes(schema)} AS $$
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
              line_count = a.line_count + excluded.line_count;${
                daily
                  ? `
      INSERT INTO account_daily_totals AS d (account_code, day, posting_kind, slot, debit_total, credit_total, line_count)
        SELECT account_code, txn_date, coalesce(posting_kind, ''), (pg_backend_pid() % 16)::smallint, sum(debit), sum(credit), count(*)
          FROM new_lines GROUP BY account_code, txn_date, coalesce(posting_kind, '')
         ORDER BY account_code, txn_date, coalesce(posting_kind, '')
        ON CONFLICT (account_code, day, posting_kind, slot) DO UPDATE
          SET debit_total = d.debit_total + excluded.debit_total,
              credit_total = d.credit_total + excluded.credit_total,
              line_count = d.line_count + excluded.line_count;`
                  : ''
              }
      RETURN NULL;
    END $$;`;
}

async function currentSchema(knex: Knex): Promise<string> {
  const { rows } = await knex.raw<{ rows: Array<{ schema: string }> }>('SELECT current_schema() AS schema');
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('no current schema to pin the ledger checks to');
  return schema;
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
