import type { Knex } from 'knex';

/**
 * `lot_matches` is guarded as the journal is (20261121): no UPDATE, DELETE or TRUNCATE, by any
 * role, the owner included. A match is copied from its derivation as that entry is inserted and
 * is superseded only by reversing the derivation, never edited; a match deleted in place would
 * silently take a disposal out of the capital gains. The guard is the journal's own function,
 * so the refusal is the same error (42501, `ledger_append_only`). Only a bypass of the triggers
 * (a superuser's `session_replication_role`) gets around it, and `sale_lot_matches` finds that.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TRIGGER lot_matches_append_only BEFORE UPDATE OR DELETE ON lot_matches
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER lot_matches_no_truncate BEFORE TRUNCATE ON lot_matches
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
    COMMENT ON TRIGGER lot_matches_append_only ON lot_matches IS 'A lot match is never edited or deleted: a superseded match stays, its derivation reversed.';
    COMMENT ON TRIGGER lot_matches_no_truncate ON lot_matches IS 'TRUNCATE skips row triggers, so it is refused on its own.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER lot_matches_no_truncate ON lot_matches;
    DROP TRIGGER lot_matches_append_only ON lot_matches;
  `);
}
