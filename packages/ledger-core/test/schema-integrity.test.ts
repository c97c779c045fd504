import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { expect } from 'chai';
import * as commentTheSchema from '../src/migrations/20261126_comment_the_schema.js';
import { migrateDownTo, migrateToHead } from '../src/store/migrate.js';
import { createTestDatabase } from '../src/testing/index.js';
import { describeSchema, describeSchemaAtHead, normalizeDump, REGENERATE_COMMAND, SCHEMA_FILE } from './schema-dump.js';

const SHOWN_LINES_MAX = 15;

/**
 * Where two texts part: the lines between their common beginning and common end, from each,
 * numbered as in the checked-in file. Enough to see what a migration changed.
 */
function firstDifference(checkedIn: string, fresh: string): string {
  const before = checkedIn.split('\n');
  const after = fresh.split('\n');
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start += 1;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  ) {
    end += 1;
  }
  const side = (lines: string[], mark: string) => {
    const changed = lines.slice(start, lines.length - end);
    const shown = changed.slice(0, SHOWN_LINES_MAX).map((line) => `${mark} ${line}`);
    if (changed.length > SHOWN_LINES_MAX) shown.push(`${mark} ... (${changed.length - SHOWN_LINES_MAX} more lines)`);
    return shown;
  };
  return [`@@ from line ${start + 1} @@`, ...side(before, '-'), ...side(after, '+')].join('\n');
}

async function readCheckedIn(): Promise<string | undefined> {
  try {
    return await readFile(SCHEMA_FILE, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The schema is described in one place a newcomer can read, schema/ledger.sql, and the
 * migrations are the only way to change it (docs/adr/0003). This test keeps the two in step.
 */
describe('the checked-in schema (schema/ledger.sql)', function () {
  this.timeout(60_000);

  it('is what the migrations build on a fresh database, so a migration cannot change the schema unseen', async () => {
    const file = relative(process.cwd(), SCHEMA_FILE);
    const checkedIn = await readCheckedIn();
    if (checkedIn === undefined) expect.fail(`${file} is missing: run \`${REGENERATE_COMMAND}\` and commit it`);
    const fresh = await describeSchemaAtHead();
    if (fresh !== checkedIn) {
      expect.fail(
        `the migrations build a schema that ${file} does not describe. If the change is intended, run ` +
          `\`${REGENERATE_COMMAND}\`, review the diff and commit the file with the migration.\n` +
          `${firstDifference(checkedIn, fresh)}`,
      );
    }
  });

  it('leaves out what changes from run to run of pg_dump, keeping what describes the schema', () => {
    const dump = [
      '--',
      '-- PostgreSQL database dump',
      '--',
      '',
      '\\restrict AbC123',
      '',
      '-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)',
      '-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)',
      '',
      'SET statement_timeout = 0;',
      "SELECT pg_catalog.set_config('search_path', '', false);",
      '',
      '',
      '',
      'CREATE TABLE public.accounts (',
      '    account_code text NOT NULL',
      ');',
      '',
      '--',
      '-- PostgreSQL database dump complete',
      '--',
      '',
      '\\unrestrict AbC123',
      '',
    ].join('\n');
    const described = normalizeDump(dump);
    expect(described).to.not.match(/restrict|Dumped|^SET |set_config|PostgreSQL database dump/m);
    expect(described).to.match(/^-- The ledger's schema at head/);
    expect(
      described.endsWith('.\n\nCREATE TABLE public.accounts (\n    account_code text NOT NULL\n);\n'),
      described,
    ).to.equal(true);
  });
});

describe('migration 20261126_comment_the_schema', function () {
  this.timeout(60_000);

  it('goes down to a schema without comments and back up to the checked-in one (later migrations undone first, then redone)', async () => {
    const fresh = await createTestDatabase();
    try {
      await migrateDownTo(fresh.db, '20261126_comment_the_schema');
      await commentTheSchema.down(fresh.db);
      const own = await describeSchema(fresh.db, fresh.url);
      expect(own).to.not.match(/^COMMENT ON/m);
      await commentTheSchema.up(fresh.db);
      await migrateToHead(fresh.db);
      const checkedIn = await readCheckedIn();
      expect(
        (await describeSchema(fresh.db, fresh.url)) === checkedIn,
        'the schema is back as schema/ledger.sql has it',
      ).to.equal(true);
    } finally {
      await fresh.drop();
    }
  });
});
