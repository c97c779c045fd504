import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpsPorts } from './ports.js';
import type { StackOptions } from './stack.js';

/** The checkout (from src/ and dist/ alike): where the stack finds scripts/start-book.mjs and the apps' builds. */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A port nothing listens on now, the system's pick. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * The stack a test runs (the quickstart's own, the console's): in a fresh temporary folder
 * (`dir`, the test removes it), on free ports, an embedded Postgres and the test machine's
 * Redis under a queue prefix of the test's own, books logging warnings only.
 */
export async function testStackOptions(
  name: string,
  options: Pick<StackOptions, 'customers' | 'onBookExit'>,
): Promise<{ dir: string; options: StackOptions }> {
  const dir = mkdtempSync(join(tmpdir(), `ledger-${name}-`));
  // As root, the embedded Postgres runs as a user of its own: it must reach its data folder.
  chmodSync(dir, 0o755);
  const [uae, india, registry, uaefeed, custodian, usbroker, remit, pgPort, ...ops] = await Promise.all(
    Array.from({ length: 14 }, freePort),
  );
  const opsPorts = (first: number): OpsPorts => ({ api: ops[first]!, worker: ops[first + 1]!, recon: ops[first + 2]! });
  return {
    dir,
    options: {
      root: ROOT,
      dataDir: join(dir, 'data'),
      secretsFile: join(dir, 'secrets.env'),
      reset: false,
      customers: options.customers,
      ports: {
        ENTITY_UAE: { api: uae!, ops: opsPorts(0) },
        ENTITY_IND_IFSC: { api: india!, ops: opsPorts(3) },
        sandbox: { registry: registry!, uaefeed: uaefeed!, custodian: custodian!, usbroker: usbroker!, remit: remit! },
      },
      serverUrl: undefined,
      embeddedPort: pgPort!,
      databaseSuffix: '',
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      queuePrefix: `${name}-test-${process.pid}`,
      env: { ...process.env, LOG_LEVEL: 'warn' },
      log: () => {},
      onBookExit: options.onBookExit,
    },
  };
}
