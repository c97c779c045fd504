import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import { createTestDatabase } from '../src/testing/index.js';

/**
 * The checked-in description of the schema the migrations build (docs/adr/0003): what
 * `pnpm --filter @ledger/core schema:dump` writes and test/schema-integrity.test.ts compares.
 */
export const SCHEMA_FILE = fileURLToPath(new URL('../schema/ledger.sql', import.meta.url));
export const REGENERATE_COMMAND = 'pnpm --filter @ledger/core schema:dump';

const HEADER = `-- The ledger's schema at head, as pg_dump --schema-only describes a fresh database migrated by
-- @ledger/core: tables, constraints, indexes, functions, triggers and their comments (not the data
-- migrations seed, nor knex's own migration tables).
-- Generated, never edited by hand: after changing the migrations run \`${REGENERATE_COMMAND}\`
-- and commit this file with them; test/schema-integrity.test.ts fails while the two disagree.
-- See docs/adr/0003.
`;

const execFileAsync = promisify(execFile);
const OUTPUT_BYTES_MAX = 16 * 1024 * 1024;
const PG_DUMP_TIMEOUT_MS = 60_000;

/**
 * Where a pg_dump of a given major version lives, first hit wins: the per-version directories
 * of Debian/Ubuntu, RHEL and Homebrew (several versions can sit side by side there), then the
 * one on PATH.
 */
function pgDumpCandidates(major: number): string[] {
  return [
    `/usr/lib/postgresql/${major}/bin/pg_dump`,
    `/usr/pgsql-${major}/bin/pg_dump`,
    `/opt/homebrew/opt/postgresql@${major}/bin/pg_dump`,
    `/usr/local/opt/postgresql@${major}/bin/pg_dump`,
    'pg_dump',
  ];
}

async function pgDumpMajor(binary: string): Promise<number | undefined> {
  try {
    const { stdout } = await execFileAsync(binary, ['--version'], { timeout: PG_DUMP_TIMEOUT_MS });
    const match = /\(PostgreSQL\) (\d+)/.exec(stdout);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined; // not there, or not runnable: try the next one
  }
}

/**
 * A pg_dump of the server's own major version. Its output differs between major versions, and
 * the checked-in file was written by one, so another version would report a difference that
 * is not in the schema: better to say so plainly.
 */
export async function findPgDump(serverMajor: number): Promise<string> {
  const tried: string[] = [];
  for (const candidate of pgDumpCandidates(serverMajor)) {
    const major = await pgDumpMajor(candidate);
    if (major === serverMajor) return candidate;
    tried.push(`${candidate} (${major === undefined ? 'not found' : `version ${major}`})`);
  }
  throw new Error(
    `no pg_dump ${serverMajor} (the server's major version) found; tried ${tried.join(', ')}. ` +
      `Install the PostgreSQL ${serverMajor} client (Debian: apt-get install postgresql-client-${serverMajor}).`,
  );
}

async function serverMajor(db: Knex): Promise<number> {
  const { rows } = await db.raw<{ rows: Array<{ version: string }> }>(
    `SELECT current_setting('server_version_num') AS version`,
  );
  const version = Number(rows[0]?.version);
  if (!Number.isInteger(version) || version < 100_000)
    throw new Error(`unexpected server_version_num ${rows[0]?.version}`);
  return Math.floor(version / 10_000);
}

/** Lines that say when, with what, or how to restore, not what the schema is. */
const VOLATILE_LINE = [
  /^\\(un)?restrict /, // a random key per run (pg_dump 15.14 and later)
  /^-- Dumped (from database|by pg_dump) version /,
  /^SET [a-z_]+ = [^;]*;$/, // the session settings a restore starts with
  /^SELECT pg_catalog\.set_config\('search_path', '', false\);$/,
];

/** pg_dump's text made stable and readable: volatile lines dropped, one blank line at most. */
export function normalizeDump(dump: string): string {
  const body = dump
    .split('\n')
    .filter((line) => !VOLATILE_LINE.some((pattern) => pattern.test(line)))
    .join('\n')
    .replace(/^--\n-- PostgreSQL database dump( complete)?\n--\n/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return `${HEADER}\n${body}\n`;
}

/** The schema of the database at `url` (its connection `db`), as the checked-in file holds it. */
export async function describeSchema(db: Knex, url: string): Promise<string> {
  const pgDump = await findPgDump(await serverMajor(db));
  const { stdout } = await execFileAsync(
    pgDump,
    ['--schema-only', '--no-owner', '--no-privileges', '--exclude-table=knex_migrations*', `--dbname=${url}`],
    { maxBuffer: OUTPUT_BYTES_MAX, timeout: PG_DUMP_TIMEOUT_MS },
  );
  return normalizeDump(stdout);
}

/** Migrates a fresh database to head, describes its schema, and drops it. */
export async function describeSchemaAtHead(): Promise<string> {
  const database = await createTestDatabase();
  try {
    return await describeSchema(database.db, database.url);
  } finally {
    await database.drop();
  }
}
