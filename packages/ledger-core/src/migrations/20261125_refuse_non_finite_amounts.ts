import type { Knex } from 'knex';

/**
 * Row checks added by this migration, per table: [constraint name, condition]. Data as it
 * stood when this migration was written: a migration is history, never re-derived.
 *
 * Finite: numeric admits 'NaN', 'Infinity' and '-Infinity'. Postgres sorts NaN above every
 * number (Infinity included) and makes NaN = NaN, so `x >= 0` and `x > 0` let NaN through, and
 * a precision check does too (round('NaN', 2) = 'NaN' is true). `x > '-Infinity' AND
 * x < 'Infinity'` holds for finite numbers only; NULL (an absent optional value) passes as usual.
 *
 * Precision is checked by value (`x = round(x, n)`), not by `scale(x)`: numeric keeps trailing
 * zeros as written, and '10.1000' is a whole number of cents.
 */
const CHECKS: ReadonlyArray<
  readonly [table: string, checks: ReadonlyArray<readonly [name: string, condition: string]>]
> = [
  [
    'transactions',
    [
      ['transactions_amount_usd_finite', `amount_usd > '-Infinity' AND amount_usd < 'Infinity'`],
      ['transactions_amount_usd_cents', 'amount_usd = round(amount_usd, 2)'],
      ['transactions_original_amount_finite', `original_amount > '-Infinity' AND original_amount < 'Infinity'`],
      ['transactions_original_amount_cents', 'original_amount = round(original_amount, 2)'],
      ['transactions_quantity_finite', `quantity > '-Infinity' AND quantity < 'Infinity'`],
      ['transactions_quantity_8_places', 'quantity = round(quantity, 8)'],
      ['transactions_fx_rate_finite', `fx_rate > '-Infinity' AND fx_rate < 'Infinity'`],
    ],
  ],
  [
    'journal_lines',
    [
      ['journal_lines_debit_finite', `debit > '-Infinity' AND debit < 'Infinity'`],
      ['journal_lines_debit_cents', 'debit = round(debit, 2)'],
      ['journal_lines_credit_finite', `credit > '-Infinity' AND credit < 'Infinity'`],
      ['journal_lines_credit_cents', 'credit = round(credit, 2)'],
    ],
  ],
  [
    'account_totals',
    [
      ['account_totals_debit_total_finite', `debit_total > '-Infinity' AND debit_total < 'Infinity'`],
      ['account_totals_credit_total_finite', `credit_total > '-Infinity' AND credit_total < 'Infinity'`],
    ],
  ],
];

/**
 * The commit-time check `ledger_assert_balanced_at_commit` with the given refusals. CREATE OR
 * REPLACE resets what it is not told, so the definition repeats every attribute the function
 * had: the planner pins of 20261121 and the owner's rights with a pinned search_path of
 * 20261122 (a SECURITY DEFINER function must never resolve names through the caller's path).
 */
function commitCheck(schema: string, { refuseNonFinite }: { refuseNonFinite: boolean }): string {
  // NaN sorts above 'Infinity', so a sum outside ('-Infinity', 'Infinity') is NaN or infinite.
  const nonFinite = (sum: string) => `NOT (${sum} > '-Infinity' AND ${sum} < 'Infinity')`;
  const debitSum = 'coalesce(sum(l.debit), 0)';
  const creditSum = 'coalesce(sum(l.credit), 0)';
  return `
    CREATE OR REPLACE FUNCTION ledger_assert_balanced_at_commit() RETURNS trigger LANGUAGE plpgsql
      SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off
      SECURITY DEFINER SET search_path = "${schema.replaceAll('"', '""')}", pg_temp AS $$
    DECLARE
      bad record;
    BEGIN
      SELECT t.txn_id, count(l.line_id) AS line_count, ${debitSum} AS debit_sum, ${creditSum} AS credit_sum
        INTO bad
        FROM transactions t LEFT JOIN journal_lines l ON l.txn_id = t.txn_id
       WHERE t.posted_at = now() AND t.created_xid = NEW.xid
       GROUP BY t.txn_id
      HAVING count(l.line_id) < 2 OR ${debitSum} <> ${creditSum}${
        refuseNonFinite ? ` OR ${nonFinite(debitSum)} OR ${nonFinite(creditSum)}` : ''
      }
       LIMIT 1;
      IF bad.txn_id IS NOT NULL AND bad.line_count < 2 THEN
        RAISE EXCEPTION 'transaction % has % journal line(s); at least 2 are required', bad.txn_id, bad.line_count
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_min_lines';${
            refuseNonFinite
              ? `
      ELSIF bad.txn_id IS NOT NULL AND (${nonFinite('bad.debit_sum')} OR ${nonFinite('bad.credit_sum')}) THEN
        RAISE EXCEPTION 'transaction % has sums that are not finite numbers: debits %, credits %', bad.txn_id, bad.debit_sum, bad.credit_sum
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_finite';`
              : ''
          }
      ELSIF bad.txn_id IS NOT NULL THEN
        RAISE EXCEPTION 'transaction % is unbalanced: debits % <> credits %', bad.txn_id, bad.debit_sum, bad.credit_sum
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_balanced';
      END IF;
      DELETE FROM ledger_commit_checks WHERE xid = NEW.xid;
      RETURN NULL;
    END $$;
  `;
}

async function currentSchema(knex: Knex): Promise<string> {
  const { rows } = await knex.raw<{ rows: Array<{ schema: string }> }>('SELECT current_schema() AS schema');
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('no current schema to pin the ledger checks to');
  return schema;
}

/**
 * Amounts are finite numbers at the ledger's precision, whatever writes them. An attacker test
 * found that the runtime role could commit journal lines of debit 'NaN' / credit 'NaN' (or
 * 'Infinity'): NaN sorts above every number and equals itself, so the one-side check
 * (`journal_lines_one_side`) and the commit-time balance check both passed, and the book's
 * sums were NaN for ever after (the journal is append-only).
 *
 * So every numeric column of every ledger table refuses 'NaN', 'Infinity' and '-Infinity'
 * (`<table>_<column>_finite`), and money and quantities are held to the precision the team
 * decided (checked by value, so trailing zeros are fine):
 *  - USD amounts (`transactions.amount_usd`, `journal_lines.debit`, `journal_lines.credit`) and
 *    `transactions.original_amount` (AED or another currency): at most 2 decimal places
 *    (`<table>_<column>_cents`);
 *  - `transactions.quantity`: at most 8 decimal places (`transactions_quantity_8_places`);
 *  - `transactions.fx_rate` keeps its computed precision; `account_totals` are sums of lines.
 * The constraints are validated against the rows already stored (an existing book holding such
 * a row fails this migration, naming the constraint: such a book needs an operator's decision).
 *
 * Defence in depth, the commit check also refuses a transaction whose debit or credit sum is not
 * finite (`ledger_transaction_finite`), should such lines ever get past the row checks.
 */
export async function up(knex: Knex): Promise<void> {
  const schema = await currentSchema(knex);
  for (const [table, checks] of CHECKS) {
    // One ALTER TABLE per table: its rows are scanned once to validate all of its new checks.
    const clauses = checks.map(([name, condition]) => `ADD CONSTRAINT ${name} CHECK (${condition})`).join(', ');
    await knex.raw(`ALTER TABLE ${table} ${clauses}`);
  }
  await knex.raw(commitCheck(schema, { refuseNonFinite: true }));
}

export async function down(knex: Knex): Promise<void> {
  const schema = await currentSchema(knex);
  await knex.raw(commitCheck(schema, { refuseNonFinite: false }));
  for (const [table, checks] of CHECKS) {
    await knex.raw(`ALTER TABLE ${table} ${checks.map(([name]) => `DROP CONSTRAINT IF EXISTS ${name}`).join(', ')}`);
  }
}
