import { NO_UPSTREAMS } from '@ledger/upstream-clients';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import {
  ALERT_TIMEOUT_MS,
  BOTH_BOOKS,
  DEFAULT_RECON_SETTINGS,
  runReconciliation,
  variance,
  type Check,
} from '../src/index.js';
import { cleanBook } from './book.js';

type Book = Awaited<ReturnType<typeof cleanBook>>;

/** A local alert target answering each POST with `answer`; it keeps the bodies it read. */
async function target(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; bodies: unknown[]; server: Server }> {
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      bodies.push(JSON.parse(text));
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/alerts?token=secret`, bodies, server };
}
const close = (server: Server) =>
  new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
const until = async (done: () => boolean) => {
  for (let i = 0; i < 100 && !done(); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
};

const drifting = (name: string, status: 'warn' | 'fail', count: number): Check => ({
  name,
  category: 'B',
  books: BOTH_BOOKS,
  run: async () => ({
    status,
    metrics: {},
    variances: Array.from({ length: count }, (_, i) =>
      variance({ customer_id: `C-${i}`, expected: '1.00', actual: '1.01', difference: '0.01' }),
    ),
  }),
});
const fine: Check = {
  name: 'fine',
  category: 'B',
  books: BOTH_BOOKS,
  run: async () => ({ status: 'ok', metrics: {}, variances: [] }),
};

describe('drift alerts', function () {
  this.timeout(60_000);
  let book: Book;
  before(async () => {
    book = await cleanBook();
  });
  after(async () => book?.drop());
  const run = (url: string | undefined, checks: Check[]) =>
    runReconciliation(
      {
        db: book.runtimeDb,
        book: 'ENTITY_UAE',
        settings: { ...DEFAULT_RECON_SETTINGS, alertWebhookUrl: url },
        upstreams: NO_UPSTREAMS,
      },
      { checks },
    );

  it('a warn or fail check POSTs one alert each, with the documented body; an ok check none', async () => {
    const ok = await target((_req, res) => res.writeHead(204).end());
    try {
      const stored = await run(ok.url, [drifting('drifts', 'warn', 7), fine, drifting('breaks', 'fail', 1)]);
      await until(() => ok.bodies.length === 2);
      const byCheck = Object.fromEntries((ok.bodies as Array<{ check_name: string }>).map((b) => [b.check_name, b]));
      expect(Object.keys(byCheck).sort()).to.deep.equal(['breaks', 'drifts']);
      expect(byCheck.drifts).to.deep.equal({
        book: 'ENTITY_UAE',
        check_name: 'drifts',
        category: 'B',
        status: 'warn',
        run_id: stored.run_id,
        ran_at: stored.results[0]!.ran_at,
        variance_count: 7,
        variances: stored.metadata.variances.slice(0, 5),
        run_path: `/v1/reconciliation/runs/${stored.run_id}`,
      });
    } finally {
      await close(ok.server);
    }
  });

  it('without ALERT_WEBHOOK_URL nothing is sent', async () => {
    const ok = await target((_req, res) => res.writeHead(204).end());
    try {
      await run(undefined, [drifting('drifts', 'fail', 1)]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(ok.bodies).to.deep.equal([]);
    } finally {
      await close(ok.server);
    }
  });

  for (const [kind, answer] of [
    ['answering 500', (_req: IncomingMessage, res: ServerResponse) => res.writeHead(500).end('down for maintenance')],
    ['that never answers', () => undefined],
  ] as const) {
    it(`a target ${kind} neither delays nor fails the run, and is asked once (no retry)`, async () => {
      const bad = await target(answer);
      try {
        const startedAt = Date.now();
        const stored = await run(bad.url, [drifting('drifts', 'fail', 1)]);
        expect(Date.now() - startedAt, 'the run waited for the alert').to.be.lessThan(ALERT_TIMEOUT_MS);
        expect(stored.status).to.equal('fail');
        await new Promise((resolve) => setTimeout(resolve, ALERT_TIMEOUT_MS + 300));
        expect(bad.bodies).to.have.length(1);
      } finally {
        await close(bad.server);
      }
    });
  }

  it('a target that is down neither delays nor fails the run', async () => {
    const gone = await target(() => undefined);
    await close(gone.server);
    const startedAt = Date.now();
    const stored = await run(gone.url, [drifting('drifts', 'fail', 1)]);
    expect(Date.now() - startedAt).to.be.lessThan(ALERT_TIMEOUT_MS);
    expect(stored.status).to.equal('fail');
  });
});
