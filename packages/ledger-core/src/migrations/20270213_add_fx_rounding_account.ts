import type { Knex } from 'knex';

/**
 * 5090 FX rounding: where an AED wallet's rounding residue goes when an entry empties it
 * (domain/fx-rounding.ts). Each AED line is converted to USD on its own, so a wallet at AED 0.00
 * can stand at a few cents in USD; the entry that empties it clears that residue with a pair of
 * `fx_rounding` lines, the wallet's carrying AED 0.00 (it moves no AED). So a line's AED amount is
 * positive, except on that one kind of line of 2020, where it is zero.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    INSERT INTO accounts (account_code, name, account_type, dormant)
    VALUES ('5090', 'FX rounding (AED residue)', 'expense', false)
    ON CONFLICT (account_code) DO NOTHING;
    ALTER TABLE journal_lines
      DROP CONSTRAINT journal_lines_native_amount_cents,
      ADD CONSTRAINT journal_lines_native_amount_cents
        CHECK (native_amount = round(native_amount, 2)
               AND (native_amount > 0
                    OR (native_amount = 0 AND posting_kind = 'fx_rounding' AND account_code = '2020')));
    COMMENT ON CONSTRAINT journal_lines_native_amount_cents ON journal_lines IS ${literal(
      "A line's AED amount is whole fils and positive; zero only on an fx_rounding line of 2020, which clears an emptied AED wallet's USD rounding residue to 5090 and moves no AED.",
    )};
  `);
}

/**
 * 5090 stays: accounts are never deleted (accounts_no_delete), so `up` again finds it there. Fails
 * while an fx_rounding line is posted.
 */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE journal_lines
      DROP CONSTRAINT journal_lines_native_amount_cents,
      ADD CONSTRAINT journal_lines_native_amount_cents CHECK (native_amount > 0 AND native_amount = round(native_amount, 2));
  `);
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
