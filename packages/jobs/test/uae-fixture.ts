import { Decimal } from '@ledger/core/posting';
import { createLogger } from '@ledger/core/runtime';
import { upsertCustomer, type Db } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { startSandbox, type RegistryCustomer, type Sandbox, type SandboxOptions } from '@ledger/sandbox';
import { createUpstreamClients, upstreamConfigSchema, type UpstreamClients } from '@ledger/upstream-clients';
import { DEFAULT_JOB_SETTINGS, type JobDeps } from '../src/index.js';

export const PEG = new Decimal('3.6725');
const logger = createLogger({ level: 'error', service: 'jobs-test', book: 'ENTITY_UAE', silent: true });

/** The book's clients of a sandbox (or of `urls` in its place: a port nothing listens on is an upstream down). */
export function sandboxUpstreams(sandbox: Sandbox, urls: Partial<Sandbox['urls']> = {}): UpstreamClients {
  const { uaefeed, custodian } = { ...sandbox.urls, ...urls };
  const c = sandbox.credentials;
  return createUpstreamClients(
    upstreamConfigSchema.parse({
      UAEFEED_BASE_URL: uaefeed,
      UAEFEED_API_KEY: c.uaefeed.appKey,
      UAEFEED_API_SECRET: c.uaefeed.appSecret,
      UAEFEED_PRIVATE_KEY: c.uaefeed.privateKeyPem,
      UAEFEED_INST_CODE: c.uaefeed.instCode,
      CUSTODIAN_BASE_URL: custodian,
      CUSTODIAN_API_KEY: c.custodian.apiKey,
    }),
  );
}

/** A URL where nothing listens: connections are refused. */
export const NOWHERE = 'http://127.0.0.1:9';

/** Links every registry customer as an operator would (PUT /v1/customers/{id}). */
export async function linkCustomers(db: Db, customers: readonly RegistryCustomer[]): Promise<void> {
  for (const c of customers) {
    await upsertCustomer(db, c.customer_id, {
      name: c.name,
      references: {
        uaefeed_customer_number: c.uaefeed_customer_number,
        uaefeed_account_number: c.uaefeed_account_number,
        custodian_account: c.custodian_account,
      },
    });
  }
}

export interface UaeFixture {
  sandbox: Sandbox;
  /** A fresh database with every sandbox customer linked, and the job deps over it. */
  freshBook(upstreams?: UpstreamClients): Promise<{ database: TestDatabase; db: Db; deps: JobDeps }>;
  close(): Promise<void>;
}

export async function uaeFixture(options: SandboxOptions): Promise<UaeFixture> {
  const sandbox = await startSandbox(options);
  const databases: TestDatabase[] = [];
  return {
    sandbox,
    async freshBook(upstreams = sandboxUpstreams(sandbox)) {
      const database = await createTestDatabase({ runtimeRole: true });
      databases.push(database);
      const db = database.runtime!.db;
      await linkCustomers(db, sandbox.data.customers);
      const deps: JobDeps = {
        book: 'ENTITY_UAE',
        db,
        logger,
        progress: () => undefined,
        settings: DEFAULT_JOB_SETTINGS,
        upstreams,
      };
      return { database, db, deps };
    },
    async close() {
      await Promise.all(databases.map((d) => d.drop()));
      await sandbox.close();
    },
  };
}

/** Rows of each table, to show a run wrote nothing. */
export async function rowCounts(db: Db, tables: readonly string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [row] = (await db(table).count({ n: '*' })) as Array<{ n: string }>;
    counts[table] = Number(row!.n);
  }
  return counts;
}
