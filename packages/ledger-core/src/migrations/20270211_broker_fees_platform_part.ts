import type { Knex } from 'knex';

/**
 * The daily ledger's TRD row itemises the customer's whole fee (contract, Recost revised): the
 * broker's part (commission, SEC, TAF, IFSCA: `amount_usd`, recost's broker cost) and the
 * platform's part (`other_fee`, credited to the firm's own account at the broker):
 * `broker_fees.platform_fee_usd`. Fees recorded before stay null (their `amount_usd` summed every
 * column, `other_fee` included; their `source_row` keeps the columns). Insert-only, as the rest.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE broker_fees ADD COLUMN platform_fee_usd numeric
      CONSTRAINT broker_fees_platform_fee_usd_finite CHECK (platform_fee_usd > '-Infinity' AND platform_fee_usd < 'Infinity')
      CONSTRAINT broker_fees_platform_fee_usd_cents CHECK (platform_fee_usd = round(platform_fee_usd, 2) AND platform_fee_usd >= 0);
    COMMENT ON COLUMN broker_fees.platform_fee_usd IS 'The platform''s part of the customer''s fee the TRD row itemises (other_fee, made positive), credited to the firm account at the broker; null: recorded before 20270211.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE broker_fees DROP COLUMN platform_fee_usd');
}
