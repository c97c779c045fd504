import type { Knex } from 'knex';

const finite = (column: string) =>
  `CONSTRAINT stock_splits_${column}_finite CHECK (${column} > '-Infinity' AND ${column} < 'Infinity')`;

/**
 * `stock_splits`: a forward or reverse split of a customer's holding of a symbol, as the broker
 * reported it (a usbroker daily-ledger SPLIT row). A split moves no money: it changes the number
 * of shares of every open lot, never its cost or acquisition date. It is therefore no journal
 * transaction (a transaction has two or more lines of money and balances) but a record beside the
 * journal: positions and the holdings checks add its shares on its effective date, and recost
 * applies it to the open lots of the pair in trade-date order (docs/posting-rules.md, "Stock
 * splits"). Recorded once per broker row (`source`, `source_txn_id`), never changed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE stock_splits (
      split_id uuid PRIMARY KEY,
      source text NOT NULL,
      source_txn_id text NOT NULL CHECK (length(source_txn_id) BETWEEN 1 AND 256),
      customer_id text NOT NULL REFERENCES customers (customer_id),
      symbol text NOT NULL,
      effective_on date NOT NULL,
      shares numeric NOT NULL CHECK (shares <> 0 AND shares = round(shares, 8)) ${finite('shares')},
      ratio numeric NOT NULL CHECK (ratio > 0) ${finite('ratio')},
      source_row jsonb NOT NULL DEFAULT '{}',
      recorded_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (source, source_txn_id)
    );
    CREATE INDEX stock_splits_pair_idx ON stock_splits (customer_id, symbol, effective_on);
    CREATE TRIGGER stock_splits_no_change BEFORE DELETE OR UPDATE ON stock_splits
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER stock_splits_no_truncate BEFORE TRUNCATE ON stock_splits
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();

    COMMENT ON TABLE stock_splits IS 'Forward and reverse splits of a customer''s holding (usbroker SPLIT rows): shares of every open lot change, cost and acquisition dates do not. Moves no money, so no journal transaction: positions add its shares, recost applies it to the lots. Insert-only.';
    COMMENT ON COLUMN stock_splits.split_id IS 'The split''s id (recost orders it among the pair''s trades).';
    COMMENT ON COLUMN stock_splits.source IS 'Who reported it (usbroker).';
    COMMENT ON COLUMN stock_splits.source_txn_id IS 'The upstream row''s key (the SPLIT row''s txn_no): a split is recorded once.';
    COMMENT ON COLUMN stock_splits.customer_id IS 'The customer whose holding split.';
    COMMENT ON COLUMN stock_splits.symbol IS 'The symbol that split.';
    COMMENT ON COLUMN stock_splits.effective_on IS 'The effective (ex) date: trades of that day and later are in post-split shares.';
    COMMENT ON COLUMN stock_splits.shares IS 'Shares added (positive, forward split) or removed (negative, reverse split) by the split, before any cash in lieu.';
    COMMENT ON COLUMN stock_splits.ratio IS 'New shares per old share as the broker states it (4 for 4-for-1, 0.1 for 1-for-10); kept for reading, the lots follow shares.';
    COMMENT ON COLUMN stock_splits.source_row IS 'The upstream row as read.';
    COMMENT ON COLUMN stock_splits.recorded_at IS 'When the ledger recorded it.';
    COMMENT ON TRIGGER stock_splits_no_change ON stock_splits IS 'A recorded split is never changed nor deleted.';
    COMMENT ON TRIGGER stock_splits_no_truncate ON stock_splits IS 'A recorded split is never truncated away.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE stock_splits');
}
