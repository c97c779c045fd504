import type { Knex } from 'knex';

/**
 * A cash request may be made with an Idempotency-Key (docs/cash-requests.md): a client that
 * retries after a lost answer gets the request it made, not a second pending withdrawal that an
 * operator could confirm twice. The key is unique across the book; the request's fingerprint
 * tells a retry (same request: answered with the one made) from a reuse (another request: 409).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE cash_requests
      ADD COLUMN idempotency_key text CONSTRAINT cash_requests_idempotency_key_length CHECK (length(idempotency_key) BETWEEN 1 AND 128),
      ADD COLUMN request_hash text,
      ADD CONSTRAINT cash_requests_hash_with_key CHECK ((request_hash IS NULL) = (idempotency_key IS NULL));
    CREATE UNIQUE INDEX cash_requests_idempotency_key_unique ON cash_requests (idempotency_key) WHERE idempotency_key IS NOT NULL;
    COMMENT ON COLUMN cash_requests.idempotency_key IS ${literal(
      'The Idempotency-Key the request was made with, if any: unique, so a retried create answers the request it made.',
    )};
    COMMENT ON COLUMN cash_requests.request_hash IS ${literal(
      'Fingerprint of what was asked for (customer, direction, amount by value, currency, reference, memo): a key reused for another request is refused.',
    )};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX IF EXISTS cash_requests_idempotency_key_unique;
    ALTER TABLE cash_requests DROP CONSTRAINT cash_requests_hash_with_key, DROP COLUMN request_hash, DROP COLUMN idempotency_key;
  `);
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
