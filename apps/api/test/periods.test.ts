import { Decimal, FeeSchedule, todayUtc, type TransactionDraft, draftFromEntry } from '@ledger/core/posting';
import { postTransactions, recost } from '@ledger/core/store';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { countRows, deposit, expectError, type Reply, type TestApi } from './support.js';
import { postEntry, RECOST, reportsAnswered, startApiWithC1 } from './closing.js';

const POLICY = { feeSchedule: new FeeSchedule(new Decimal(22)) };

/** Every firm and customer report of a day, as the API answers it (status and exact bytes). */
const REPORTS_AS_OF = (day: string) => [
  `/v1/firm/accounts?as_of=${day}`,
  `/v1/firm/trial_balance?as_of=${day}`,
  `/v1/firm/summary?from=2026-01-01&to=${day}`,
  `/v1/firm/earnings?from=2026-01-01&to=${day}`,
  `/v1/customers/C-1/summary?as_of=${day}`,
  `/v1/customers/C-1/positions?as_of=${day}`,
  `/v1/customers/C-1/trial_balance?as_of=${day}`,
  `/v1/customers/C-1/statement?from=2026-01-01&to=${day}`,
  `/v1/customers/C-1/equity_curve?from=2026-01-01&to=${day}`,
  `/v1/customers/C-1/dividends?from=2026-01-01&to=${day}`,
];

describe('closed periods (docs/period-close.md)', function () {
  this.timeout(120_000);
  let api: TestApi;

  before(async () => (api = await startApiWithC1()));
  after(() => api?.close());

  const posted = (fields: Record<string, unknown>) => postEntry(api, fields);
  const reports = (day: string) => reportsAnswered(api, REPORTS_AS_OF(day));

  /** A late upstream record: what a sync or the import hands to bulk posting. */
  const lateDeposit = (date: string, key: string): TransactionDraft =>
    draftFromEntry(
      {
        txn_type: 'deposit',
        customer_id: 'C-1',
        source: 'uaefeed',
        source_txn_id: key,
        txn_date: date,
        amount_usd: '40.00',
      },
      randomUUID(),
      POLICY,
    );

  let buyA: Record<string, string>;
  let close: Reply;

  it('closes the books through a day (201, who and when), a repeat answers the same close (200), and lists it', async () => {
    await posted({ txn_date: '2026-01-02', amount_usd: '5000.00' });
    buyA = await posted({
      txn_type: 'buy_security',
      symbol: 'AAPL',
      quantity: '10',
      amount_usd: '1000.00',
      txn_date: '2026-01-05',
    });
    await posted({
      txn_type: 'buy_security',
      symbol: 'AAPL',
      quantity: '10',
      amount_usd: '1200.00',
      txn_date: '2026-01-07',
    });
    await posted({
      txn_type: 'sell_security',
      symbol: 'AAPL',
      quantity: '10',
      amount_usd: '1500.00',
      txn_date: '2026-01-09',
    });
    const refused = await api.post('/v1/periods/close', { through: '2026-01-10' });
    expectError(refused, 409, 'conflict');
    expect(refused.body.error.message).to.match(/3 transactions .* pending recost/);
    await recost(api.db, RECOST);

    close = await api.post(
      '/v1/periods/close',
      { through: '2026-01-10' },
      { headers: { 'X-Ledger-Actor': 'ana@example.com' } },
    );
    expect(close.status, close.text).to.equal(201);
    expect(close.body).to.include({
      action: 'close',
      through: '2026-01-10',
      reason: null,
      actor: 'api:ana@example.com',
    });
    const again = await api.post('/v1/periods/close', { through: '2026-01-10' });
    expect([again.status, again.body]).to.deep.equal([200, close.body]);
    const list = await api.get('/v1/periods', { token: 'ledger' });
    expect(list.body).to.deep.equal({ items: [close.body], total: 1, limit: 50, offset: 0 });
    expect(api.logs.some((l) => l.includes('"actor":"ana@example.com"'))).to.equal(true);
  });

  it('refuses a close of today or later (400), an earlier day than the close in force (409), a bad X-Ledger-Actor (400), and the ledger token (403)', async () => {
    expectError(await api.post('/v1/periods/close', { through: todayUtc() }), 400, 'validation_error');
    expectError(await api.post('/v1/periods/close', { through: '2026-01-09' }), 409, 'conflict');
    expectError(
      await api.post(
        '/v1/periods/close',
        { through: '2026-01-10' },
        { headers: { 'X-Ledger-Actor': 'ana;drop table' } },
      ),
      400,
      'validation_error',
    );
    expectError(await api.post('/v1/periods/close', { through: '2026-01-10' }, { token: 'ledger' }), 403, 'forbidden');
    expectError(await api.post('/v1/periods/reopen', { through: '2026-01-12', reason: 'r' }), 409, 'conflict');
    expectError(await api.post('/v1/periods/reopen', { through: '2026-01-01' }), 400, 'validation_error');
    expect((await api.get('/v1/periods', { token: 'ledger' })).body.total).to.equal(1);
  });

  it('a manual entry, its preview and a reversal dated in the closed period are 422 period_closed naming the close, and nothing is stored', async () => {
    const before = await countRows(api.db, 'transactions');
    for (const reply of [
      await api.post('/v1/transactions', deposit({ source_txn_id: 'closed-1', txn_date: '2026-01-10' })),
      await api.post('/v1/transactions/preview', deposit({ txn_date: '2026-01-03' })),
      await api.post(`/v1/transactions/${buyA.txn_id}/reverse`, { txn_date: '2026-01-08' }),
    ]) {
      expectError(reply, 422, 'period_closed');
      expect(reply.body.error.details).to.deep.equal([
        { path: '/txn_date', close_id: close.body.close_id, through: '2026-01-10' },
      ]);
    }
    expect(await countRows(api.db, 'transactions')).to.equal(before);
    expect(
      (await api.post('/v1/transactions', deposit({ source_txn_id: 'open-1', txn_date: '2026-01-11' }))).status,
    ).to.equal(201);
  });

  it('a cash request confirmed on a closed day is 422 period_closed and stays pending (the database refuses, whoever closed)', async () => {
    const request = await api.post('/v1/cash-requests', {
      customer_id: 'C-1',
      direction: 'deposit',
      amount: '25.00',
      currency: 'USD',
    });
    expect(request.status, request.text).to.equal(201);
    // The API closes only days already over; the database holds whatever close is in force.
    await api.db('period_closes').insert({ action: 'close', through: todayUtc(), actor: 'test' });
    const confirm = await api.post(`/v1/cash-requests/${request.body.cash_request_id}/confirm`, {});
    expectError(confirm, 422, 'period_closed');
    expect(
      (await api.get(`/v1/cash-requests/${request.body.cash_request_id}`, { token: 'ledger' })).body.status,
    ).to.equal('pending');
    const reopened = await api.post(
      '/v1/periods/reopen',
      { through: '2026-01-10', reason: 'the test closed today' },
      { headers: { 'X-Ledger-Actor': 'Bo Li' } },
    );
    expect(reopened.status, reopened.text).to.equal(201);
    expect(reopened.body).to.include({
      action: 'reopen',
      through: '2026-01-10',
      reason: 'the test closed today',
      actor: 'api:Bo Li',
    });
    expect((await api.post(`/v1/cash-requests/${request.body.cash_request_id}/confirm`, {})).status).to.equal(200);
  });

  it('every firm and customer report as of a closed day is byte-for-byte the same after a reversal, late records, recost and re-costing history', async () => {
    const closedDay = await reports('2026-01-10');
    const custodyBefore = (await api.get('/v1/firm/accounts?as_of=2026-01-10', { token: 'ledger' })).body;

    // Reversal of a closed-period buy: dated today, naming the original's date.
    const reversal = await api.post(`/v1/transactions/${buyA.txn_id}/reverse`, {});
    expect(reversal.status, reversal.text).to.equal(201);
    expect(reversal.body.metadata).to.deep.equal({ original_txn_date: '2026-01-05' });
    // A late upstream record, twice (a re-run): posted once, on the first open day.
    const late = lateDeposit('2026-01-06', 'late-1');
    const first = await postTransactions(api.db, [late]);
    expect(first.outcomes).to.deep.equal([{ outcome: 'inserted', txnId: late.txnId }]);
    expect((await postTransactions(api.db, [lateDeposit('2026-01-06', 'late-1')])).duplicate).to.equal(1);
    const stored = (await api.get(`/v1/transactions/${late.txnId}`, { token: 'ledger' })).body;
    expect([stored.txn_date, stored.metadata]).to.deep.equal(['2026-01-11', { original_txn_date: '2026-01-06' }]);
    // Recost: buy A's broker cost goes, and the sell's cost relief moves from lot A (1000.00) to lot B
    // (1200.00): each restated on 2026-01-11, naming its trade's date.
    const result = await recost(api.db, RECOST);
    expect([result.superseded, result.derivations_posted]).to.deep.equal([2, 1]);
    const restatements = await api
      .db('transactions')
      .whereIn('txn_type', ['recost', 'reversal'])
      .where('posted_at', '>', reversal.body.posted_at)
      .whereNot('txn_id', reversal.body.txn_id)
      .select('txn_type', 'txn_date', 'metadata');
    expect(restatements.map((t) => [t.txn_type, t.txn_date, t.metadata.original_txn_date])).to.have.deep.members([
      ['reversal', '2026-01-11', '2026-01-05'],
      ['reversal', '2026-01-11', '2026-01-09'],
      ['recost', '2026-01-11', '2026-01-09'],
    ]);
    // Re-costing history: every trade pending again, recost again.
    await api.db('recost_states').update({ recosted_at: null });
    const again = await recost(api.db, RECOST);
    expect([again.superseded, again.derivations_posted]).to.deep.equal([0, 0]);

    expect(await reports('2026-01-10')).to.deep.equal(closedDay);
    // Worked figure: custody (1200) as of the closed day stays 2200.00 - 1000.00 relief = 1200.00.
    const custody = (body: { items: Array<{ account_code: string; balance: string }> }) =>
      body.items.find((a) => a.account_code === '1200')?.balance;
    expect(custody(custodyBefore)).to.equal('1200.00');
    // The open period carries the corrections: the relief is now 1200.00, and lot A is gone.
    expect(custody((await api.get('/v1/firm/accounts?as_of=2026-01-11', { token: 'ledger' })).body)).to.equal(
      '1000.00',
    );
  });

  it('an import of a record dated in a closed period posts it on the first open day, the closed day’s reports unchanged; the same batch after a later close is a duplicate', async () => {
    expect((await api.put('/v1/customers/UAE-1', { uaefeed_customer_number: '7000001' })).status).to.equal(201);
    const closedDay = await reports('2026-01-10');
    const batch = {
      cash_transfers: [
        {
          customerNumber: '7000001',
          transferId: 'TRF-LATE-1',
          cashAccountNumber: '7000001-AED',
          type: 'DEPOSIT',
          amount: '367.25',
          currency: 'AED',
          status: 'COMPLETED',
          valueDate: '2026-01-04',
        },
      ],
    };
    const first = await api.post('/v1/import/uaefeed', batch);
    expect(first.status, first.text).to.equal(200);
    expect(first.body).to.include({ inserted: 1 });
    const stored = (await api.get(`/v1/transactions/${first.body.records[0].txn_id}`, { token: 'ledger' })).body;
    expect([stored.txn_date, stored.metadata.original_txn_date]).to.deep.equal(['2026-01-11', '2026-01-04']);
    expect(await reports('2026-01-10')).to.deep.equal(closedDay);
    expect((await api.post('/v1/periods/close', { through: '2026-01-20' })).status).to.equal(201);
    const again = await api.post('/v1/import/uaefeed', batch);
    expect(again.status, again.text).to.equal(200);
    expect(again.body).to.include({ inserted: 0, duplicate: 1 });
  });
});
