import type { Knex } from 'knex';

/**
 * Incremental reconciliation's high-water mark becomes the snapshot of the check's last clean run
 * (docs/reconciliation.md#incremental-runs), not an instant. The instant had to stop before the
 * oldest transaction open anywhere in the database, so a long read (a run waiting for a check's
 * lock, a report) held every check's mark back and each later run re-read all that was posted
 * since. A snapshot names exactly the transactions it did not see (created_xid at or after its
 * xmax, or in progress then), whatever else runs; read-only transactions have no xid and do not
 * appear in it. The marks of the old form are dropped: each check's next run is a full sweep.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX transactions_created_xid_idx ON transactions (created_xid);
    COMMENT ON INDEX transactions_created_xid_idx IS 'How an incremental reconciliation check finds the transactions its last clean run''s snapshot did not see (created_xid at or after its xmax, or one of its in-progress xids).';
    ALTER TABLE reconciliation_check_cycles DROP COLUMN swept_through, ADD COLUMN swept_snapshot pg_snapshot;
    COMMENT ON COLUMN reconciliation_check_cycles.swept_snapshot IS 'High-water mark: the snapshot of the check''s last clean run (pg_current_snapshot()); an incremental run looks only at the transactions it did not see: created_xid at or after its xmax, or in progress when it was taken. Null: the next run is a full sweep.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE reconciliation_check_cycles DROP COLUMN swept_snapshot, ADD COLUMN swept_through timestamptz;
    COMMENT ON COLUMN reconciliation_check_cycles.swept_through IS 'High-water mark: the check''s last clean run verified every transaction posted before this instant; an incremental run looks only at those posted at or after it.';
    DROP INDEX transactions_created_xid_idx;
  `);
}
