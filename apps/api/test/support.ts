import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { createLogger, createMetrics, type Logger, type Metrics } from '@ledger/core/runtime';
import type { Db } from '@ledger/core/store';
import { createJobProducer } from '@ledger/job-runtime';
import { JOBS } from '@ledger/jobs';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { expect } from 'chai';
import winston from 'winston';
import { createApp } from '../src/app.js';
import { createQueueBoard } from '../src/features/queues/board.js';
import { loadConfig } from '../src/config.js';
import { createServer } from '../src/http/server.js';

export const LEDGER_TOKEN = 'ledger-read-token-0123456789abcdef';
export const ADMIN_TOKEN = 'ledger-admin-token-fedcba9876543210';

/**
 * The core logger (same formats, same redaction), writing to memory instead of stdout: every
 * line is the JSON text stdout would have shown.
 */
export function captureLogger(): { logger: Logger; lines: string[] } {
  const logger = createLogger({ level: 'debug', service: 'api-test', book: 'ENTITY_UAE' });
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8').trimEnd());
      done();
    },
  });
  logger.clear();
  logger.add(new winston.transports.Stream({ stream }));
  return { logger, lines };
}

export interface Reply {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  body: any;
  text: string;
}

export interface RequestOptions {
  token?: 'ledger' | 'admin' | string;
  body?: unknown;
  /** Sent as is (e.g. malformed JSON, compressed bytes); wins over `body`. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export interface TestApi {
  url: string;
  db: Db;
  logs: string[];
  /** The app's metrics registry (what /metrics would serve). */
  metrics: Metrics;
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  get(path: string, options?: RequestOptions): Promise<Reply>;
  post(path: string, body?: unknown, options?: RequestOptions): Promise<Reply>;
  put(path: string, body?: unknown, options?: RequestOptions): Promise<Reply>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Environment beyond the defaults (tokens set, the test database). */
  env?: Record<string, string | undefined>;
  /** Use this database instead of a fresh migrated one (not dropped on close). */
  db?: Db;
  dbUrl?: string;
  /** Serve the queues board at /console/queues (over this api's queues). */
  queueBoard?: boolean;
}

/**
 * The app in-process on a free port, with responses validated against the document, over a
 * fresh migrated database of its own (dropped on close).
 */
export async function startApi(options: StartOptions = {}): Promise<TestApi> {
  // The app runs as production's runtime role (owns nothing, holds only the runtime grants), so
  // every endpoint is shown to work without the rights that could bypass the ledger's checks.
  const testDb: TestDatabase | undefined = options.db ? undefined : await createTestDatabase({ runtimeRole: true });
  const db = options.db ?? (testDb as TestDatabase).runtime!.db;
  const config = loadConfig({
    ENTITY_ID: 'ENTITY_UAE',
    LEDGER_DB_URL: options.dbUrl ?? testDb?.runtime!.url ?? 'postgres://postgres@127.0.0.1:5432/unused',
    LEDGER_TOKEN,
    LEDGER_ADMIN_TOKEN: ADMIN_TOKEN,
    ...options.env,
  });
  const { logger, lines } = captureLogger();
  // A queue prefix of its own: no other test (or developer) sees this api's jobs.
  const queuePrefix = options.env?.QUEUE_PREFIX ?? `api-test-${randomUUID().slice(0, 8)}`;
  const jobs = createJobProducer({
    book: config.book,
    redisUrl: config.redisUrl,
    queuePrefix,
    catalog: JOBS,
    syncWaitMs: config.jobSyncWaitMs,
    logger,
    db,
  });
  const metrics = createMetrics({ service: 'api-test', book: config.book });
  const queueBoard = options.queueBoard
    ? createQueueBoard({ book: config.book, redisUrl: config.redisUrl, queuePrefix, logger })
    : undefined;
  const app = createApp({ config, db, logger, jobs, metrics, queueBoard, validateResponses: true });
  const server: Server = createServer(app, { requestTimeoutMs: config.requestTimeoutMs }, logger);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const request = async (method: string, path: string, opts: RequestOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token === 'ledger') headers['X-Ledger-Token'] = LEDGER_TOKEN;
    else if (opts.token === 'admin') headers['X-Ledger-Admin-Token'] = ADMIN_TOKEN;
    let payload: string | Buffer | undefined = opts.rawBody;
    if (payload === undefined && opts.body !== undefined) payload = JSON.stringify(opts.body);
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['Content-Type'] = 'application/json';
    }
    const response = await fetch(`${url}${path}`, { method, headers, body: payload, redirect: 'manual' });
    const text = await response.text();
    let body: unknown = undefined;
    if (text !== '' && (response.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
    return { status: response.status, headers: response.headers, body, text };
  };

  return {
    url,
    db,
    logs: lines,
    metrics,
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { token: 'admin', ...opts, body }),
    put: (path, body, opts) => request('PUT', path, { token: 'admin', ...opts, body }),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await jobs.close();
      await queueBoard?.close();
      await testDb?.drop();
    },
  };
}

/** The contract's error shape, with this status and code. */
export function expectError(reply: Reply, status: number, code: string): void {
  expect(reply.status, `status of ${reply.text}`).to.equal(status);
  expect(reply.body).to.be.an('object');
  expect(Object.keys(reply.body).sort()).to.deep.equal(['error', 'request_id']);
  expect(reply.body.error.code).to.equal(code);
  expect(reply.body.error.message).to.be.a('string').with.length.above(0);
  expect(reply.body.request_id).to.be.a('string').and.equal(reply.headers.get('x-request-id'));
  expect(reply.text).not.to.match(/\bat .*\.(ts|js):\d+|SELECT |INSERT |stack/i);
}

/** Counts rows of a table straight from the database (what the API stored, not what it said). */
export async function countRows(
  db: Db,
  table: 'transactions' | 'journal_lines' | 'customers' | 'cash_requests',
): Promise<number> {
  const [row] = await db(table).count<Array<{ count: string }>>({ count: '*' });
  return Number(row?.count ?? 0);
}

export function deposit(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    txn_type: 'deposit',
    customer_id: 'C-1',
    source: 'manual',
    txn_date: '2026-01-15',
    amount_usd: '100.00',
    ...overrides,
  };
}

/** The query a GET operation requires to be valid (`key=value`, or empty): grouped reads a `group_by`, schedule-fa an `fy`, the tax pack a PAN and an `fy`. */
export function requiredQuery(template: string): string {
  if (template.endsWith('/grouped')) return `group_by=${template.startsWith('/v1/journal') ? 'account' : 'type'}`;
  if (template === '/v1/india/tax-pack') return 'pan=ABCDE1234F&fy=2024-25';
  return template === '/v1/india/schedule-fa' ? 'fy=2024-25' : '';
}

/** GET operations that name one resource by their query (the tax pack's PAN): a sample one is unknown, 404 as an unknown id. */
export const QUERY_NAMES_A_RESOURCE = ['/v1/india/tax-pack'];
