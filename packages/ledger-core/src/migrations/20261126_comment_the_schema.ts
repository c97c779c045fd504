import type { Knex } from 'knex';

/**
 * Why each part of the ledger's schema is the way it is, kept in the database itself
 * (`COMMENT ON`): whoever reads the schema with `\d+`, a GUI or `schema/ledger.sql` reads the
 * reason next to the rule. Text as it stood when this migration was written: a migration is
 * history, so a later change of a comment is a new migration (docs/adr/0003).
 */
const TABLES: ReadonlyArray<readonly [table: string, why: string]> = [
  [
    'accounts',
    'The chart of accounts, seeded by migrations and the same on both books. Every journal line names one ' +
      '(checked per INSERT statement by journal_lines_after_insert, in place of a row-by-row foreign key). ' +
      'Never deleted nor re-keyed (accounts_no_delete), so a posted line always names an existing account. ' +
      'The runtime role only reads it: a new account is a migration.',
  ],
  [
    'customers',
    "The book's customers. A transaction's customer_id must name one (checked per INSERT statement by " +
      'transactions_after_insert). Never deleted nor re-keyed (customers_no_delete), so posted transactions ' +
      'keep naming an existing customer; name, email and metadata may change.',
  ],
  [
    'transactions',
    'One row per posted ledger transaction; its journal lines balance (checked at COMMIT by ' +
      'ledger_commit_checks_balanced). Append-only: never deleted, and only recosted_at may change ' +
      '(transactions_guard_update); corrections are reversing transactions. (source, source_txn_id) is the ' +
      'idempotency key. See docs/adr/0001.',
  ],
  [
    'journal_lines',
    "The journal: each transaction's debit and credit lines. Append-only (never updated, deleted or truncated). " +
      'Lines can be added only by the database transaction that created their transaction ' +
      '(journal_lines_after_insert), so a transaction balanced at its commit can never be unbalanced later.',
  ],
  [
    'account_totals',
    'Running debit and credit totals per account, moved by journal_lines_after_insert in the same statement ' +
      'as the lines, so balances need no scan of the journal. Spread over 16 slots per account so concurrent ' +
      'posters rarely wait on one hot row (1100 and 2010 are touched by almost every transaction): an ' +
      "account's totals are the sum over its slots, and equal its journal sums (a reconciliation check). " +
      'Written only by that trigger (its function is SECURITY DEFINER), never by hand (account_totals_guard).',
  ],
  [
    'ledger_commit_checks',
    'One row per database transaction that posts transactions or lines, while it runs: its deferred constraint ' +
      'trigger ledger_commit_checks_balanced is the commit-time balance check, run once per database ' +
      'transaction and set-based, so bulk posting pays it once, not once per row. The check deletes the row. ' +
      'Written only by the SECURITY DEFINER insert checks.',
  ],
];

const COLUMNS: ReadonlyArray<readonly [table: string, column: string, why: string]> = [
  ['accounts', 'dormant', 'Seeded but posted to by no rule (e.g. the bond accounts 1210 and 2110).'],
  [
    'transactions',
    'customer_id',
    'The customer the transaction belongs to, NULL when it concerns none (e.g. a firm-level adjustment). Checked to exist per INSERT ' +
      'statement (ledger_transaction_customer_known): one set-based check instead of a foreign-key lookup per row.',
  ],
  [
    'transactions',
    'source',
    'Where the transaction came from: manual, ledger (its own entries, e.g. reversals) or an upstream. ' +
      'A fixed set: a new upstream needs a migration.',
  ],
  [
    'transactions',
    'source_txn_id',
    "The source's id of the record posted. (source, source_txn_id) is unique (transactions_source_txn_unique): " +
      'posting the same record twice stores it once.',
  ],
  [
    'transactions',
    'request_hash',
    'Fingerprint (sha256 of the canonical entry) of what the first posting of this key asked for: a repeat ' +
      'with the same fingerprint answers the stored transaction, a different one is an idempotency conflict (409).',
  ],
  [
    'transactions',
    'posted_at',
    'Stamped by the database: the start of the posting database transaction, now(); it cannot be given ' +
      '(ledger_posting_stamp). With created_xid, how the commit check finds what a database transaction ' +
      'posted, through transactions_posted_at_idx.',
  ],
  [
    'transactions',
    'created_xid',
    'The database transaction that posted this transaction, stamped by the database and never given ' +
      '(ledger_posting_stamp), so no caller can hide a transaction from the commit check. Journal lines may ' +
      'be added only by this same database transaction.',
  ],
  [
    'transactions',
    'recosted_at',
    'When recost last posted the cost-dependent lines of this transaction; NULL means pending recost ' +
      '(transactions_pending_recost_idx). The only column that may change after posting.',
  ],
  [
    'transactions',
    'reverses_txn_id',
    'For a reversal, the transaction it undoes (corrections are reversing entries, never edits). Checked to ' +
      'exist per INSERT statement (ledger_reversed_transaction_known); at most one reversal per original ' +
      '(transactions_one_reversal).',
  ],
  ['transactions', 'amount_usd', 'The amount in USD: numeric, never a float; finite and in whole cents (20261125).'],
  ['transactions', 'quantity', 'Units of symbol traded: finite, at most 8 decimal places.'],
  [
    'journal_lines',
    'debit',
    'Exactly one of debit and credit is positive, the other zero (journal_lines_one_side); finite, whole cents.',
  ],
  [
    'journal_lines',
    'credit',
    'Exactly one of debit and credit is positive, the other zero (journal_lines_one_side); finite, whole cents.',
  ],
  [
    'journal_lines',
    'txn_date',
    "Copied from the line's transaction, checked equal at insert, so the journal is filtered and grouped by " +
      'date without a join.',
  ],
  [
    'journal_lines',
    'customer_id',
    "Copied from the line's transaction, checked equal at insert, so the journal is filtered and grouped by " +
      'customer without a join.',
  ],
  [
    'journal_lines',
    'posting_kind',
    'Which leg of which posting rule wrote the line (deposit, brokerage_fee, ...); reports group by it.',
  ],
  [
    'account_totals',
    'slot',
    "pg_backend_pid() % 16 of the posting session: spreads an account's totals over 16 rows so concurrent " +
      'posters rarely lock the same one. Read totals summed over slots.',
  ],
  [
    'ledger_commit_checks',
    'xid',
    'The database transaction (pg_current_xact_id()) whose postings are checked at its COMMIT.',
  ],
];

const FUNCTIONS: ReadonlyArray<readonly [fn: string, why: string]> = [
  [
    'ledger_after_transactions_inserted',
    'Per INSERT statement on transactions, set-based: created_xid and posted_at are the database stamps, the ' +
      'customer and the reversed original exist, and the commit check is scheduled. SECURITY DEFINER with a ' +
      'pinned search_path (20261122), so the runtime role needs no rights on ledger_commit_checks; planner ' +
      'pinned to index lookups, so a never-analysed table is not seq-scanned by a cached plan.',
  ],
  [
    'ledger_after_lines_inserted',
    'Per INSERT statement on journal_lines, set-based: lines belong to a transaction created by this database ' +
      'transaction and agree with its date and customer, name a known account; account_totals move, locked in ' +
      'account order so concurrent posters never deadlock. SECURITY DEFINER with a pinned search_path (20261122); ' +
      'planner pinned to index lookups.',
  ],
  [
    'ledger_assert_balanced_at_commit',
    'At COMMIT, once per database transaction: every transaction it created has two or more lines and finite, ' +
      'equal debit and credit sums; else the commit fails. Deletes its ledger_commit_checks row, so inserts ' +
      'after SET CONSTRAINTS ... IMMEDIATE schedule a fresh check. SECURITY DEFINER with a pinned search_path.',
  ],
  [
    'ledger_refuse_change',
    'Refuses any change it is attached to (ledger_append_only): the journal is append-only, and rows other ' +
      'rows name (accounts, customers, transactions) are never deleted nor re-keyed, which is why no foreign ' +
      'key is needed to guard them. Corrections are reversing entries.',
  ],
  [
    'ledger_guard_account_totals',
    'Refuses UPDATE and DELETE of account_totals, except the UPDATE made one trigger level down by ' +
      'ledger_after_lines_inserted: totals move only with posted journal lines.',
  ],
  [
    'ledger_guard_transaction_update',
    "Refuses an UPDATE of a transaction that changes anything but recosted_at: a posted transaction's facts are fixed.",
  ],
];

const TRIGGERS: ReadonlyArray<readonly [trigger: string, table: string, why: string]> = [
  [
    'transactions_after_insert',
    'transactions',
    'Statement-level (REFERENCING NEW TABLE): one set-based check per INSERT, so bulk posting does not pay a lookup per row.',
  ],
  [
    'journal_lines_after_insert',
    'journal_lines',
    'Statement-level (REFERENCING NEW TABLE): one set-based check and one totals update per INSERT, not per line.',
  ],
  [
    'ledger_commit_checks_balanced',
    'ledger_commit_checks',
    'DEFERRABLE INITIALLY DEFERRED: the balance is judged at COMMIT, once all lines are written (by one ' +
      'statement or several). The guarantee behind "debits equal credits": whatever wrote the rows.',
  ],
  [
    'journal_lines_append_only',
    'journal_lines',
    'Posted lines are never updated or deleted: corrections are reversing entries.',
  ],
  ['journal_lines_no_truncate', 'journal_lines', 'TRUNCATE skips row triggers, so it is refused on its own.'],
  [
    'transactions_no_delete',
    'transactions',
    'Posted transactions are never deleted: corrections are reversing entries.',
  ],
  ['transactions_no_truncate', 'transactions', 'TRUNCATE skips row triggers, so it is refused on its own.'],
  [
    'transactions_guard_update',
    'transactions',
    'Only recosted_at may change: the recost job stamps it; every other fact of a posted transaction is fixed.',
  ],
  [
    'accounts_no_delete',
    'accounts',
    'Journal lines name accounts without a foreign key: an account is never deleted nor its code changed.',
  ],
  ['accounts_no_truncate', 'accounts', 'TRUNCATE skips row triggers, so it is refused on its own.'],
  [
    'customers_no_delete',
    'customers',
    'Transactions name customers without a foreign key: a customer is never deleted nor its id changed.',
  ],
  ['customers_no_truncate', 'customers', 'TRUNCATE skips row triggers, so it is refused on its own.'],
  ['account_totals_guard', 'account_totals', 'Totals move only with posted journal lines, never by hand.'],
  ['account_totals_no_truncate', 'account_totals', 'TRUNCATE skips row triggers, so it is refused on its own.'],
];

const INDEXES: ReadonlyArray<readonly [index: string, why: string]> = [
  ['transactions_one_reversal', 'At most one reversal per original: reversing twice would undo it twice.'],
  [
    'transactions_posted_at_idx',
    'How the commit check finds what its database transaction posted (posted_at = now()) without a scan.',
  ],
  [
    'transactions_pending_recost_idx',
    'The transactions pending recost (recosted_at IS NULL), in the order recost takes them.',
  ],
];

/** A SQL string literal: COMMENT takes no bind parameters. */
function literal(text: string | null): string {
  return text === null ? 'NULL' : `'${text.replaceAll("'", "''")}'`;
}

function statements(comment: (why: string) => string | null): string[] {
  const is = (why: string) => literal(comment(why));
  return [
    ...TABLES.map(([table, why]) => `COMMENT ON TABLE ${table} IS ${is(why)}`),
    ...COLUMNS.map(([table, column, why]) => `COMMENT ON COLUMN ${table}.${column} IS ${is(why)}`),
    ...FUNCTIONS.map(([fn, why]) => `COMMENT ON FUNCTION ${fn}() IS ${is(why)}`),
    ...TRIGGERS.map(([trigger, table, why]) => `COMMENT ON TRIGGER ${trigger} ON ${table} IS ${is(why)}`),
    ...INDEXES.map(([index, why]) => `COMMENT ON INDEX ${index} IS ${is(why)}`),
  ];
}

/** Comments the tables, key columns, ledger functions, triggers and indexes with why they are so. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(statements((why) => why).join(';\n'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(statements(() => null).join(';\n'));
}
