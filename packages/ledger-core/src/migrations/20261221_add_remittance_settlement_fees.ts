import type { Knex } from 'knex';

/**
 * A settlement's fees (remit's `fees.fx_fee` and `fees.txn_fee`, USD): what the provider kept of
 * the FX spread, so `fx_spread_settle` posts them to 5030 and only the rest to the bank (1010).
 * Kept with the settlement, because a landed settlement is not read again and its settle may be
 * posted by a later run (one that accrues first). Null until a settlement with its fees is read.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE remittances
      ADD COLUMN settlement_fx_fee_usd numeric
        CONSTRAINT remittances_settlement_fx_fee_cents CHECK (settlement_fx_fee_usd >= 0 AND settlement_fx_fee_usd < 'Infinity' AND settlement_fx_fee_usd = round(settlement_fx_fee_usd, 2)),
      ADD COLUMN settlement_txn_fee_usd numeric
        CONSTRAINT remittances_settlement_txn_fee_cents CHECK (settlement_txn_fee_usd >= 0 AND settlement_txn_fee_usd < 'Infinity' AND settlement_txn_fee_usd = round(settlement_txn_fee_usd, 2)),
      -- The finite check every numeric column has (20261125), by its one name.
      ADD CONSTRAINT remittances_settlement_fx_fee_usd_finite CHECK (settlement_fx_fee_usd > '-Infinity' AND settlement_fx_fee_usd < 'Infinity'),
      ADD CONSTRAINT remittances_settlement_txn_fee_usd_finite CHECK (settlement_txn_fee_usd > '-Infinity' AND settlement_txn_fee_usd < 'Infinity');
    COMMENT ON COLUMN remittances.settlement_fx_fee_usd IS ${literal("The settlement's FX fee (remit fees.fx_fee), USD: posted to 5030 by fx_spread_settle. Null until read.")};
    COMMENT ON COLUMN remittances.settlement_txn_fee_usd IS ${literal("The settlement's transaction fee (remit fees.txn_fee), USD: posted to 5030 by fx_spread_settle. Null until read.")};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE remittances DROP COLUMN settlement_txn_fee_usd, DROP COLUMN settlement_fx_fee_usd');
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
