import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import {
  CASH_REQUEST_ACTIONS,
  CASH_REQUEST_STATUSES,
  CASH_REQUEST_TRANSITIONS,
  Decimal,
  draftFromEntry,
  FeeSchedule,
  type CashRequestAction,
  type CashRequestStatus,
  type EntryRequest,
} from '@ledger/core/posting';
import { postEntry } from '@ledger/core/store';
import { expect } from 'chai';
import { countRows, deposit, expectError, startApi, type Reply, type TestApi } from './support.js';

const DOC = new URL('../../../docs/cash-requests.md', import.meta.url);

/** How to bring a pending request to each state. */
const REACH: Record<CashRequestStatus, CashRequestAction | null> = {
  pending: null,
  completed: 'confirm',
  failed: 'fail',
  cancelled: 'cancel',
};

describe('cash requests: /v1/cash-requests', function () {
  this.timeout(120_000);
  let api: TestApi;

  /**
   * The wallet falls by 0.01, a withholding the broker reported: posted as the usbroker sync posts
   * it, unchecked (a manual one takes the funds check, and the pending request holds the balance).
   */
  async function withheldBySync(customerId: string): Promise<void> {
    const entry: EntryRequest = {
      ...(deposit({ customer_id: customerId, txn_type: 'wht_tax', amount_usd: '0.01' }) as unknown as EntryRequest),
      source: 'usbroker',
    };
    const { created } = await postEntry(
      api.db,
      draftFromEntry(entry, randomUUID(), { feeSchedule: new FeeSchedule(new Decimal(22)) }),
    );
    expect(created).to.equal(true);
  }

  before(async () => {
    api = await startApi();
    for (const id of ['C-1', 'C-2', 'C-3', 'C-RICH', 'C-LIST'])
      expect((await api.put(`/v1/customers/${id}`, { name: id })).status).to.equal(201);
    // C-RICH: 1,000.00 in the USD wallet and 100.00 USD-equivalent in the AED wallet.
    expect(
      (await api.post('/v1/transactions', deposit({ customer_id: 'C-RICH', amount_usd: '1000.00' }))).status,
    ).to.equal(201);
    expect(
      (
        await api.post(
          '/v1/transactions',
          deposit({ customer_id: 'C-RICH', amount_usd: '100.00', original_currency: 'AED', original_amount: '367.25' }),
        )
      ).status,
    ).to.equal(201);
  });
  after(async () => {
    await api.close();
  });

  const create = (body: Record<string, unknown>) => api.post('/v1/cash-requests', body);
  const act = (id: string, action: CashRequestAction, body?: unknown) =>
    api.post(`/v1/cash-requests/${id}/${action}`, body);
  const request = (overrides: Record<string, unknown> = {}) => ({
    customer_id: 'C-1',
    direction: 'deposit',
    amount: '25.00',
    currency: 'USD',
    ...overrides,
  });

  async function pending(overrides: Record<string, unknown> = {}): Promise<Reply['body']> {
    const reply = await create(request(overrides));
    expect(reply.status, reply.text).to.equal(201);
    return reply.body;
  }

  async function rows(): Promise<number[]> {
    return [await countRows(api.db, 'transactions'), await countRows(api.db, 'journal_lines')];
  }

  /** The customer's wallet balance (credits less debits) of an account, from the journal. */
  async function wallet(customerId: string, account: string): Promise<string> {
    const { rows: found } = await api.db.raw<{ rows: Array<{ b: string }> }>(
      'SELECT coalesce(sum(credit - debit), 0)::text AS b FROM journal_lines WHERE customer_id = ? AND account_code = ?',
      [customerId, account],
    );
    return found[0]!.b;
  }

  describe('create', () => {
    it('answers 201 with the pending request and a Location; nothing is posted; GET answers the same', async () => {
      const before = await rows();
      const reply = await create(request({ reference: 'wire-1', memo: 'first' }));
      expect(reply.status, reply.text).to.equal(201);
      expect(reply.headers.get('location')).to.equal(`/v1/cash-requests/${reply.body.cash_request_id}`);
      expect(reply.body).to.include({
        customer_id: 'C-1',
        direction: 'deposit',
        amount: '25.00',
        currency: 'USD',
        amount_usd: '25.00',
        fx_rate: null,
        status: 'pending',
        reference: 'wire-1',
        memo: 'first',
        failure_reason: null,
        txn_id: null,
      });
      expect(await rows()).to.deep.equal(before);
      const got = await api.get(`/v1/cash-requests/${reply.body.cash_request_id}`, { token: 'ledger' });
      expect(got.status).to.equal(200);
      expect(got.body).to.deep.equal(reply.body);
    });

    it('converts AED at the peg (3.6725), half-up to cents, keeping the amount and the rate', async () => {
      const body = await pending({ currency: 'AED', amount: '100.00' });
      // 100 / 3.6725 = 27.2294...
      expect(body).to.include({ currency: 'AED', amount: '100.00', amount_usd: '27.23', fx_rate: '3.6725' });
    });

    it('refuses a bad body with 400 validation_error: sub-cent, zero, negative, numbers, unknown currency or direction, extra fields, missing fields', async () => {
      const before = await rows();
      const bad: Array<Record<string, unknown>> = [
        request({ amount: '25.001' }),
        request({ amount: '0.001' }),
        request({ amount: '0' }),
        request({ amount: '0.00' }),
        request({ amount: '-1.00' }),
        request({ amount: 25 }),
        request({ amount: '1e3' }),
        request({ currency: 'EUR' }),
        request({ direction: 'transfer' }),
        request({ status: 'completed' }),
        request({ txn_id: randomUUID() }),
        { direction: 'deposit', amount: '1.00', currency: 'USD' },
        { customer_id: 'C-1', amount: '1.00', currency: 'USD' },
        { customer_id: 'C-1', direction: 'deposit', currency: 'USD' },
        { customer_id: 'C-1', direction: 'deposit', amount: '1.00' },
      ];
      for (const body of bad) expectError(await create(body), 400, 'validation_error');
      expectError(
        await api.request('POST', '/v1/cash-requests', { token: 'admin', rawBody: '{not json' }),
        400,
        'invalid_json',
      );
      const list = await api.get('/v1/cash-requests?customer_id=C-1&status=completed', { token: 'ledger' });
      expect(list.body.total).to.equal(0);
      expect(await rows()).to.deep.equal(before);
    });

    it('refuses an AED amount worth less than a US cent with 400, naming the field', async () => {
      const reply = await create(request({ currency: 'AED', amount: '0.01' }));
      expectError(reply, 400, 'validation_error');
      expect(reply.body.error.details[0].path).to.equal('/body/amount');
    });

    it('refuses an unknown customer with 422 unknown_customer, storing nothing', async () => {
      const reply = await create(request({ customer_id: 'C-NOBODY' }));
      expectError(reply, 422, 'unknown_customer');
      expect((await api.get('/v1/cash-requests?customer_id=C-NOBODY', { token: 'ledger' })).body.total).to.equal(0);
    });

    it('refuses a withdrawal over the wallet balance less other pending withdrawals with 422 insufficient_funds', async () => {
      // C-2 has nothing: any withdrawal is too much.
      expectError(
        await create(request({ customer_id: 'C-2', direction: 'withdrawal', amount: '0.01' })),
        422,
        'insufficient_funds',
      );
      // Fund C-2 with 100.00 (USD wallet) by a confirmed deposit request.
      const funding = await pending({ customer_id: 'C-2', amount: '100.00' });
      expect((await act(funding.cash_request_id, 'confirm')).status).to.equal(200);
      expect(await wallet('C-2', '2010')).to.equal('100.00');
      expectError(
        await create(request({ customer_id: 'C-2', direction: 'withdrawal', amount: '100.01' })),
        422,
        'insufficient_funds',
      );
      const first = await pending({ customer_id: 'C-2', direction: 'withdrawal', amount: '60.00' });
      // 100.00 less the pending 60.00 leaves 40.00.
      const refused = await create(request({ customer_id: 'C-2', direction: 'withdrawal', amount: '40.01' }));
      expectError(refused, 422, 'insufficient_funds');
      expect(refused.body.error.details[0]).to.include({
        currency: 'USD',
        balance: '100.00',
        pending_withdrawals: '60.00',
        requested: '40.01',
      });
      await pending({ customer_id: 'C-2', direction: 'withdrawal', amount: '40.00' });
      // Cancelling the first frees its 60.00.
      expect((await act(first.cash_request_id, 'cancel')).status).to.equal(200);
      await pending({ customer_id: 'C-2', direction: 'withdrawal', amount: '60.00' });
      // An AED withdrawal is held to the AED wallet (2020), which C-2 does not have.
      expectError(
        await create(request({ customer_id: 'C-2', direction: 'withdrawal', currency: 'AED', amount: '3.67' })),
        422,
        'insufficient_funds',
      );
    });

    it('with an Idempotency-Key, a retried create answers 200 with the request it made (no second one); the key reused for another request is 409', async () => {
      const key = { headers: { 'Idempotency-Key': randomUUID() } };
      const body = request({ customer_id: 'C-3', direction: 'withdrawal', amount: '0.00' });
      const before = await countRows(api.db, 'cash_requests');
      const made = await api.post('/v1/cash-requests', { ...body, direction: 'deposit', amount: '7.50' }, key);
      expect(made.status, made.text).to.equal(201);
      const retried = await api.post('/v1/cash-requests', { ...body, direction: 'deposit', amount: '7.5' }, key);
      expect(retried.status, retried.text).to.equal(200);
      expect(retried.headers.get('location')).to.equal(null);
      expect(retried.body).to.deep.equal(made.body);
      await expectError(
        await api.post('/v1/cash-requests', { ...body, direction: 'deposit', amount: '8.00' }, key),
        409,
        'idempotency_conflict',
      );
      expect(await countRows(api.db, 'cash_requests')).to.equal(before + 1);
      await expectError(
        await api.post(
          '/v1/cash-requests',
          { ...body, direction: 'deposit', amount: '8.00' },
          { headers: { 'Idempotency-Key': 'k'.repeat(129) } },
        ),
        400,
        'validation_error',
      );
    });

    it('holds an AED withdrawal to the 2020 wallet in USD equivalent', async () => {
      // C-RICH holds 100.00 USD-equivalent in 2020: 367.25 AED is exactly that; 367.27 AED is 100.01.
      expectError(
        await create(request({ customer_id: 'C-RICH', direction: 'withdrawal', currency: 'AED', amount: '367.27' })),
        422,
        'insufficient_funds',
      );
      const ok = await pending({ customer_id: 'C-RICH', direction: 'withdrawal', currency: 'AED', amount: '367.25' });
      expect(ok.amount_usd).to.equal('100.00');
      expect((await act(ok.cash_request_id, 'cancel')).status).to.equal(200);
    });
  });

  describe('confirm posts', () => {
    it('a USD deposit: Dr 1100 / Cr 2010, in the same step that completes the request and sets txn_id', async () => {
      const made = await pending({ customer_id: 'C-3', amount: '40.00', reference: 'ref-9', memo: 'salary' });
      const reply = await act(made.cash_request_id, 'confirm');
      expect(reply.status, reply.text).to.equal(200);
      expect(reply.body.status).to.equal('completed');
      expect(reply.body.txn_id).to.be.a('string');
      const txn = await api.get(`/v1/transactions/${reply.body.txn_id}`, { token: 'ledger' });
      expect(txn.body).to.include({
        txn_type: 'deposit',
        customer_id: 'C-3',
        source: 'ledger',
        source_txn_id: `cash-request:${made.cash_request_id}`,
        amount_usd: '40.00',
        original_currency: null,
        original_amount: null,
        fx_rate: null,
        memo: 'salary',
      });
      expect(txn.body.metadata).to.deep.equal({ cash_request_id: made.cash_request_id, reference: 'ref-9' });
      expect(
        txn.body.journal_lines.map((l: Record<string, string>) => [l.account_code, l.debit, l.credit, l.posting_kind]),
      ).to.deep.equal([
        ['1100', '40.00', '0.00', 'deposit'],
        ['2010', '0.00', '40.00', 'deposit'],
      ]);
    });

    it('an AED deposit at the peg: Dr 1020 / Cr 2020 in USD, with the original amount and rate on the transaction', async () => {
      const made = await pending({ customer_id: 'C-3', currency: 'AED', amount: '100.00' });
      const reply = await act(made.cash_request_id, 'confirm');
      expect(reply.status, reply.text).to.equal(200);
      const txn = await api.get(`/v1/transactions/${reply.body.txn_id}`, { token: 'ledger' });
      expect(txn.body).to.include({
        amount_usd: '27.23',
        original_currency: 'AED',
        original_amount: '100.00',
        fx_rate: '3.6725',
      });
      expect(
        txn.body.journal_lines.map((l: Record<string, string>) => [l.account_code, l.debit, l.credit]),
      ).to.deep.equal([
        ['1020', '27.23', '0.00'],
        ['2020', '0.00', '27.23'],
      ]);
    });

    it('a withdrawal: Dr 2010 / Cr 1100, and the wallet goes down by it', async () => {
      const before = await wallet('C-RICH', '2010');
      const made = await pending({ customer_id: 'C-RICH', direction: 'withdrawal', amount: '10.00' });
      const reply = await act(made.cash_request_id, 'confirm');
      expect(reply.status, reply.text).to.equal(200);
      const txn = await api.get(`/v1/transactions/${reply.body.txn_id}`, { token: 'ledger' });
      expect(txn.body.txn_type).to.equal('withdrawal');
      expect(
        txn.body.journal_lines.map((l: Record<string, string>) => [l.account_code, l.debit, l.credit]),
      ).to.deep.equal([
        ['2010', '10.00', '0.00'],
        ['1100', '0.00', '10.00'],
      ]);
      expect(Number(await wallet('C-RICH', '2010'))).to.equal(Number(before) - 10);
    });

    it('checks a withdrawal again at confirm: 422 insufficient_funds when the wallet fell meanwhile, and nothing changes', async () => {
      const funding = await pending({ customer_id: 'C-3', amount: '100.00' });
      expect((await act(funding.cash_request_id, 'confirm')).status).to.equal(200);
      const balance = await wallet('C-3', '2010');
      const made = await pending({ customer_id: 'C-3', direction: 'withdrawal', amount: balance });
      await withheldBySync('C-3');
      const before = await rows();
      const reply = await act(made.cash_request_id, 'confirm');
      expectError(reply, 422, 'insufficient_funds');
      expect(await rows()).to.deep.equal(before);
      const still = await api.get(`/v1/cash-requests/${made.cash_request_id}`, { token: 'ledger' });
      expect(still.body).to.deep.equal(made);
      // It can still be failed.
      expect((await act(made.cash_request_id, 'fail', { reason: 'funds gone' })).body).to.include({
        status: 'failed',
        failure_reason: 'funds gone',
      });
    });
  });

  describe('transitions', () => {
    it('docs/cash-requests.md states the transition table the code applies', () => {
      const text = readFileSync(DOC, 'utf8');
      const table = new Map<string, string[]>();
      for (const line of text.split('\n')) {
        const cells = /^\| `(\w+)` \|(.*)\|$/.exec(line.trim());
        if (cells)
          table.set(
            cells[1]!,
            cells[2]!.split('|').map((c) => c.trim()),
          );
      }
      const inWords = (status: CashRequestStatus, action: CashRequestAction) => {
        const outcome = CASH_REQUEST_TRANSITIONS[status][action];
        return outcome.kind === 'to'
          ? `→ \`${outcome.status}\``
          : outcome.kind === 'same'
            ? '200, unchanged'
            : '409 `invalid_state_transition`';
      };
      expect([...table.keys()]).to.deep.equal([...CASH_REQUEST_STATUSES]);
      for (const status of CASH_REQUEST_STATUSES) {
        expect(table.get(status), status).to.deep.equal(CASH_REQUEST_ACTIONS.map((action) => inWords(status, action)));
      }
    });

    for (const status of CASH_REQUEST_STATUSES) {
      for (const action of CASH_REQUEST_ACTIONS) {
        const outcome = CASH_REQUEST_TRANSITIONS[status][action];
        const expected =
          outcome.kind === 'to'
            ? `200, ${outcome.status}`
            : outcome.kind === 'same'
              ? '200, unchanged'
              : '409 invalid_state_transition';
        it(`${action} of a ${status} request: ${expected}`, async () => {
          let current = await pending({ customer_id: 'C-RICH', direction: 'withdrawal', amount: '1.00' });
          const reach = REACH[status];
          if (reach) {
            const moved = await act(
              current.cash_request_id,
              reach,
              reach === 'fail' ? { reason: 'bank said no' } : undefined,
            );
            expect(moved.status, moved.text).to.equal(200);
            current = moved.body;
          }
          expect(current.status).to.equal(status);
          const before = await rows();
          const reply = await act(current.cash_request_id, action, action === 'fail' ? { reason: 'later reason' } : {});
          if (outcome.kind === 'refused') {
            expectError(reply, 409, 'invalid_state_transition');
            expect(await rows()).to.deep.equal(before);
            expect(
              (await api.get(`/v1/cash-requests/${current.cash_request_id}`, { token: 'ledger' })).body,
            ).to.deep.equal(current);
          } else if (outcome.kind === 'same') {
            expect(reply.status, reply.text).to.equal(200);
            expect(reply.body).to.deep.equal(current);
            expect(await rows()).to.deep.equal(before);
          } else {
            expect(reply.status, reply.text).to.equal(200);
            expect(reply.body.status).to.equal(outcome.status);
            const posted = (await rows())[0]! - before[0]!;
            expect(posted).to.equal(outcome.status === 'completed' ? 1 : 0);
            expect(reply.body.txn_id === null).to.equal(outcome.status !== 'completed');
            if (action === 'fail') expect(reply.body.failure_reason).to.equal('later reason');
            expect(Date.parse(reply.body.updated_at)).to.be.at.least(Date.parse(current.updated_at));
          }
        });
      }
    }

    it('fail without a body leaves failure_reason null; cancel and confirm take an empty body or none', async () => {
      const a = await pending();
      expect((await act(a.cash_request_id, 'fail')).body).to.include({ status: 'failed', failure_reason: null });
      const b = await pending();
      expect((await act(b.cash_request_id, 'cancel')).body.status).to.equal('cancelled');
      const c = await pending();
      expect((await act(c.cash_request_id, 'confirm', {})).body.status).to.equal('completed');
    });

    it('refuses a body that is not the action’s with 400, and an unknown or malformed id with 404 or 400', async () => {
      const a = await pending();
      expectError(await act(a.cash_request_id, 'confirm', { amount: '1.00' }), 400, 'validation_error');
      expectError(await act(a.cash_request_id, 'fail', { reason: 5 }), 400, 'validation_error');
      expectError(await act(a.cash_request_id, 'cancel', { reason: 'x' }), 400, 'validation_error');
      for (const action of CASH_REQUEST_ACTIONS) expectError(await act(randomUUID(), action), 404, 'not_found');
      expectError(await api.get(`/v1/cash-requests/${randomUUID()}`, { token: 'ledger' }), 404, 'not_found');
      expectError(await api.get('/v1/cash-requests/not-a-uuid', { token: 'ledger' }), 400, 'validation_error');
      expectError(await act('not-a-uuid', 'confirm'), 400, 'validation_error');
      expect((await api.get(`/v1/cash-requests/${a.cash_request_id}`, { token: 'ledger' })).body.status).to.equal(
        'pending',
      );
    });
  });

  describe('credentials', () => {
    it('writes need the admin token: none is 401, the ledger token 403; reads take either token', async () => {
      const a = await pending();
      expectError(await api.request('POST', '/v1/cash-requests', { body: request() }), 401, 'unauthorized');
      expectError(
        await api.request('POST', '/v1/cash-requests', { token: 'ledger', body: request() }),
        403,
        'forbidden',
      );
      for (const action of CASH_REQUEST_ACTIONS) {
        expectError(await api.request('POST', `/v1/cash-requests/${a.cash_request_id}/${action}`), 401, 'unauthorized');
        expectError(
          await api.request('POST', `/v1/cash-requests/${a.cash_request_id}/${action}`, { token: 'ledger' }),
          403,
          'forbidden',
        );
      }
      expectError(await api.get('/v1/cash-requests'), 401, 'unauthorized');
      expectError(await api.get(`/v1/cash-requests/${a.cash_request_id}`), 401, 'unauthorized');
      for (const token of ['ledger', 'admin'] as const) {
        expect((await api.get('/v1/cash-requests', { token })).status).to.equal(200);
        expect((await api.get(`/v1/cash-requests/${a.cash_request_id}`, { token })).status).to.equal(200);
      }
      expect((await api.get(`/v1/cash-requests/${a.cash_request_id}`, { token: 'ledger' })).body.status).to.equal(
        'pending',
      );
    });
  });

  describe('list', () => {
    it('filters by customer, status, direction and created date, and pages newest first', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push((await pending({ customer_id: 'C-LIST', amount: `${i + 1}.00` })).cash_request_id);
      const funded = await act(ids[0]!, 'confirm');
      expect(funded.status).to.equal(200);
      ids.push((await pending({ customer_id: 'C-LIST', direction: 'withdrawal', amount: '0.50' })).cash_request_id);
      expect((await act(ids[1]!, 'cancel')).status).to.equal(200);

      const list = (query: string) => api.get(`/v1/cash-requests?${query}`, { token: 'ledger' });
      const all = await list('customer_id=C-LIST');
      expect(all.status).to.equal(200);
      expect(all.body).to.include({ total: 6, limit: 50, offset: 0 });
      expect(all.body.items.map((r: { cash_request_id: string }) => r.cash_request_id)).to.deep.equal(
        [...ids].reverse(),
      );
      expect(
        (await list('customer_id=C-LIST&status=completed')).body.items.map(
          (r: { cash_request_id: string }) => r.cash_request_id,
        ),
      ).to.deep.equal([ids[0]]);
      expect((await list('customer_id=C-LIST&status=cancelled')).body.total).to.equal(1);
      expect((await list('customer_id=C-LIST&status=pending')).body.total).to.equal(4);
      expect(
        (await list('customer_id=C-LIST&direction=withdrawal')).body.items.map(
          (r: { cash_request_id: string }) => r.cash_request_id,
        ),
      ).to.deep.equal([ids[5]]);
      expect((await list('customer_id=C-LIST&direction=deposit&status=pending')).body.total).to.equal(3);

      const today = new Date().toISOString().slice(0, 10);
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      expect((await list(`customer_id=C-LIST&from=${today}&to=${today}`)).body.total).to.equal(6);
      expect((await list(`customer_id=C-LIST&from=${tomorrow}`)).body.total).to.equal(0);
      expect((await list(`customer_id=C-LIST&to=${yesterday}`)).body.total).to.equal(0);
      expect((await list(`customer_id=C-LIST&from=${yesterday}&to=${tomorrow}`)).body.total).to.equal(6);

      const page = await list('customer_id=C-LIST&limit=2&offset=2');
      expect(page.body).to.include({ total: 6, limit: 2, offset: 2 });
      expect(page.body.items.map((r: { cash_request_id: string }) => r.cash_request_id)).to.deep.equal([
        ids[3],
        ids[2],
      ]);
      expectError(await list('limit=501'), 400, 'validation_error');
      expectError(await list('status=done'), 400, 'validation_error');
      expectError(await list('direction=out'), 400, 'validation_error');
      expectError(await list('from=2026-13-01'), 400, 'validation_error');
      expectError(await list('unknown=1'), 400, 'validation_error');
    });
  });

  describe('races', () => {
    it('20 concurrent confirms of one request post exactly once: all 200 with the same txn_id (5 rounds)', async () => {
      for (let round = 0; round < 5; round++) {
        const direction = round % 2 === 0 ? 'deposit' : 'withdrawal';
        const made = await pending({ customer_id: 'C-RICH', direction, amount: '3.00' });
        const before = await rows();
        const replies = await Promise.all(Array.from({ length: 20 }, () => act(made.cash_request_id, 'confirm')));
        expect(
          replies.map((r) => r.status),
          replies.map((r) => r.text).join('\n'),
        ).to.deep.equal(Array(20).fill(200));
        const txnIds = new Set(replies.map((r) => r.body.txn_id));
        expect(txnIds.size).to.equal(1);
        expect([...txnIds][0]).to.be.a('string');
        expect(await rows()).to.deep.equal([before[0]! + 1, before[1]! + 2]);
        const { rows: posted } = await api.db.raw<{ rows: Array<{ n: string }> }>(
          'SELECT count(*)::text AS n FROM transactions WHERE source_txn_id = ?',
          [`cash-request:${made.cash_request_id}`],
        );
        expect(posted[0]!.n).to.equal('1');
      }
    });

    it('a confirm racing a cancel leaves exactly one outcome, and the books match the winner (8 rounds)', async () => {
      const winners = new Set<string>();
      for (let round = 0; round < 8; round++) {
        const made = await pending({
          customer_id: 'C-RICH',
          direction: round % 2 ? 'deposit' : 'withdrawal',
          amount: '2.00',
        });
        const before = await rows();
        const order: CashRequestAction[] = round % 2 ? ['confirm', 'cancel'] : ['cancel', 'confirm'];
        const replies = await Promise.all(order.map((action) => act(made.cash_request_id, action)));
        const byAction = Object.fromEntries(order.map((action, i) => [action, replies[i]!])) as Record<
          'confirm' | 'cancel',
          Reply
        >;
        const statuses = [byAction.confirm.status, byAction.cancel.status].sort();
        expect(statuses, replies.map((r) => r.text).join('\n')).to.deep.equal([200, 409]);
        const final = (await api.get(`/v1/cash-requests/${made.cash_request_id}`, { token: 'ledger' })).body;
        if (byAction.confirm.status === 200) {
          winners.add('confirm');
          expectError(byAction.cancel, 409, 'invalid_state_transition');
          expect(final.status).to.equal('completed');
          expect(final.txn_id).to.equal(byAction.confirm.body.txn_id);
          expect(await rows()).to.deep.equal([before[0]! + 1, before[1]! + 2]);
        } else {
          winners.add('cancel');
          expectError(byAction.confirm, 409, 'invalid_state_transition');
          expect(final).to.include({ status: 'cancelled', txn_id: null });
          expect(await rows()).to.deep.equal(before);
        }
      }
      expect(winners.size).to.be.at.least(1);
    });

    it('withdrawals of one customer confirmed at once never take more than the wallet holds (3 rounds)', async () => {
      for (let round = 0; round < 3; round++) {
        const customer = `C-RACE-${round}`;
        expect((await api.put(`/v1/customers/${customer}`, { name: 'race' })).status).to.equal(201);
        const funding = await pending({ customer_id: customer, amount: '100.00' });
        expect((await act(funding.cash_request_id, 'confirm')).status).to.equal(200);
        const withdrawals = [await pending({ customer_id: customer, direction: 'withdrawal', amount: '60.00' })];
        withdrawals.push(await pending({ customer_id: customer, direction: 'withdrawal', amount: '40.00' }));
        // The wallet falls by 0.01 outside cash requests (a withholding): now only one of the two fits.
        await withheldBySync(customer);
        const replies = await Promise.all(
          withdrawals.flatMap((w) => [act(w.cash_request_id, 'confirm'), act(w.cash_request_id, 'confirm')]),
        );
        for (const reply of replies) expect(reply.status, reply.text).to.be.oneOf([200, 422]);
        expect(Number(await wallet(customer, '2010'))).to.be.at.least(0);
        const completed = (
          await api.get(`/v1/cash-requests?customer_id=${customer}&direction=withdrawal&status=completed`, {
            token: 'ledger',
          })
        ).body.total;
        expect(completed).to.be.at.most(1);
      }
    });
  });
});
