import { createLogger, type Book } from '@ledger/core/runtime';
import type { TestDatabase } from '@ledger/core/testing';
import { DEFAULT_JOB_SETTINGS, type JobDeps } from '@ledger/jobs';
import { createDataset, parseEnvFile, type SandboxDataset } from '@ledger/sandbox';
import { createUpstreamClients, upstreamConfigSchema, type UpstreamEnv } from '@ledger/upstream-clients';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SANDBOX_CLI = fileURLToPath(new URL('../../packages/sandbox/src/cli.ts', import.meta.url));

/** The sync benches' seed: the sandbox serves this data set and the bench makes it again to compare. */
const SYNC_SEED = 2026;

/**
 * The sandbox in a process of its own (`pnpm sandbox`), as a real upstream is another machine:
 * serving it does not take the job's event loop. Answers its client settings.
 */
export async function startSandboxProcess(
  seed: number,
  customers: number,
  recordsPerCustomer: number,
  /** More of the sandbox's flags (e.g. `--start-month`, `--months`). */
  more: string[] = [],
): Promise<{ env: Record<string, string>; pid: number; close(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-sandbox-'));
  const envFile = join(dir, 'sandbox.env');
  const ports = ['--registry-port', '--uaefeed-port', '--custodian-port', '--usbroker-port', '--remit-port'].flatMap(
    (flag) => [flag, '0'],
  );
  const child = spawn(
    process.execPath,
    [
      '--conditions=@ledger/source',
      '--import=tsx',
      SANDBOX_CLI,
      '--seed',
      String(seed),
      '--customers',
      String(customers),
      '--records-per-customer',
      String(recordsPerCustomer),
      '--client-env-file',
      envFile,
      ...ports,
      ...more,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const close = () => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('client settings in')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it was ready`)));
  });
  return { env: parseEnvFile(readFileSync(envFile, 'utf8')), pid: child.pid!, close };
}

/** A sync bench's sandbox: what the job runs with, against it. */
export interface SyncSandbox {
  /** What the sandbox serves, made again here from the same seed (for a yardstick's drafts). */
  data: SandboxDataset;
  /** The book's job dependencies, with the clients of the upstreams named, set up from the sandbox's settings. */
  deps: JobDeps;
  /** Stops the sandbox's process. */
  close(): void;
}

/**
 * The sandbox started over `customers` × `recordsPerCustomer` records, and a sync job's
 * dependencies on `book` against it: its database the runtime role's where there is one, only
 * the `upstream` settings given to the clients (the others unconfigured, as on the book).
 */
export async function startSyncSandbox(
  database: TestDatabase,
  options: { book: Book; customers: number; recordsPerCustomer: number; upstream: ReadonlyArray<keyof UpstreamEnv> },
): Promise<SyncSandbox> {
  const { book, customers, recordsPerCustomer } = options;
  const sandbox = await startSandboxProcess(SYNC_SEED, customers, recordsPerCustomer);
  try {
    const env = Object.fromEntries(options.upstream.map((name) => [name, sandbox.env[name]]));
    return {
      data: createDataset({ seed: SYNC_SEED, customers, recordsPerCustomer }),
      deps: {
        book,
        db: database.runtime?.db ?? database.db,
        logger: createLogger({ level: 'error', service: 'bench', book, silent: true }),
        progress: () => undefined,
        settings: DEFAULT_JOB_SETTINGS,
        upstreams: createUpstreamClients(upstreamConfigSchema.parse(env)),
      },
      close: sandbox.close,
    };
  } catch (error) {
    sandbox.close();
    throw error;
  }
}
