import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// Dates stay 'YYYY-MM-DD' strings (no timezone shift); numeric stays a string (never a float).
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export type Db = Knex;

/**
 * How a book's database is created (`CREATE DATABASE <name> ${BOOK_DATABASE_OPTIONS}`): text is
 * compared by byte (collation "C"), so every text key of the journal's indexes (source and
 * source_txn_id, customer, account, type, symbol) is compared by memcmp, not by the C library's
 * strcoll that a "C.UTF-8" or "en_US.UTF-8" database pays on every index insert and sort (ADR 0016).
 * On UTF-8 text byte order is code point order, which is also what "C.UTF-8" sorts by, so no
 * answer's order changes. The character classes (upper, lower, regular expressions) stay the
 * server's: template0's LC_CTYPE.
 */
export const BOOK_DATABASE_OPTIONS = "TEMPLATE template0 LC_COLLATE 'C'";

export interface DbOptions {
  url: string;
  poolMax: number;
  applicationName: string;
}

export function createDb({ url, poolMax, applicationName }: DbOptions): Db {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: url, application_name: applicationName },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10_000,
  });
}
