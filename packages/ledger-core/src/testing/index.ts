import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { createDb, type Db } from '../store/db.js';
import { migrateToHead } from '../store/migrate.js';

/** The server tests create their databases on; never a developer's data. */
export const TEST_SERVER_URL = process.env.LEDGER_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  name: string;
  db: Db;
  drop(): Promise<void>;
}

function databaseUrl(name: string): string {
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh, empty database of its own (migrated unless told not to), dropped by `drop()`. */
export async function createTestDatabase(options: { migrate?: boolean; poolMax?: number } = {}): Promise<TestDatabase> {
  const name = `ledger_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: TEST_SERVER_URL, pool: { min: 0, max: 1 } });
  try {
    await admin.raw('CREATE DATABASE ??', [name]);
  } finally {
    await admin.destroy();
  }
  const url = databaseUrl(name);
  const db = createDb({ url, poolMax: options.poolMax ?? 10, applicationName: 'ledger-test' });
  if (options.migrate ?? true) await migrateToHead(db);
  return {
    url,
    name,
    db,
    drop: async () => {
      await db.destroy();
      const dropper = knexFactory({ client: 'pg', connection: TEST_SERVER_URL, pool: { min: 0, max: 1 } });
      try {
        await dropper.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [name]);
      } finally {
        await dropper.destroy();
      }
    },
  };
}
export * from './app-process.js';
