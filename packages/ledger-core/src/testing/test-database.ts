import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { createDb, type Db } from '../store/db.js';
import { migrateToHead } from '../store/migrate.js';
import { grantRuntimePrivileges } from '../store/runtime-role.js';

/** The server tests create their databases on; never a developer's data. */
export const TEST_SERVER_URL = process.env.LEDGER_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  /** The owner's connection (the test server's user), as `db`. */
  url: string;
  name: string;
  db: Db;
  /** A login role of its own that does not own the schema, as production runs (when asked for). */
  runtime: { role: string; url: string; db: Db } | undefined;
  drop(): Promise<void>;
}

function databaseUrl(name: string, user?: string): string {
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  if (user !== undefined) {
    url.username = user;
    url.password = '';
  }
  return url.toString();
}

function withServer<T>(run: (server: ReturnType<typeof knexFactory>) => Promise<T>): Promise<T> {
  const server = knexFactory({ client: 'pg', connection: TEST_SERVER_URL, pool: { min: 0, max: 1 } });
  return run(server).finally(() => server.destroy());
}

/**
 * A fresh, empty database of its own (migrated unless told not to), dropped by `drop()`. With
 * `runtimeRole`, also a login role of its own (the test server must trust local logins) granted
 * the runtime privileges, as production's LEDGER_DB_URL is; dropped with the database.
 */
export async function createTestDatabase(
  options: { migrate?: boolean; poolMax?: number; runtimeRole?: boolean } = {},
): Promise<TestDatabase> {
  const name = `ledger_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const role = `${name}_runtime`;
  await withServer(async (server) => {
    await server.raw('CREATE DATABASE ??', [name]);
    if (options.runtimeRole) await server.raw('CREATE ROLE ?? LOGIN', [role]);
  });
  const url = databaseUrl(name);
  const db = createDb({ url, poolMax: options.poolMax ?? 10, applicationName: 'ledger-test' });
  const migrate = options.migrate ?? true;
  if (migrate) await migrateToHead(db);
  let runtime: TestDatabase['runtime'];
  if (options.runtimeRole) {
    if (migrate) await grantRuntimePrivileges(db, role);
    const runtimeUrl = databaseUrl(name, role);
    runtime = {
      role,
      url: runtimeUrl,
      db: createDb({ url: runtimeUrl, poolMax: options.poolMax ?? 10, applicationName: 'ledger-test' }),
    };
  }
  return {
    url,
    name,
    db,
    runtime,
    drop: async () => {
      await runtime?.db.destroy();
      await db.destroy();
      await withServer(async (server) => {
        await server.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [name]);
        if (options.runtimeRole) await server.raw('DROP ROLE IF EXISTS ??', [role]);
      });
    },
  };
}
