import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// Dates stay 'YYYY-MM-DD' strings (no timezone shift); numeric stays a string (never a float).
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export type Db = Knex;

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
