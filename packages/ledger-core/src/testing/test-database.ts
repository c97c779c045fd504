import { createHash, randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { BOOK_DATABASE_OPTIONS, createDb, type Db } from '../store/db.js';
import { migrateToHead, migrationsFingerprint } from '../store/migrate.js';
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

/** One connection (min = max = 1): a session-level advisory lock taken on it holds until released on it. */
function withServer<T>(run: (server: ReturnType<typeof knexFactory>) => Promise<T>): Promise<T> {
  const server = knexFactory({ client: 'pg', connection: TEST_SERVER_URL, pool: { min: 1, max: 1 } });
  return run(server).finally(() => server.destroy());
}

async function databaseExists(server: ReturnType<typeof knexFactory>, name: string): Promise<boolean> {
  const { rows } = await server.raw('SELECT 1 FROM pg_database WHERE datname = ?', [name]);
  return rows.length > 0;
}

let template: Promise<string> | undefined;

/**
 * A database migrated to head, named after the migrations' fingerprint, that test databases are
 * copied from: a copy takes a fraction of the time of running every migration, and a suite
 * creates a database per test or per file. Built once per schema on the server (processes of
 * one schema wait for the first one's build; a changed migration names another template), and
 * closed to connections so nothing changes it after its build.
 */
function migratedTemplate(): Promise<string> {
  template ??= withServer(async (server) => {
    // Named after how it is made too: a template of other creation options is never copied.
    const made = createHash('sha256').update(`${migrationsFingerprint()} ${BOOK_DATABASE_OPTIONS}`).digest('hex');
    const name = `ledger_template_${made.slice(0, 16)}`;
    if (await databaseExists(server, name)) return name;
    await server.raw('SELECT pg_advisory_lock(hashtext(?))', [name]);
    try {
      if (await databaseExists(server, name)) return name;
      // Built under another name and renamed when whole: a build cut off is never copied.
      const building = `${name}_building`;
      await server.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [building]);
      await server.raw(`CREATE DATABASE ?? ${BOOK_DATABASE_OPTIONS}`, [building]);
      const db = createDb({ url: databaseUrl(building), poolMax: 1, applicationName: 'ledger-test' });
      try {
        await migrateToHead(db);
      } finally {
        await db.destroy();
      }
      await server.raw('ALTER DATABASE ?? RENAME TO ??', [building, name]);
      await server.raw('ALTER DATABASE ?? WITH IS_TEMPLATE true ALLOW_CONNECTIONS false', [name]);
      return name;
    } finally {
      await server.raw('SELECT pg_advisory_unlock(hashtext(?))', [name]);
    }
  });
  template.catch(() => {
    template = undefined; // the next call tries again
  });
  return template;
}

/**
 * A fresh, empty database of its own (migrated unless told not to: a copy of the migrated
 * template), dropped by `drop()`. With `runtimeRole`, also a login role of its own (the test server must trust local logins) granted
 * the runtime privileges, as production's LEDGER_DB_URL is; dropped with the database.
 */
export async function createTestDatabase(
  options: { migrate?: boolean; poolMax?: number; runtimeRole?: boolean } = {},
): Promise<TestDatabase> {
  const name = `ledger_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const role = `${name}_runtime`;
  const migrate = options.migrate ?? true;
  const from = migrate ? await migratedTemplate() : undefined;
  await withServer(async (server) => {
    if (from === undefined) await server.raw(`CREATE DATABASE ?? ${BOOK_DATABASE_OPTIONS}`, [name]);
    else await server.raw('CREATE DATABASE ?? TEMPLATE ??', [name, from]);
    if (options.runtimeRole) await server.raw('CREATE ROLE ?? LOGIN', [role]);
  });
  const url = databaseUrl(name);
  const db = createDb({ url, poolMax: options.poolMax ?? 10, applicationName: 'ledger-test' });
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
