// `pnpm --filter @ledger/core schema:dump`: rewrites schema/ledger.sql from a fresh database
// migrated to head (docs/adr/0003). Review the diff and commit it with the migration.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeSchemaAtHead, SCHEMA_FILE } from './schema-dump.js';

const schema = await describeSchemaAtHead();
await mkdir(dirname(SCHEMA_FILE), { recursive: true });
await writeFile(SCHEMA_FILE, schema);
console.log(
  `schema:dump: wrote ${SCHEMA_FILE} (${schema.split('\n').length - 1} lines); review the diff and commit it with the migration`,
);
