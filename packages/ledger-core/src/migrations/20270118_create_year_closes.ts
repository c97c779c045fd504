import type { Knex } from 'knex';

/**
 * Year closes (docs/period-close.md#closing-a-financial-year): the append-only history of the
 * closing entries that carry a financial year's revenue and expense balances to 3000 (retained
 * earnings), and of their reversals when the year is reopened. The latest row of a year says
 * whether it stands closed. A `close` row names its closing entry (null: the year had nothing to
 * carry), a `reopen` row the entry's reversal. The row is written before its entry, in the same
 * database transaction (the key is checked at commit): the period trigger admits a closing entry
 * into the closed year only when this row names it (migration 20270119).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE year_closes (
      year_close_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      action text NOT NULL CONSTRAINT year_closes_action CHECK (action IN ('close', 'reopen')),
      fy_start date NOT NULL,
      fy_end date NOT NULL,
      txn_id uuid CONSTRAINT year_closes_txn_id_key UNIQUE
        REFERENCES transactions (txn_id) DEFERRABLE INITIALLY DEFERRED,
      net_income_usd numeric NOT NULL
        CONSTRAINT year_closes_net_income_usd_finite CHECK (net_income_usd > '-Infinity' AND net_income_usd < 'Infinity'),
      reason text CONSTRAINT year_closes_reason_length CHECK (length(reason) BETWEEN 1 AND 1000),
      actor text NOT NULL CONSTRAINT year_closes_actor_length CHECK (length(actor) BETWEEN 1 AND 300),
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT year_closes_a_year CHECK (fy_start < fy_end AND fy_end < fy_start + 366),
      CONSTRAINT year_closes_reopen_has_reason CHECK (action = 'close' OR reason IS NOT NULL)
    );
    CREATE INDEX year_closes_fy_end_idx ON year_closes (fy_end, year_close_id);

    COMMENT ON TABLE year_closes IS 'Closings of financial years to 3000 and their reopenings, append-only: the latest row of a year is its state.';
    COMMENT ON COLUMN year_closes.txn_id IS 'close: the closing entry (null: nothing to carry); reopen: its reversal.';
    COMMENT ON COLUMN year_closes.net_income_usd IS 'Revenue less expenses the closing entry carried to 3000.';
    COMMENT ON COLUMN year_closes.actor IS 'Who: api, or api:<X-Ledger-Actor>.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE year_closes');
}
