import type { Knex } from 'knex';

const text = (column: string, max: number) => `${column} text NOT NULL CHECK (length(${column}) BETWEEN 1 AND ${max})`;

/**
 * `issuers`: who stands behind a symbol, as Schedule FA's table A3 names each holding (entity
 * name, address, ZIP code, country, nature of entity). Reference data loaded from CSV (a file
 * shipped with the service, or the operator's): the book has no upstream that says it. A later
 * load replaces a symbol's row; nothing deletes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE issuers (
      symbol text PRIMARY KEY CHECK (length(symbol) BETWEEN 1 AND 32),
      ${text('entity_name', 200)},
      ${text('address', 500)},
      ${text('zip_code', 20)},
      ${text('country', 100)},
      ${text('nature_of_entity', 200)},
      ${text('source', 200)},
      recorded_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE issuers IS 'The entity behind a symbol, as Schedule FA (table A3) names it: loaded from CSV.';
    COMMENT ON COLUMN issuers.source IS 'The file loaded.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE issuers');
}
