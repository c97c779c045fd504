import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { LedgerError, MONEY_RULE } from '@ledger/core/posting';
import { expect } from 'chai';
import { ERROR_STATUS, toProblem } from '../src/http/errors.js';
import { apiDocument } from '../src/openapi/index.js';
import {
  ADMIN_TOKEN,
  countRows,
  deposit,
  expectError,
  requiredQuery,
  startApi,
  type Reply,
  type TestApi,
} from './support.js';

interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  body: any;
}

/** A request over node:http, with headers and bytes exactly as given (fetch would fix them). */
function rawRequest(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: text === '' ? undefined : JSON.parse(text),
        });
      });
    });
    request.on('error', reject);
    if (body) request.write(body);
    request.end();
  });
}

/** What a raw answer must be: the contract's error shape with this status and code. */
function expectRawError(reply: RawReply, status: number, code: string): void {
  expect(reply.status, JSON.stringify(reply.body)).to.equal(status);
  expect(reply.body?.error?.code).to.equal(code);
  expect(reply.body.error.message).to.be.a('string').with.length.above(0);
  expect(reply.body.request_id).to.be.a('string').and.equal(reply.headers['x-request-id']);
}

/** The list operations of the document, with what their required parameters need to be valid. */
const LIST_PATHS = Object.entries(apiDocument.paths)
  .filter(([, item]) => item.get?.parameters?.some((p) => '$ref' in p && p.$ref.endsWith('/Limit')))
  .map(([template]) => {
    const query = requiredQuery(template);
    return `${template.replace('{customer_id}', 'C-1')}?${query === '' ? '' : `${query}&`}`;
  });

describe('hardening: bad input is a 4xx that changes nothing', () => {
  let api: TestApi;
  before(async () => {
    // 2 s: long enough that an entry among 200 at once is not cut on a machine running another suite beside this one.
    api = await startApi({ env: { REQUEST_TIMEOUT_MS: '2000' } });
    await api.put('/v1/customers/C-1', {});
    expect((await api.post('/v1/transactions', deposit())).status).to.equal(201);
  });
  after(async () => {
    await api.close();
  });

  describe('the page cap cannot be bypassed', () => {
    it('covers every list of the document', () => {
      expect(LIST_PATHS.length).to.be.at.least(6);
    });
    for (const bad of [
      'limit=1e309',
      'limit=Infinity',
      'limit=-Infinity',
      'offset=1e309',
      'offset=Infinity',
      'limit=1e3',
    ]) {
      it(`refuses ${bad} on every list with 400 validation_error naming the parameter`, async () => {
        for (const path of LIST_PATHS) {
          const reply = await api.get(`${path}${bad}`, { token: 'ledger' });
          expectError(reply, 400, 'validation_error');
          expect(
            reply.body.error.details.map((d: { path: string }) => d.path),
            path,
          ).to.include(`/query/${bad.split('=')[0]}`);
        }
      });
    }
  });

  describe('a body that does not decode as its Content-Encoding says', () => {
    const entry = Buffer.from(JSON.stringify(deposit()));
    for (const encoding of ['gzip', 'deflate', 'br']) {
      it(`answers 400 undecodable_body for a ${encoding} body that is not ${encoding}, storing nothing`, async () => {
        const before = await countRows(api.db, 'transactions');
        const headers = {
          'Content-Type': 'application/json',
          'Content-Encoding': encoding,
          'X-Ledger-Admin-Token': ADMIN_TOKEN,
        };
        expectRawError(await rawRequest(api.url, 'POST', '/v1/transactions', headers, entry), 400, 'undecodable_body');
        expect(await countRows(api.db, 'transactions')).to.equal(before);
      });
    }

    it('still reads gzip, deflate and br bodies that are what they say', async () => {
      const compress = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
      for (const [encoding, compressed] of Object.entries(compress)) {
        const headers = {
          'Content-Type': 'application/json',
          'Content-Encoding': encoding,
          'X-Ledger-Admin-Token': ADMIN_TOKEN,
        };
        const reply = await rawRequest(
          api.url,
          'PUT',
          `/v1/customers/C-${encoding}`,
          headers,
          compressed(Buffer.from('{"name": "Zipped"}')),
        );
        expect(reply.status, encoding).to.equal(201);
        expect(reply.body.name).to.equal('Zipped');
      }
    });
  });

  describe('ids Postgres would not take', () => {
    const urn = `urn:uuid:${randomUUID()}`;
    it('answers 400 for a urn:uuid id in a path, with the rule in words', async () => {
      for (const reply of [
        await api.get(`/v1/transactions/${urn}`, { token: 'ledger' }),
        await api.post(`/v1/transactions/${urn}/reverse`, {}),
      ]) {
        expectError(reply, 400, 'validation_error');
        expect(JSON.stringify(reply.body.error.details)).to.contain('a UUID in its plain form');
      }
    });

    it('answers 400 for a urn:uuid id in the txn_id filter', async () => {
      expectError(
        await api.get(`/v1/journal?txn_id=${encodeURIComponent(urn)}`, { token: 'ledger' }),
        400,
        'validation_error',
      );
    });
  });

  describe('a required body that was not sent', () => {
    for (const [label, headers] of [
      ['no body at all', {}],
      ['Content-Length: 0', { 'Content-Length': '0' }],
    ] as const) {
      it(`PUT /v1/customers/{id} with a JSON content type and ${label} is 400 and creates nothing`, async () => {
        const id = `C-empty-${randomUUID().slice(0, 8)}`;
        const reply = await rawRequest(api.url, 'PUT', `/v1/customers/${id}`, {
          'Content-Type': 'application/json',
          'X-Ledger-Admin-Token': ADMIN_TOKEN,
          ...headers,
        });
        expectRawError(reply, 400, 'validation_error');
        expect(reply.body.error.details).to.deep.equal([{ path: '/body', message: 'is required: send a JSON object' }]);
        expect(await api.db('customers').where('customer_id', id).first()).to.equal(undefined);
      });
    }

    it('POST /v1/transactions with Content-Length: 0 is 400 and posts nothing', async () => {
      const before = await countRows(api.db, 'transactions');
      const headers = {
        'Content-Type': 'application/json',
        'Content-Length': '0',
        'X-Ledger-Admin-Token': ADMIN_TOKEN,
      };
      expectRawError(await rawRequest(api.url, 'POST', '/v1/transactions', headers), 400, 'validation_error');
      expect(await countRows(api.db, 'transactions')).to.equal(before);
    });

    it('the reversal, whose body is optional, still takes none', async () => {
      const original = await api.post('/v1/transactions', deposit({ amount_usd: '7.00' }));
      const headers = {
        'Content-Type': 'application/json',
        'Content-Length': '0',
        'X-Ledger-Admin-Token': ADMIN_TOKEN,
      };
      expect(
        (await rawRequest(api.url, 'POST', `/v1/transactions/${original.body.txn_id}/reverse`, headers)).status,
      ).to.equal(201);
    });
  });

  describe('validation tells a person every broken rule, in words', () => {
    it('lists each failing field with its path and a message that is not a regex', async () => {
      const reply = await api.post(
        '/v1/transactions',
        deposit({ amount_usd: '10.123', txn_date: '2026-13-01', customer_id: 'has space', surprise: 1 }),
      );
      expectError(reply, 400, 'validation_error');
      const details = reply.body.error.details as Array<{ path: string; message: string }>;
      const paths = details.map((d) => d.path);
      expect(paths).to.include.members(['/body/amount_usd', '/body/txn_date', '/body/customer_id']);
      expect(details.find((d) => d.path === '/body/amount_usd')?.message).to.equal(`must be ${MONEY_RULE}`);
      for (const d of details) expect(d.message, d.path).not.to.match(/\^|\$"|\\d|\[0-9\]/);
      expect(reply.body.error.message).to.match(/^\d+ rules of the API contract are broken; the first: \/body\//);
    });

    it('refuses sub-cent amounts: money is kept in whole cents', async () => {
      for (const field of ['amount_usd', 'fee_usd']) {
        const reply = await api.post('/v1/transactions', deposit({ [field]: '10.123' }));
        expectError(reply, 400, 'validation_error');
        expect(reply.body.error.details).to.deep.include({ path: `/body/${field}`, message: `must be ${MONEY_RULE}` });
      }
    });
  });

  describe('one bad entry fails alone', () => {
    const poison = deposit({ original_currency: 'AED', original_amount: '0.00000001', amount_usd: '100000000000' });

    it('refuses the poison entry with a 4xx, on preview exactly as on posting', async () => {
      expectError(await api.post('/v1/transactions', poison), 400, 'validation_error');
      expectError(await api.post('/v1/transactions/preview', poison), 400, 'validation_error');
    });

    it('200 valid entries sent at once with the poison among them are all posted; the poison is refused', async () => {
      const before = await countRows(api.db, 'transactions');
      const keys = Array.from({ length: 200 }, (_, i) => `poison-mate-${i}`);
      const requests: Array<Promise<Reply>> = keys.map((key) =>
        api.post('/v1/transactions', deposit({ source_txn_id: key, amount_usd: '1.00' })),
      );
      requests.splice(100, 0, api.post('/v1/transactions', { ...poison, source_txn_id: 'poison' }));
      const replies = await Promise.all(requests);
      const [poisoned] = replies.splice(100, 1);
      expectError(poisoned!, 400, 'validation_error');
      expect(replies.map((r) => r.status)).to.deep.equal(keys.map(() => 201));
      expect(await countRows(api.db, 'transactions')).to.equal(before + 200);
      expect(
        await api.db('transactions').whereIn('source_txn_id', keys).count<Array<{ count: string }>>({ count: '*' }),
      ).to.deep.equal([{ count: '200' }]);
    });

    it('preview answers 422 unknown_customer, as posting does, and stores nothing', async () => {
      const before = await countRows(api.db, 'transactions');
      expectError(
        await api.post('/v1/transactions/preview', deposit({ customer_id: 'C-nobody' })),
        422,
        'unknown_customer',
      );
      expectError(await api.post('/v1/transactions', deposit({ customer_id: 'C-nobody' })), 422, 'unknown_customer');
      expect(await countRows(api.db, 'transactions')).to.equal(before);
    });

    it('preview of an entry already posted answers what posting would: its lines, or 409 for another payload', async () => {
      await api.post('/v1/transactions', deposit({ source_txn_id: 'preview-twice', amount_usd: '3.00' }));
      const same = await api.post(
        '/v1/transactions/preview',
        deposit({ source_txn_id: 'preview-twice', amount_usd: '3.00' }),
      );
      expect(same.status).to.equal(200);
      expect(same.body.journal_lines.map((l: { debit: string; credit: string }) => [l.debit, l.credit])).to.deep.equal([
        ['3.00', '0.00'],
        ['0.00', '3.00'],
      ]);
      expectError(
        await api.post('/v1/transactions/preview', deposit({ source_txn_id: 'preview-twice', amount_usd: '4.00' })),
        409,
        'idempotency_conflict',
      );
    });
  });

  describe('concurrent reversals', () => {
    it('20 callers at once, 50 rounds: each round one 201, nineteen 200, all with the one reversal', async function () {
      this.timeout(120_000);
      for (let round = 0; round < 50; round += 1) {
        const original = await api.post('/v1/transactions', deposit({ amount_usd: '2.00' }));
        const replies = await Promise.all(
          Array.from({ length: 20 }, () => api.post(`/v1/transactions/${original.body.txn_id}/reverse`, {})),
        );
        const statuses = replies.map((r) => r.status).sort();
        expect(
          statuses,
          `round ${round}: ${replies.map((r) => r.text).find((t) => !t.includes('"txn_id"'))}`,
        ).to.deep.equal([
          200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201,
        ]);
        expect(new Set(replies.map((r) => r.body.txn_id)).size, `round ${round}`).to.equal(1);
      }
    });
  });

  describe('limits of the HTTP server, answered in the error shape', () => {
    it('headers over the limit: 431 request_header_fields_too_large', async () => {
      const reply = await rawRequest(api.url, 'GET', '/v1/transactions', {
        'X-Ledger-Token': 'x',
        'X-Padding': 'p'.repeat(20_000),
      });
      expectRawError(reply, 431, 'request_header_fields_too_large');
    });

    it('a URL over the limit: 431 request_header_fields_too_large', async () => {
      const reply = await rawRequest(api.url, 'GET', `/v1/transactions?q=${'u'.repeat(20_000)}`, {});
      expectRawError(reply, 431, 'request_header_fields_too_large');
    });

    it('a body that trickles in slower than the request timeout is answered 408 request_timeout and cut, in time', async () => {
      const { hostname, port } = new URL(api.url);
      const started = Date.now();
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), hostname, () => {
          socket.write(
            `POST /v1/transactions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Ledger-Admin-Token: ${ADMIN_TOKEN}\r\nContent-Length: 100\r\n\r\n{"txn_`,
          );
        });
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      const elapsedMs = Date.now() - started;
      // REQUEST_TIMEOUT_MS is 2000 here; Node checks every 500 ms at that setting.
      expect(elapsedMs).to.be.below(5_000);
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).to.match(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(body ?? '').error.code).to.equal('request_timeout');
    });
  });

  it('an overloaded entry queue answers 503 overloaded with Retry-After, in the documented shape', () => {
    const problem = toProblem(new LedgerError('overloaded', 'too many waiting'));
    expect([ERROR_STATUS[problem.code], problem.code, problem.headers]).to.deep.equal([
      503,
      'overloaded',
      { 'Retry-After': '1' },
    ]);
    const documented = JSON.stringify(apiDocument.paths['/v1/transactions']?.post?.responses['503']);
    expect(documented).to.contain('"overloaded"').and.contain('"not_configured"');
  });

  it('GET / says where the docs and the console are (no other book configured: no link to its console)', async () => {
    const reply = await api.get('/');
    expect(reply.status).to.equal(200);
    expect(reply.body).to.deep.equal({
      service: 'ledger',
      book: 'ENTITY_UAE',
      docs: '/docs',
      openapi: '/docs/openapi.json',
      health: '/health/ready',
      console: '/console/',
      peer_console: null,
    });
  });
});
