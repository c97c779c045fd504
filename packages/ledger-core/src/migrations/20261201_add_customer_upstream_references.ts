import type { Knex } from 'knex';

/**
 * Where each customer is found upstream (upstreams.md, Settled details: the customer registry):
 * UAE — the statement feed's customer and account numbers and the custodian account; India — the
 * broker account, the remittance provider's customer id, the PAN and the partner. Jobs read them
 * to name the customer in each upstream call; the provisioning jobs write them. One change: the
 * columns, their checks, their uniqueness, their comments.
 *
 * An upstream reference names one customer of the book at most (unique where set): two ledger
 * customers claiming one broker account would post one account's money twice.
 */
const REFERENCES: Array<[column: string, comment: string]> = [
  [
    'uaefeed_customer_number',
    'UAE: the statement feed customer number (uaefeed `customerNumber`) this customer is synced from; unique where set.',
  ],
  ['uaefeed_account_number', 'UAE: the statement feed trading account number.'],
  ['custodian_account', 'UAE: the custodian account (`account` of its holdings and statements); unique where set.'],
  [
    'usbroker_account_no',
    'India: the US broker account number (`account_no`) this customer is synced from; unique where set.',
  ],
  [
    'remit_customer_id',
    'India: the remittance provider customer id (`customer_id` of its orders and payments); unique where set.',
  ],
  [
    'pan',
    'India: the Permanent Account Number, five letters, four digits, a letter (india-tax.md); LRS limits are per PAN, so not unique.',
  ],
  ['partner_id', 'India: the partner the customer came through, as the registry names it.'],
];
const UNIQUE = ['uaefeed_customer_number', 'custodian_account', 'usbroker_account_no', 'remit_customer_id'];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE customers
      ${REFERENCES.map(([column]) => `ADD COLUMN ${column} text CONSTRAINT customers_${column}_length CHECK (length(${column}) BETWEEN 1 AND 128)`).join(',\n      ')},
      ADD CONSTRAINT customers_pan_format CHECK (pan ~ '^[A-Z]{5}[0-9]{4}[A-Z]$');
    ${UNIQUE.map((column) => `CREATE UNIQUE INDEX customers_${column}_unique ON customers (${column}) WHERE ${column} IS NOT NULL;`).join('\n    ')}
    ${REFERENCES.map(([column, comment]) => `COMMENT ON COLUMN customers.${column} IS ${literal(comment)};`).join('\n    ')}
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE customers ${REFERENCES.map(([column]) => `DROP COLUMN IF EXISTS ${column}`).join(', ')}`);
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
