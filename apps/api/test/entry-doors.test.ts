import { createLogger } from '@ledger/core/runtime';
import type { Db } from '@ledger/core/store';
import { DEFAULT_JOB_SETTINGS, syncUaefeedJob } from '@ledger/jobs';
import { startSandbox, type Sandbox, type SandboxOrder, type SandboxTransfer } from '@ledger/sandbox';
import { createUpstreamClients, upstreamConfigSchema } from '@ledger/upstream-clients';
import { expect } from 'chai';
import { countRows, startApi, type Reply, type TestApi } from './support.js';

/*
 * One domain check per field, used by every door an entry comes in by (docs/architecture.md,
 * issue 32): manual entry, its preview, the uaefeed import and the uaefeed sync each get the same
 * bad values, and each refuses them (a 4xx, or the record `rejected`) with nothing posted.
 */

/** A day outside the sandbox's period: the sync reads only what is planted on it. */
const DAY = '2026-03-02';
const MARKUP = '<img src=x onerror=alert(1)>';

type RecordKind = 'orders' | 'cash_transfers';

interface BadValue {
  what: string;
  /** The manual entry (and preview) carrying the value, or why those doors have no such field. */
  entry: ((customerId: string) => Record<string, unknown>) | { none: string };
  /** The uaefeed record carrying it, given the customer's number and another customer's. */
  record: (own: string, other: string) => { kind: RecordKind; fields: Partial<SandboxOrder & SandboxTransfer> };
  /** The reason code a refused record is answered with, and what its message must name. */
  reason: { code: string; names: string };
}

const BAD_VALUES: readonly BadValue[] = [
  {
    what: 'a symbol that is markup',
    entry: (customerId) => ({
      txn_type: 'buy_security',
      customer_id: customerId,
      source: 'manual',
      txn_date: DAY,
      amount_usd: '100.00',
      symbol: MARKUP,
      quantity: '1',
    }),
    record: () => ({ kind: 'orders', fields: { symbol: MARKUP } }),
    reason: { code: 'validation_error', names: 'symbol' },
  },
  {
    what: 'a symbol with a space',
    entry: (customerId) => ({
      txn_type: 'deposit',
      customer_id: customerId,
      source: 'manual',
      txn_date: DAY,
      amount_usd: '100.00',
      symbol: 'EMAAR X',
    }),
    record: () => ({ kind: 'orders', fields: { symbol: 'EMAAR X' } }),
    reason: { code: 'validation_error', names: 'symbol' },
  },
  {
    what: 'a fill above the quantity ordered',
    entry: { none: 'manual entry states the quantity traded only (checked greater than zero), no quantity ordered' },
    record: () => ({ kind: 'orders', fields: { ordQty: '10', cumQty: '11', netSettle: '161.83' } }),
    reason: { code: 'invalid_quantity', names: 'at most the quantity ordered' },
  },
  {
    what: 'another customer’s cash account',
    entry: { none: 'manual entry names no upstream cash account (its customer’s wallet is the only one it moves)' },
    record: (_own, other) => ({ kind: 'cash_transfers', fields: { cashAccountNumber: `${other}-AED` } }),
    reason: { code: 'not_own_cash_account', names: 'cash_account' },
  },
];

/** A good record of each kind, on DAY, for customer number `own`: what a bad value changes. */
function recordOf(kind: RecordKind, id: string, own: string): SandboxOrder | SandboxTransfer {
  if (kind === 'orders')
    return {
      clOrdId: `CL-${id}`,
      orderId: id,
      symbol: 'EMAAR',
      side: 'BUY',
      ordQty: '10',
      cumQty: '10',
      avgPx: '14.69',
      netSettle: '147.12',
      ordStatus: 'FILLED',
      tradeDate: DAY,
      currency: 'AED',
      exchange: 'DFM',
    };
  return {
    transferId: id,
    cashAccountNumber: `${own}-AED`,
    type: 'DEPOSIT',
    amount: '367.25',
    currency: 'AED',
    status: 'COMPLETED',
    valueDate: DAY,
  };
}

describe('every door refuses the same bad values, and posts nothing of them (issue 32)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let sandbox: Sandbox;
  let own: { customerId: string; number: string };
  let other: string;

  before(async () => {
    sandbox = await startSandbox({ seed: 32, customers: 2, recordsPerCustomer: 2, startMonth: '2026-01', months: 1 });
    api = await startApi();
    for (const c of sandbox.data.customers) {
      const linked = await api.put(`/v1/customers/${c.customer_id}`, {
        name: c.name,
        uaefeed_customer_number: c.uaefeed_customer_number,
      });
      expect(linked.status, linked.text).to.equal(201);
    }
    const [first, second] = sandbox.data.customers;
    own = { customerId: first!.customer_id, number: first!.uaefeed_customer_number };
    other = second!.uaefeed_customer_number;
  });
  after(async () => {
    await api?.close();
    await sandbox?.close();
  });

  const written = async (db: Db) => [await countRows(db, 'transactions'), await countRows(db, 'journal_lines')];

  /** Runs `door` and checks it wrote nothing. */
  async function nothingWritten(door: () => Promise<void>): Promise<void> {
    const before = await written(api.db);
    await door();
    expect(await written(api.db), 'nothing posted').to.deep.equal(before);
  }

  function expectRefused(reply: Reply, names: string): void {
    expect(reply.status, reply.text).to.be.within(400, 499);
    expect(reply.text).to.include(names);
  }

  BAD_VALUES.forEach((bad, n) => {
    describe(bad.what, () => {
      const id = `DOOR-${n}`;
      const entry = bad.entry;
      // A door without the field (entry.none says why) has nothing to refuse.
      if (!('none' in entry)) {
        for (const [door, path] of [
          ['manual entry', '/v1/transactions'],
          ['preview', '/v1/transactions/preview'],
        ] as const)
          it(`${door} (POST ${path}) › 4xx naming ${bad.reason.names}`, () =>
            nothingWritten(async () => expectRefused(await api.post(path, entry(own.customerId)), bad.reason.names)));
      }

      it(`the uaefeed import (POST /v1/import/uaefeed) › 422 invalid_records, ${bad.reason.code}`, () =>
        nothingWritten(async () => {
          const { kind, fields } = bad.record(own.number, other);
          const reply = await api.post('/v1/import/uaefeed', {
            [kind]: [{ ...recordOf(kind, id, own.number), ...fields, customerNumber: own.number }],
          });
          expectRefused(reply, bad.reason.names);
          expect(reply.body.error.code).to.equal('invalid_records');
          expect(reply.body.error.details.map((d: { reason: { code: string } }) => d.reason.code)).to.deep.equal([
            bad.reason.code,
          ]);
        }));

      it(`the uaefeed sync (sync-uaefeed) › the record rejected, ${bad.reason.code}`, () =>
        nothingWritten(async () => {
          const { kind, fields } = bad.record(own.number, other);
          // Planted in what the sandbox serves for the customer, on a day nothing else is.
          const data = sandbox.data.dataOf(sandbox.data.customers[0]!);
          const served = (kind === 'orders' ? data.orders : data.transfers) as Array<SandboxOrder | SandboxTransfer>;
          served.push({ ...recordOf(kind, id, own.number), ...fields });
          try {
            const result = await syncUaefeedJob.run(
              { customer_ids: [own.customerId], from: DAY, to: DAY, recost: false },
              {
                book: 'ENTITY_UAE',
                db: api.db,
                logger: createLogger({ level: 'error', service: 'test', book: 'ENTITY_UAE', silent: true }),
                progress: () => undefined,
                settings: DEFAULT_JOB_SETTINGS,
                upstreams: createUpstreamClients(
                  upstreamConfigSchema.parse({
                    UAEFEED_BASE_URL: sandbox.urls.uaefeed,
                    UAEFEED_API_KEY: sandbox.credentials.uaefeed.appKey,
                    UAEFEED_API_SECRET: sandbox.credentials.uaefeed.appSecret,
                    UAEFEED_PRIVATE_KEY: sandbox.credentials.uaefeed.privateKeyPem,
                    UAEFEED_INST_CODE: sandbox.credentials.uaefeed.instCode,
                  }),
                ),
              },
            );
            expect(result.customers_failed).to.deep.equal([]);
            expect(result.records[kind]).to.include({ inserted: 0, rejected: 1 });
            expect(result.issues.map((i) => [i.source_txn_id, i.reason.code])).to.deep.equal([[id, bad.reason.code]]);
            expect(JSON.stringify(result.issues[0]!.reason)).to.include(bad.reason.names);
          } finally {
            served.pop();
          }
        }));
    });
  });
});
