import type { Knex } from 'knex';

/**
 * The AED amount of AED lines posted before 20270116, where the transaction states it exactly: a
 * deposit, withdrawal or wire in AED moves its `original_amount`; an AED trade's cost, owed
 * shares and proceeds lines move its gross `original_amount`; a uaefeed trade's fee line moves its
 * `metadata.bundled_fee` (the feed's fee, in the order's currency). A reversal's lines take its
 * original's. Any other AED line (a fee charged at bps, recost's, an adjustment) has no exact AED
 * figure and stays NULL: it shows its USD figure only.
 *
 * The journal is append-only: its guard is lifted for this one statement, in the migration's
 * transaction, and only native_currency and native_amount of lines that had none are set.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE journal_lines DISABLE TRIGGER journal_lines_append_only;
    WITH stated AS (
      SELECT l.line_id,
             CASE
               WHEN l.posting_kind IN ('deposit', 'withdrawal', 'wire_in', 'wire_out', 'security_cost', 'securities_liability', 'sale_proceeds')
                 THEN o.original_amount
               WHEN l.posting_kind = 'brokerage_fee' AND o.source = 'uaefeed' AND o.metadata ->> 'bundled_fee' ~ '^[0-9]{1,12}(\\.[0-9]{1,2}){0,1}$'
                 THEN (o.metadata ->> 'bundled_fee')::numeric
             END AS amount
        FROM journal_lines l
        JOIN transactions t ON t.txn_id = l.txn_id
        JOIN transactions o ON o.txn_id = coalesce(t.reverses_txn_id, t.txn_id)
       WHERE l.account_code IN ('1020', '2020') AND l.native_amount IS NULL
         AND o.original_currency = 'AED' AND o.txn_type <> 'recost'
    )
    UPDATE journal_lines l SET native_currency = 'AED', native_amount = stated.amount
      FROM stated WHERE l.line_id = stated.line_id AND stated.amount > 0;
    ALTER TABLE journal_lines ENABLE TRIGGER journal_lines_append_only;
  `);
}

/** The figures stay: they are what the transactions state, and 20270116's down drops the columns. */
export async function down(): Promise<void> {}
