import { createDb, type Db } from '../store/db.js';
import { migrateToHead } from '../store/migrate.js';
import { currentRole, grantRuntimePrivileges, runtimeRoleProblems } from '../store/runtime-role.js';
import { ConfigError } from './config.js';
import type { Logger } from './logger.js';

export interface LedgerDatabaseSettings {
  /** `LEDGER_DB_URL`: the connection the process runs with. */
  url: string;
  /** `LEDGER_MIGRATION_DB_URL`: the schema owner's connection, used only to migrate at start. */
  migrationUrl: string | undefined;
  poolMax: number;
  applicationName: string;
}

/**
 * Opens the book's database for a process, with the schema at head.
 *
 * With a migration connection (production), the owner migrates and grants the runtime role its
 * privileges, then the process runs as a role that cannot bypass the ledger's checks; a runtime
 * role that could (the owner itself, a superuser) is a configuration error, and the process
 * does not start. Without one (a developer's machine), the runtime connection migrates, and a
 * warning says the checks can be bypassed by its role.
 *
 * `onOpened` receives the pool as soon as it exists, so a shutdown during start-up closes it.
 */
export async function openLedgerDatabase(
  settings: LedgerDatabaseSettings,
  logger: Logger,
  onOpened: (db: Db) => void = () => {},
): Promise<{ db: Db; applied: string[] }> {
  const db = createDb({ url: settings.url, poolMax: settings.poolMax, applicationName: settings.applicationName });
  onOpened(db);
  const role = await currentRole(db);
  if (settings.migrationUrl === undefined) {
    const applied = await migrateToHead(db);
    const problems = await runtimeRoleProblems(db);
    if (problems.length > 0) {
      logger.warn('LEDGER_DB_URL migrates and runs the book with one role, which can bypass the ledger checks', {
        role,
        problems,
        remedy:
          'in production, set LEDGER_MIGRATION_DB_URL to the schema owner and LEDGER_DB_URL to a role without ownership',
      });
    }
    return { db, applied };
  }

  const owner = createDb({
    url: settings.migrationUrl,
    poolMax: 1,
    applicationName: `${settings.applicationName}-migrate`,
  });
  let applied: string[];
  try {
    applied = await migrateToHead(owner, (locked) => grantRuntimePrivileges(locked, role));
  } finally {
    await owner.destroy();
  }
  const problems = await runtimeRoleProblems(db);
  if (problems.length > 0) {
    throw new ConfigError(
      `configuration error: LEDGER_DB_URL's role ${role} ${problems.join(' and ')}, so it could bypass the ledger checks; ` +
        'connect as a role without ownership (LEDGER_MIGRATION_DB_URL is the owner)',
    );
  }
  return { db, applied };
}
