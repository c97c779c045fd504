import type { Knex } from 'knex';

/**
 * Incremental reconciliation (docs/reconciliation.md#incremental-runs): each check that sweeps the
 * journal keeps, beside its scheduled cycle, how far its last clean run verified the book
 * (`swept_through`: transactions posted before it need no second look) and when it last swept
 * the whole book (`full_swept_at`: a full sweep comes again after RECON_FULL_SWEEP_HOURS). A
 * check run only by hand has a mark and no cycle: `cycle` may be null.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE reconciliation_check_cycles
      ALTER COLUMN cycle DROP NOT NULL,
      ADD COLUMN swept_through timestamptz,
      ADD COLUMN full_swept_at timestamptz;
    COMMENT ON COLUMN reconciliation_check_cycles.cycle IS 'The last scheduled cycle the check was claimed for; null: never run by the scheduler.';
    COMMENT ON COLUMN reconciliation_check_cycles.swept_through IS 'High-water mark: the check''s last clean run verified every transaction posted before this instant; an incremental run looks only at those posted at or after it.';
    COMMENT ON COLUMN reconciliation_check_cycles.full_swept_at IS 'When the check last swept the whole book clean.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE reconciliation_check_cycles DROP COLUMN swept_through, DROP COLUMN full_swept_at;
    DELETE FROM reconciliation_check_cycles WHERE cycle IS NULL;
    ALTER TABLE reconciliation_check_cycles ALTER COLUMN cycle SET NOT NULL;
  `);
}
