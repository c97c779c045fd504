import type { Knex } from 'knex';

/**
 * The amount of an AED line in AED: the book's currency is USD (debit, credit and the balance
 * invariant stay in USD), and an AED wallet converted line by line drifts from what it holds in
 * AED (100 deposits of AED 10.00 are 100 × 2.72 = 272.00 USD, AED 1,000.00 is 272.29 USD). Each
 * line on an AED account (1020 operating bank AED, 2020 customer wallet AED) keeps its own AED
 * figure, on the line's side (a reversal swaps the side, so it negates the figure too), and the
 * AED balance is the sum of those figures, exact.
 *
 * journal_lines_aed_line_has_native_amount is NOT VALID: lines posted before this migration are
 * not checked (the journal cannot be corrected in place); 20270117 fills those it can exactly, and
 * a line left null shows its USD figure only (readers convert it at the peg: docs/posting-rules.md).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE journal_lines
      ADD COLUMN native_currency text,
      ADD COLUMN native_amount numeric,
      ADD CONSTRAINT journal_lines_native_pair CHECK ((native_currency IS NULL) = (native_amount IS NULL)),
      ADD CONSTRAINT journal_lines_native_amount_finite
        CHECK (native_amount > '-Infinity' AND native_amount < 'Infinity'),
      ADD CONSTRAINT journal_lines_native_amount_cents
        CHECK (native_amount > 0 AND native_amount = round(native_amount, 2)),
      ADD CONSTRAINT journal_lines_native_currency_of_account
        CHECK (native_currency IS NULL OR (native_currency = 'AED' AND account_code IN ('1020', '2020')));
    ALTER TABLE journal_lines ADD CONSTRAINT journal_lines_aed_line_has_native_amount
      CHECK (account_code NOT IN ('1020', '2020') OR native_currency IS NOT NULL) NOT VALID;
    COMMENT ON COLUMN journal_lines.native_currency IS ${literal(
      "The currency of native_amount: 'AED' on a line of an AED account (1020, 2020), else NULL (the line is in USD, the book's currency).",
    )};
    COMMENT ON COLUMN journal_lines.native_amount IS ${literal(
      "The line's amount in native_currency, positive, whole fils, on the line's side (debit or credit, whichever is positive): an AED account's AED balance is the sum of these, exact. NULL on a USD line, and on an AED line posted before 20270116 that 20270117 could not fill exactly (it shows its USD figure only).",
    )};
    COMMENT ON CONSTRAINT journal_lines_aed_line_has_native_amount ON journal_lines IS ${literal(
      'A line on an AED account (1020, 2020) carries its AED amount. NOT VALID: lines posted before 20270116 are not checked (the journal cannot be corrected in place).',
    )};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE journal_lines
      DROP CONSTRAINT journal_lines_aed_line_has_native_amount,
      DROP CONSTRAINT journal_lines_native_currency_of_account,
      DROP CONSTRAINT journal_lines_native_amount_cents,
      DROP CONSTRAINT journal_lines_native_amount_finite,
      DROP CONSTRAINT journal_lines_native_pair,
      DROP COLUMN native_amount,
      DROP COLUMN native_currency;
  `);
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
