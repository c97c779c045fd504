import { expect } from 'chai';
import { countRows, expectError, startApi, type TestApi } from './support.js';

const transfer = (overrides: Record<string, unknown> = {}) => ({
  customerNumber: '7000001',
  transferId: 'TRF-HAND-1',
  cashAccountNumber: '7000001-AED',
  type: 'DEPOSIT',
  amount: '367.25',
  currency: 'AED',
  status: 'COMPLETED',
  valueDate: '2026-01-15',
  ...overrides,
});

const order = (overrides: Record<string, unknown> = {}) => ({
  customerNumber: '7000001',
  clOrdId: 'CL-HAND-1',
  orderId: 'ORD-HAND-1',
  symbol: 'EMAAR',
  side: 'BUY',
  ordQty: '100',
  cumQty: '100',
  avgPx: '14.69',
  netSettle: '1471.20',
  ordStatus: 'FILLED',
  tradeDate: '2026-01-20',
  currency: 'AED',
  exchange: 'DFM',
  ...overrides,
});

describe('POST /v1/import/uaefeed', function () {
  this.timeout(120_000);
  let api: TestApi;

  before(async () => {
    api = await startApi();
    const linked = await api.put('/v1/customers/UAE-1', { name: 'Aisha', uaefeed_customer_number: '7000001' });
    expect(linked.status, linked.text).to.equal(201);
  });
  after(() => api?.close());

  const rows = async () => [await countRows(api.db, 'transactions'), await countRows(api.db, 'journal_lines')];

  it('posts the batch and lists each record’s outcome; the same batch again posts nothing new', async () => {
    const batch = {
      cash_transfers: [transfer(), transfer({ transferId: 'TRF-HAND-2', status: 'REJECTED' })],
      orders: [order()],
    };
    const first = await api.post('/v1/import/uaefeed', batch);
    expect(first.status, first.text).to.equal(200);
    expect(first.body).to.include({ inserted: 2, updated: 0, duplicate: 0, conflict: 0, skipped: 1, rejected: 0 });
    const records = first.body.records as Array<Record<string, unknown>>;
    expect(records.map((r) => [r.record, r.source_txn_id, r.customer_id, r.outcome])).to.deep.equal([
      ['/cash_transfers/0', 'TRF-HAND-1', 'UAE-1', 'inserted'],
      ['/cash_transfers/1', 'TRF-HAND-2', 'UAE-1', 'skipped'],
      ['/orders/0', 'ORD-HAND-1', 'UAE-1', 'inserted'],
    ]);
    // 1469.00 AED of shares (400.00 USD) and a 2.20 AED fee (0.60 USD), from the AED accounts.
    const buy = await api.get(`/v1/transactions/${String(records[2]!.txn_id)}`, { token: 'ledger' });
    expect(buy.body).to.include({
      txn_type: 'buy_security',
      source: 'uaefeed',
      source_txn_id: 'ORD-HAND-1',
      amount_usd: '400.00',
      quantity: '100',
    });
    expect(
      (buy.body.journal_lines as Array<{ account_code: string; debit: string; credit: string }>).map(
        (l) => `${l.account_code} ${l.debit}/${l.credit}`,
      ),
    ).to.deep.equal([
      '1200 400.00/0.00',
      '1020 0.00/400.00',
      '2020 400.00/0.00',
      '2100 0.00/400.00',
      '2020 0.60/0.00',
      '4010 0.00/0.60',
    ]);

    const before = await rows();
    const again = await api.post('/v1/import/uaefeed', batch);
    expect(again.status).to.equal(200);
    expect(again.body).to.include({ inserted: 0, duplicate: 2, conflict: 0, skipped: 1, rejected: 0 });
    expect(await rows()).to.deep.equal(before);
  });

  it('a record posted before with other facts is a conflict naming the fields; the others post', async () => {
    const reply = await api.post('/v1/import/uaefeed', {
      cash_transfers: [transfer({ amount: '734.50' }), transfer({ transferId: 'TRF-HAND-3' })],
    });
    expect(reply.status, reply.text).to.equal(200);
    expect(reply.body).to.include({ inserted: 1, conflict: 1, rejected: 0 });
    const [conflict] = reply.body.records as Array<{
      outcome: string;
      txn_id: string;
      reason: { code: string; detail: { txn_id: string; fields: string[] } };
    }>;
    expect(conflict!.outcome).to.equal('conflict');
    expect(conflict!.reason.code).to.equal('idempotency_conflict');
    expect(conflict!.reason.detail.txn_id).to.equal(conflict!.txn_id);
    expect(conflict!.reason.detail.fields).to.include('amount_usd');
  });

  it('one bad record: 422 invalid_records naming each bad record, and nothing of the batch is posted', async () => {
    const before = await rows();
    const reply = await api.post('/v1/import/uaefeed', {
      cash_transfers: [
        transfer({ transferId: 'TRF-OK' }),
        transfer({ transferId: 'TRF-NOBODY', customerNumber: '7999999' }),
      ],
      orders: [order({ orderId: 'ORD-OK' }), order({ orderId: 'ORD-BAD', netSettle: '1000.00' })],
    });
    expectError(reply, 422, 'invalid_records');
    expect((reply.body.error as { details: unknown[] }).details).to.deep.equal([
      {
        record: '/cash_transfers/1',
        source_txn_id: 'TRF-NOBODY',
        reason: { code: 'not_linked', detail: { uaefeed_customer_number: '7999999' } },
      },
      {
        record: '/orders/1',
        source_txn_id: 'ORD-BAD',
        reason: { code: 'negative_fee', detail: { side: 'BUY', net_settle: '1000.00', executed: '1469.00' } },
      },
    ]);
    expect(await rows()).to.deep.equal(before);
  });

  for (const [day, field, record] of [
    ['2026-02-30', 'valueDate', 'cash_transfers'],
    ['2026-13-01', 'valueDate', 'cash_transfers'],
    ['1900-01-00', 'tradeDate', 'orders'],
  ] as const) {
    it(`when a record is dated ${day}, a day not on the calendar › 422 invalid_records naming it, and nothing of the batch is posted`, async () => {
      const before = await rows();
      const bad =
        record === 'cash_transfers'
          ? {
              cash_transfers: [
                transfer({ transferId: 'TRF-DAY-OK', valueDate: '2026-02-27' }),
                transfer({ transferId: 'TRF-DAY-BAD', valueDate: day }),
              ],
            }
          : {
              cash_transfers: [transfer({ transferId: 'TRF-DAY-OK', valueDate: '2026-02-27' })],
              orders: [order({ orderId: 'ORD-DAY-BAD', tradeDate: day })],
            };
      const reply = await api.post('/v1/import/uaefeed', bad);
      expectError(reply, 422, 'invalid_records');
      const [problem, ...others] = (
        reply.body.error as {
          details: Array<{ record: string; reason: { code: string; detail: Record<string, unknown> } }>;
        }
      ).details;
      expect(others).to.deep.equal([]);
      expect(problem!.record).to.equal(`/${record}/${record === 'cash_transfers' ? 1 : 0}`);
      expect(problem!.reason).to.deep.include({ code: 'invalid_date' });
      expect(problem!.reason.detail).to.include({ field, value: day });
      expect(await rows()).to.deep.equal(before);
    });
  }

  it('a record not in the feed’s format is a 400 naming the field; amounts as JSON numbers are refused', async () => {
    const reply = await api.post('/v1/import/uaefeed', { cash_transfers: [transfer({ amount: 367.25 })] });
    expectError(reply, 400, 'validation_error');
    expect(reply.text).to.contain('/body/cash_transfers/0/amount');
  });

  it('needs the admin token', async () => {
    const reply = await api.post('/v1/import/uaefeed', { cash_transfers: [transfer()] }, { token: 'ledger' });
    expectError(reply, 403, 'forbidden');
  });
});

describe('POST /v1/import/uaefeed on the India book', function () {
  this.timeout(120_000);
  it('answers 409 wrong_book and posts nothing', async () => {
    const api = await startApi({ env: { ENTITY_ID: 'ENTITY_IND_IFSC' } });
    try {
      const reply = await api.post('/v1/import/uaefeed', { cash_transfers: [transfer()] });
      expectError(reply, 409, 'wrong_book');
      expect(await countRows(api.db, 'transactions')).to.equal(0);
    } finally {
      await api.close();
    }
  });
});
