import { expect } from 'chai';
import { countRows, deposit, expectError, startApi, type TestApi } from './support.js';

describe('manual entry: POST /v1/transactions and /preview', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
    for (const id of ['C-1', 'C-2', 'C-W1', 'C-W2', 'C-W3', 'C-A1', 'C-P1', 'C-P2'])
      expect((await api.put(`/v1/customers/${id}`, { name: id })).status).to.equal(201);
  });
  after(async () => {
    await api.close();
  });

  /** Runs `act` and asserts that no transaction and no journal line was stored by it. */
  async function expectNothingStored(act: () => Promise<void>): Promise<void> {
    const before = [await countRows(api.db, 'transactions'), await countRows(api.db, 'journal_lines')];
    await act();
    expect([await countRows(api.db, 'transactions'), await countRows(api.db, 'journal_lines')]).to.deep.equal(before);
  }

  describe('when the entry is new', () => {
    it('answers 201 with the stored transaction, its balanced journal lines and a Location', async () => {
      const reply = await api.post('/v1/transactions', deposit({ source_txn_id: 'dep-1', memo: 'first' }));
      expect(reply.status).to.equal(201);
      expect(reply.headers.get('location')).to.equal(`/v1/transactions/${reply.body.txn_id}`);
      expect(reply.body).to.include({
        txn_type: 'deposit',
        customer_id: 'C-1',
        source: 'manual',
        source_txn_id: 'dep-1',
      });
      expect(reply.body).to.include({
        amount_usd: '100.00',
        category: 'funding',
        memo: 'first',
        reverses_txn_id: null,
      });
      const lines = reply.body.journal_lines.map((l: Record<string, string>) => [
        l.account_code,
        l.debit,
        l.credit,
        l.posting_kind,
      ]);
      expect(lines).to.deep.equal([
        ['1100', '100.00', '0.00', 'deposit'],
        ['2010', '0.00', '100.00', 'deposit'],
      ]);
      const stored = await api.get(`/v1/transactions/${reply.body.txn_id}`, { token: 'ledger' });
      expect(stored.body).to.deep.equal(reply.body);
    });

    it('keeps the original AED amount and the rate, and posts to the AED accounts', async () => {
      const reply = await api.post(
        '/v1/transactions',
        deposit({ source_txn_id: 'aed-1', amount_usd: '100.00', original_currency: 'AED', original_amount: '367.25' }),
      );
      expect(reply.status).to.equal(201);
      expect(reply.body).to.include({ original_currency: 'AED', original_amount: '367.25', fx_rate: '3.6725' });
      expect(reply.body.journal_lines.map((l: { account_code: string }) => l.account_code)).to.deep.equal([
        '1020',
        '2020',
      ]);
    });

    it('derives a buy’s fee from CUSTOMER_FEE_BPS (22 bps by default) and marks it pending recost', async () => {
      // A manual buy takes the funds check: the wallet covers the cost and its fee.
      expect(
        (await api.post('/v1/transactions', deposit({ source_txn_id: 'buy-1-funds', amount_usd: '1002.20' }))).status,
      ).to.equal(201);
      const reply = await api.post(
        '/v1/transactions',
        deposit({
          source_txn_id: 'buy-1',
          txn_type: 'buy_security',
          symbol: 'AAPL',
          quantity: '2',
          amount_usd: '1000.00',
        }),
      );
      expect(reply.status).to.equal(201);
      expect(reply.body).to.include({ symbol: 'AAPL', quantity: '2', recosted_at: null, category: 'trading' });
      const fee = reply.body.journal_lines.filter((l: { posting_kind: string }) => l.posting_kind === 'brokerage_fee');
      expect(fee.map((l: Record<string, string>) => [l.account_code, l.debit, l.credit])).to.deep.equal([
        ['2010', '2.20', '0.00'],
        ['4010', '0.00', '2.20'],
      ]);
    });

    it('posts an adjustment with the operator’s own balanced lines, with or without a customer', async () => {
      const reply = await api.post('/v1/transactions', {
        txn_type: 'adjustment',
        source: 'manual',
        txn_date: '2026-01-20',
        amount_usd: '5.00',
        lines: [
          { account_code: '1010', debit: '5.00', credit: '0' },
          { account_code: '3000', debit: '0', credit: '5.00', posting_kind: 'opening_balance' },
        ],
      });
      expect(reply.status).to.equal(201);
      expect(reply.body.customer_id).to.equal(null);
      expect(
        reply.body.journal_lines.map((l: Record<string, string>) => [l.account_code, l.posting_kind]),
      ).to.deep.equal([
        ['1010', 'adjustment'],
        ['3000', 'opening_balance'],
      ]);
    });
  });

  describe('when an adjustment moves a customer account (2010, 2020, 2100)', () => {
    const feeRefund = (customer: Record<string, string>) => ({
      txn_type: 'adjustment',
      source: 'manual',
      txn_date: '2026-01-20',
      amount_usd: '5.00',
      ...customer,
      lines: [
        { account_code: '4010', debit: '5.00', credit: '0', posting_kind: 'fee_refund' },
        { account_code: '2010', debit: '0', credit: '5.00', posting_kind: 'fee_refund' },
      ],
    });

    it('without a customer_id answers 422 customer_required naming the account, and stores nothing', async () => {
      await expectNothingStored(async () => {
        const reply = await api.post('/v1/transactions', feeRefund({}));
        expectError(reply, 422, 'customer_required');
        expect(reply.body.error.details).to.deep.equal([{ path: '/customer_id', account_code: '2010' }]);
      });
    });

    it('with the customer_id posts Dr 4010 / Cr 2010 5.00 on that customer', async () => {
      const reply = await api.post('/v1/transactions', feeRefund({ customer_id: 'C-1' }));
      expect(reply.status).to.equal(201);
      expect(
        reply.body.journal_lines.map((l: Record<string, string>) => [l.account_code, l.debit, l.credit, l.customer_id]),
      ).to.deep.equal([
        ['4010', '5.00', '0.00', 'C-1'],
        ['2010', '0.00', '5.00', 'C-1'],
      ]);
    });
  });

  describe('when a manual withdrawal (withdrawal, wire_out) is more than the wallet holds', () => {
    /** The customer's 2010 balance (credits less debits). */
    const wallet = async (customerId: string) =>
      (
        await api.db.raw<{ rows: Array<{ b: string }> }>(
          "SELECT coalesce(sum(credit - debit), 0)::text AS b FROM journal_lines WHERE customer_id = ? AND account_code = '2010'",
          [customerId],
        )
      ).rows[0]!.b;

    it('500.00 from a wallet holding 50.00: 422 insufficient_funds, nothing stored (withdrawal and wire_out, and their preview)', async () => {
      expect(
        (await api.post('/v1/transactions', deposit({ customer_id: 'C-W1', amount_usd: '50.00' }))).status,
      ).to.equal(201);
      for (const txn_type of ['withdrawal', 'wire_out']) {
        const body = deposit({ txn_type, customer_id: 'C-W1', amount_usd: '500.00' });
        await expectNothingStored(async () => {
          const reply = await api.post('/v1/transactions', body);
          expectError(reply, 422, 'insufficient_funds');
          expect(reply.body.error.details).to.deep.equal([
            {
              customer_id: 'C-W1',
              currency: 'USD',
              balance: '50.00',
              pending_withdrawals: '0.00',
              requested: '500.00',
            },
          ]);
          expectError(await api.post('/v1/transactions/preview', body), 422, 'insufficient_funds');
        });
      }
      expect(await wallet('C-W1')).to.equal('50.00');
    });

    it('from the AED wallet checks AED: after 100 deposits of AED 10.00 (2.72 USD each) a withdrawal of AED 1,000.00 (272.29 USD) is accepted, one of AED 1,000.01 is not (issue 18, item 4); the emptied wallet’s USD residue, −0.29, is cleared to 5090 (issue 36)', async () => {
      const aed = (overrides: Record<string, unknown>) =>
        deposit({ customer_id: 'C-A1', original_currency: 'AED', fx_rate: '3.6725', ...overrides });
      for (let n = 1; n <= 100; n += 1) {
        const reply = await api.post(
          '/v1/transactions',
          aed({ source_txn_id: `aed-dep-${n}`, amount_usd: '2.72', original_amount: '10.00' }),
        );
        expect(reply.status, reply.text).to.equal(201);
      }
      const over = aed({
        txn_type: 'withdrawal',
        source_txn_id: 'aed-out-0',
        amount_usd: '272.29',
        original_amount: '1000.01',
      });
      const refused = await api.post('/v1/transactions', over);
      expectError(refused, 422, 'insufficient_funds');
      expect(refused.body.error.details).to.deep.equal([
        { customer_id: 'C-A1', currency: 'AED', balance: '1000.00', pending_withdrawals: '0.00', requested: '1000.01' },
      ]);
      const reply = await api.post(
        '/v1/transactions',
        aed({ txn_type: 'withdrawal', source_txn_id: 'aed-out-1', amount_usd: '272.29', original_amount: '1000.00' }),
      );
      expect(reply.status, reply.text).to.equal(201);
      expect(reply.body).to.include({ fx_rate: '3.6725', original_amount: '1000.00' });
      expect(
        reply.body.journal_lines.map((l: Record<string, string>) => [
          l.account_code,
          l.debit,
          l.credit,
          l.native_currency,
          l.native_amount,
        ]),
      ).to.deep.equal([
        ['2020', '272.29', '0.00', 'AED', '1000.00'],
        ['1020', '0.00', '272.29', 'AED', '1000.00'],
        // The wallet would stand at 272.00 − 272.29 = −0.29 USD at AED 0.00: credited back, 5090 takes it.
        ['2020', '0.00', '0.29', 'AED', '0.00'],
        ['5090', '0.29', '0.00', null, null],
      ]);
      expect(reply.body.journal_lines.slice(2).map((l: Record<string, string>) => l.posting_kind)).to.deep.equal([
        'fx_rounding',
        'fx_rounding',
      ]);
      // The summary shows the AED wallet empty in AED and in USD: no false overdraft.
      const summary = await api.get('/v1/customers/C-A1/summary', { token: 'ledger' });
      expect(summary.status, summary.text).to.equal(200);
      expect(summary.body.cash[1]).to.deep.equal({
        currency: 'AED',
        account_code: '2020',
        balance: '0.00',
        balance_usd: '0.00',
      });
    });

    it('counts the customer’s pending withdrawal requests: 50.00 held with 30.00 pending takes 20.00, not 20.01', async () => {
      expect(
        (await api.post('/v1/transactions', deposit({ customer_id: 'C-W2', amount_usd: '50.00' }))).status,
      ).to.equal(201);
      expect(
        (
          await api.post('/v1/cash-requests', {
            customer_id: 'C-W2',
            direction: 'withdrawal',
            amount: '30.00',
            currency: 'USD',
          })
        ).status,
      ).to.equal(201);
      expectError(
        await api.post(
          '/v1/transactions',
          deposit({ txn_type: 'withdrawal', customer_id: 'C-W2', amount_usd: '20.01' }),
        ),
        422,
        'insufficient_funds',
      );
      const reply = await api.post(
        '/v1/transactions',
        deposit({ txn_type: 'withdrawal', customer_id: 'C-W2', amount_usd: '20.00', source_txn_id: 'w2-1' }),
      );
      expect(reply.status, reply.text).to.equal(201);
      expect(
        reply.body.journal_lines.map((l: Record<string, string>) => [
          l.account_code,
          l.debit,
          l.credit,
          l.posting_kind,
        ]),
      ).to.deep.equal([
        ['2010', '20.00', '0.00', 'withdrawal'],
        ['1100', '0.00', '20.00', 'withdrawal'],
      ]);
      expect(await wallet('C-W2')).to.equal('30.00');
      // A retry of the posted withdrawal is answered, not refused for the money it spent itself.
      const again = await api.post(
        '/v1/transactions',
        deposit({ txn_type: 'withdrawal', customer_id: 'C-W2', amount_usd: '20.00', source_txn_id: 'w2-1' }),
      );
      expect(again.status).to.equal(200);
      expect(again.body.txn_id).to.equal(reply.body.txn_id);
      expectError(
        await api.post(
          '/v1/transactions',
          deposit({ txn_type: 'withdrawal', customer_id: 'C-W2', amount_usd: '19.00', source_txn_id: 'w2-1' }),
        ),
        409,
        'idempotency_conflict',
      );
    });

    it('ten concurrent withdrawals of 10.00 from 50.00: exactly five posted, the wallet at 0.00', async () => {
      expect(
        (await api.post('/v1/transactions', deposit({ customer_id: 'C-W3', amount_usd: '50.00' }))).status,
      ).to.equal(201);
      const replies = await Promise.all(
        Array.from({ length: 10 }, () =>
          api.post('/v1/transactions', deposit({ txn_type: 'withdrawal', customer_id: 'C-W3', amount_usd: '10.00' })),
        ),
      );
      expect(replies.map((r) => r.status).sort()).to.deep.equal([201, 201, 201, 201, 201, 422, 422, 422, 422, 422]);
      expect(await wallet('C-W3')).to.equal('0.00');
    });
  });

  describe('when the same source + source_txn_id comes again', () => {
    it('with the same payload (other key order, other decimal spelling) answers 200 with the existing transaction', async () => {
      const first = await api.post('/v1/transactions', deposit({ source_txn_id: 'dep-same', amount_usd: '42.50' }));
      expect(first.status).to.equal(201);
      await expectNothingStored(async () => {
        const again = await api.post('/v1/transactions', {
          amount_usd: '42.5',
          txn_date: '2026-01-15',
          source_txn_id: 'dep-same',
          source: 'manual',
          customer_id: 'C-1',
          txn_type: 'deposit',
        });
        expect(again.status).to.equal(200);
        expect(again.body).to.deep.equal(first.body);
      });
    });

    it('with a different payload answers 409 idempotency_conflict and stores nothing', async () => {
      await api.post('/v1/transactions', deposit({ source_txn_id: 'dep-diff' }));
      await expectNothingStored(async () => {
        const reply = await api.post('/v1/transactions', deposit({ source_txn_id: 'dep-diff', amount_usd: '100.01' }));
        expectError(reply, 409, 'idempotency_conflict');
      });
    });

    it('20 concurrent identical POSTs post exactly one transaction and all 20 get its txn_id', async () => {
      const body = deposit({ source_txn_id: 'dep-race', amount_usd: '7.77' });
      const replies = await Promise.all(Array.from({ length: 20 }, () => api.post('/v1/transactions', body)));
      const statuses = replies.map((r) => r.status);
      expect(
        statuses.every((s) => s === 200 || s === 201),
        statuses.join(','),
      ).to.equal(true);
      expect(statuses.filter((s) => s === 201)).to.have.length(1);
      expect(new Set(replies.map((r) => r.body.txn_id)).size).to.equal(1);
      const stored = await api
        .db('transactions')
        .where({ source: 'manual', source_txn_id: 'dep-race' })
        .pluck('txn_id');
      expect(stored).to.deep.equal([replies[0]?.body.txn_id]);
      expect(await api.db('journal_lines').where({ txn_id: stored[0] }).count({ n: '*' }).first()).to.deep.equal({
        n: '2',
      });
    });
  });

  describe('when posting would break a ledger rule (422, nothing stored)', () => {
    it('an unknown customer is 422 unknown_customer: a typo never creates a phantom customer', async () => {
      await expectNothingStored(async () => {
        expectError(await api.post('/v1/transactions', deposit({ customer_id: 'C-TYPO' })), 422, 'unknown_customer');
      });
      expect(await api.db('customers').where({ customer_id: 'C-TYPO' }).first()).to.equal(undefined);
    });

    it('an adjustment whose lines do not balance is 422 unbalanced_transaction', async () => {
      await expectNothingStored(async () => {
        const reply = await api.post('/v1/transactions', {
          txn_type: 'adjustment',
          source: 'manual',
          txn_date: '2026-01-20',
          amount_usd: '5.00',
          lines: [
            { account_code: '1010', debit: '5.00', credit: '0' },
            { account_code: '3000', debit: '0', credit: '4.99' },
          ],
        });
        expectError(reply, 422, 'unbalanced_transaction');
      });
    });

    it('an adjustment naming an account the chart does not have is 422 unknown_account', async () => {
      await expectNothingStored(async () => {
        const reply = await api.post('/v1/transactions', {
          txn_type: 'adjustment',
          source: 'manual',
          txn_date: '2026-01-20',
          amount_usd: '5.00',
          lines: [
            { account_code: '1010', debit: '5.00', credit: '0' },
            { account_code: '9999', debit: '0', credit: '5.00' },
          ],
        });
        expectError(reply, 422, 'unknown_account');
      });
    });

    it('a deposit of zero posts no lines: 422 unbalanced_transaction', async () => {
      await expectNothingStored(async () => {
        expectError(await api.post('/v1/transactions', deposit({ amount_usd: '0.00' })), 422, 'unbalanced_transaction');
      });
    });
  });

  describe('when the body breaks the contract (400, nothing stored)', () => {
    const cases: Array<[string, unknown]> = [
      ['money as a JSON number', deposit({ amount_usd: 100 })],
      ['a negative amount', deposit({ amount_usd: '-1.00' })],
      ['more than 8 decimal places', deposit({ amount_usd: '1.000000001' })],
      ['an exponent', deposit({ amount_usd: '1e3' })],
      ['a zero quantity', deposit({ txn_type: 'buy_security', symbol: 'AAPL', quantity: '0' })],
      ['an unknown field', deposit({ surprise: true })],
      ['txn_type reversal (only reversing posts one)', deposit({ txn_type: 'reversal' })],
      ['source ledger (the ledger’s own)', deposit({ source: 'ledger' })],
      ['an impossible date', deposit({ txn_date: '2026-02-30' })],
      ['year 0', deposit({ txn_date: '0000-01-01' })],
      ['a missing amount', { txn_type: 'deposit', customer_id: 'C-1', source: 'manual', txn_date: '2026-01-15' }],
      ['an unknown currency', deposit({ original_currency: 'EUR', original_amount: '1.00' })],
      ['a NUL character in the memo', deposit({ memo: 'a\u0000b' })],
      ['a NUL character in a metadata key', deposit({ metadata: { 'k\u0000': 1 } })],
      ['an unpaired surrogate in metadata', deposit({ metadata: { note: 'x\ud800y' } })],
      ['metadata nested 40 deep', deposit({ metadata: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) })],
      ['an array for a body', [deposit()]],
    ];
    for (const [name, body] of cases) {
      it(`${name} is 400 validation_error`, async () => {
        await expectNothingStored(async () => {
          const reply = await api.post('/v1/transactions', body);
          expectError(reply, 400, 'validation_error');
        });
      });
    }

    it('a deposit without customer_id is 400 validation_error naming the field', async () => {
      const reply = await api.post('/v1/transactions', deposit({ customer_id: null }));
      expectError(reply, 400, 'validation_error');
      expect(reply.body.error.details).to.deep.equal([
        { path: '/body/customer_id', message: 'is required for deposit' },
      ]);
    });

    it('lines on a type other than adjustment are 400 validation_error', async () => {
      const lines = [
        { account_code: '1010', debit: '1', credit: '0' },
        { account_code: '3000', debit: '0', credit: '1' },
      ];
      expectError(await api.post('/v1/transactions', deposit({ lines })), 400, 'validation_error');
    });

    it('validation details name each failing path', async () => {
      const reply = await api.post('/v1/transactions', deposit({ amount_usd: 100 }));
      expect(reply.body.error.details).to.deep.include({ path: '/body/amount_usd', message: 'must be string' });
    });
  });

  describe('POST /v1/transactions/preview', () => {
    it('answers 200 with the lines posting would store, and stores nothing', async () => {
      // The buy previewed takes the funds check: the wallet covers it.
      expect(
        (await api.post('/v1/transactions', deposit({ source_txn_id: 'preview-funds', amount_usd: '501.25' }))).status,
      ).to.equal(201);
      await expectNothingStored(async () => {
        const reply = await api.post(
          '/v1/transactions/preview',
          deposit({ txn_type: 'buy_security', symbol: 'MSFT', amount_usd: '500.00', fee_usd: '1.25' }),
        );
        expect(reply.status).to.equal(200);
        expect(reply.body.balanced).to.equal(true);
        expect(reply.body.journal_lines).to.deep.equal([
          {
            account_code: '1200',
            account_name: 'Custody, equities, at cost',
            debit: '500.00',
            credit: '0.00',
            posting_kind: 'security_cost',
            customer_id: 'C-1',
            native_amount: null,
          },
          {
            account_code: '1100',
            account_name: 'Omnibus cash at broker / custodian',
            debit: '0.00',
            credit: '500.00',
            posting_kind: 'security_cost',
            customer_id: 'C-1',
            native_amount: null,
          },
          {
            account_code: '2010',
            account_name: 'Customer cash wallet (USD)',
            debit: '500.00',
            credit: '0.00',
            posting_kind: 'securities_liability',
            customer_id: 'C-1',
            native_amount: null,
          },
          {
            account_code: '2100',
            account_name: 'Securities liability, equities',
            debit: '0.00',
            credit: '500.00',
            posting_kind: 'securities_liability',
            customer_id: 'C-1',
            native_amount: null,
          },
          {
            account_code: '2010',
            account_name: 'Customer cash wallet (USD)',
            debit: '1.25',
            credit: '0.00',
            posting_kind: 'brokerage_fee',
            customer_id: 'C-1',
            native_amount: null,
          },
          {
            account_code: '4010',
            account_name: 'Brokerage revenue',
            debit: '0.00',
            credit: '1.25',
            posting_kind: 'brokerage_fee',
            customer_id: 'C-1',
            native_amount: null,
          },
        ]);
      });
    });

    it('answers 422 as posting would: unknown customer, unknown account, unbalanced lines', async () => {
      await expectNothingStored(async () => {
        expectError(
          await api.post('/v1/transactions/preview', deposit({ customer_id: 'C-NONE' })),
          422,
          'unknown_customer',
        );
        const adjustment = (credit: string, account = '3000') => ({
          txn_type: 'adjustment',
          source: 'manual',
          txn_date: '2026-01-20',
          amount_usd: '5.00',
          lines: [
            { account_code: '1010', debit: '5.00', credit: '0' },
            { account_code: account, debit: '0', credit },
          ],
        });
        expectError(await api.post('/v1/transactions/preview', adjustment('5.00', '9999')), 422, 'unknown_account');
        expectError(await api.post('/v1/transactions/preview', adjustment('4.00')), 422, 'unbalanced_transaction');
      });
    });

    it('a body that breaks the contract is 400', async () => {
      expectError(await api.post('/v1/transactions/preview', deposit({ amount_usd: 5 })), 400, 'validation_error');
    });
  });

  describe('preventive controls: a manual entry may not do what a sync never does (422, nothing stored, preview alike)', () => {
    /** Posting and preview both answer 422 `code`, and nothing is stored. */
    async function refusedBoth(body: Record<string, unknown>, code: string) {
      await expectNothingStored(async () => {
        expectError(await api.post('/v1/transactions', body), 422, code);
        expectError(await api.post('/v1/transactions/preview', body), 422, code);
      });
    }
    const usd = (overrides: Record<string, unknown>) => deposit({ customer_id: 'C-P1', ...overrides });
    const walletLines = (from: string, amount: string) => [
      { account_code: from, debit: amount, credit: '0' },
      { account_code: '4010', debit: '0', credit: amount },
    ];

    it('a buy, fee, tax or adjustment debiting the USD wallet past its balance is insufficient_funds; covered, it posts', async () => {
      expect(
        (await api.post('/v1/transactions', usd({ source_txn_id: 'p1-funds', amount_usd: '10.00' }))).status,
      ).to.equal(201);
      // A buy of 9.98 costs 9.98 + 0.02 (22 bps) = 10.00; of 9.99, 10.01.
      await refusedBoth(
        usd({ txn_type: 'buy_security', symbol: 'AAPL', quantity: '1', amount_usd: '9.99' }),
        'insufficient_funds',
      );
      await refusedBoth(usd({ txn_type: 'broker_fee', amount_usd: '10.01' }), 'insufficient_funds');
      await refusedBoth(usd({ txn_type: 'wht_tax', amount_usd: '10.01' }), 'insufficient_funds');
      await refusedBoth(
        usd({ txn_type: 'adjustment', amount_usd: '10.01', lines: walletLines('2010', '10.01') }),
        'insufficient_funds',
      );
      const refused = await api.post('/v1/transactions', usd({ txn_type: 'broker_fee', amount_usd: '10.01' }));
      expect(refused.body.error.message).to.equal(
        'customer C-P1 has 10.00 USD available in wallet 2010 (USD); the broker_fee needs 10.01 USD',
      );
      // An adjustment that takes and gives back as much nets to nothing: no funds needed.
      const moved = await api.post(
        '/v1/transactions',
        usd({
          txn_type: 'adjustment',
          amount_usd: '50.00',
          lines: [
            { account_code: '2010', debit: '50.00', credit: '0' },
            { account_code: '2010', debit: '0', credit: '50.00' },
          ],
        }),
      );
      expect(moved.status, moved.text).to.equal(201);
      const buy = await api.post(
        '/v1/transactions',
        usd({ txn_type: 'buy_security', symbol: 'AAPL', quantity: '1', amount_usd: '9.98' }),
      );
      expect(buy.status, buy.text).to.equal(201);
      const wallet = await api
        .db('journal_lines')
        .where({ customer_id: 'C-P1', account_code: '2010' })
        .sum({ net: api.db.raw('credit - debit') });
      expect(String(wallet[0]?.net)).to.equal('0.00');
    });

    it('an adjustment debiting the AED wallet is checked in AED', async () => {
      const aedDeposit = deposit({
        customer_id: 'C-P2',
        source_txn_id: 'p2-funds',
        amount_usd: '27.23',
        original_currency: 'AED',
        original_amount: '100.00',
      });
      expect((await api.post('/v1/transactions', aedDeposit)).status).to.equal(201);
      const take = (aed: string, usdAmount: string) =>
        deposit({
          customer_id: 'C-P2',
          txn_type: 'adjustment',
          amount_usd: usdAmount,
          lines: [
            { account_code: '2020', debit: usdAmount, credit: '0', native_amount: aed },
            { account_code: '4010', debit: '0', credit: usdAmount },
          ],
        });
      await refusedBoth(take('100.01', '27.23'), 'insufficient_funds');
      const taken = await api.post('/v1/transactions', take('40.00', '10.89'));
      expect(taken.status, taken.text).to.equal(201);
    });

    it('an upstream’s source is its sync’s alone: source_reserved', async () => {
      for (const source of ['usbroker', 'uaefeed', 'custodian', 'remit']) {
        await refusedBoth(usd({ source, source_txn_id: 'TXN-UPSTREAM-1' }), 'source_reserved');
      }
      const reply = await api.post('/v1/transactions', usd({ source: 'remit' }));
      expect(reply.body.error.details).to.deep.equal([{ path: '/source', source: 'remit', allowed: 'manual' }]);
    });

    it('an AED line whose USD is more than 0.01 from its AED at the peg, or an fx_rate other than the peg, is aed_off_peg', async () => {
      // AED 367.25 is 100.00 USD at 3.6725: 100.01 is within the cent, 100.02 is not.
      const aedDeposit = (amount_usd: string, extra: Record<string, unknown> = {}) =>
        deposit({ customer_id: 'C-P2', amount_usd, original_currency: 'AED', original_amount: '367.25', ...extra });
      await refusedBoth(aedDeposit('100.02'), 'aed_off_peg');
      await refusedBoth(aedDeposit('100.00', { fx_rate: '3.70' }), 'aed_off_peg');
      const off = await api.post('/v1/transactions', aedDeposit('110.00'));
      expect(off.body.error.details).to.deep.equal([
        { line: 0, account_code: '1020', usd: '110.00', native_amount: '367.25', usd_at_peg: '100.00' },
        { line: 1, account_code: '2020', usd: '110.00', native_amount: '367.25', usd_at_peg: '100.00' },
      ]);
      // An adjustment's AED line alike.
      await refusedBoth(
        deposit({
          customer_id: 'C-P2',
          txn_type: 'adjustment',
          amount_usd: '50.00',
          lines: [
            { account_code: '3000', debit: '50.00', credit: '0' },
            { account_code: '2020', debit: '0', credit: '50.00', native_amount: '50.00' },
          ],
        }),
        'aed_off_peg',
      );
      expect((await api.post('/v1/transactions', aedDeposit('100.01'))).status).to.equal(201);
    });

    it('a credit to 1010 needs "credits_operating_bank": true; the flag is not part of the idempotency fingerprint', async () => {
      const payout = {
        txn_type: 'adjustment',
        source: 'manual',
        source_txn_id: 'payout-1',
        txn_date: '2026-01-31',
        amount_usd: '3.00',
        lines: [
          { account_code: '5030', debit: '3.00', credit: '0' },
          { account_code: '1010', debit: '0', credit: '3.00' },
        ],
      };
      await refusedBoth(payout, 'operating_bank_credit_unconfirmed');
      // A settlement whose fees exceed its accrual pays the excess out of 1010: it says so too.
      await refusedBoth(
        { txn_type: 'fx_spread_settle', source: 'manual', txn_date: '2026-01-31', amount_usd: '1.00', fee_usd: '1.50' },
        'operating_bank_credit_unconfirmed',
      );
      const confirmed = { ...payout, credits_operating_bank: true };
      expect((await api.post('/v1/transactions/preview', confirmed)).status).to.equal(200);
      const posted = await api.post('/v1/transactions', confirmed);
      expect(posted.status, posted.text).to.equal(201);
      const again = await api.post('/v1/transactions', { ...confirmed, credits_operating_bank: true });
      expect(again.status).to.equal(200);
      expect(again.body.txn_id).to.equal(posted.body.txn_id);
    });

    it('previews an AED withdrawal emptying the wallet with the lines clearing its residue, as posting posts them', async () => {
      // C-P2: AED 100.00 (27.23) − 40.00 (10.89) + 367.25 (100.01) = AED 427.25, USD 116.35; AED 427.25 is 116.34 at the peg.
      const empty = deposit({
        customer_id: 'C-P2',
        txn_type: 'withdrawal',
        source_txn_id: 'p2-empty',
        amount_usd: '116.34',
        original_currency: 'AED',
        original_amount: '427.25',
      });
      const lines = (body: { journal_lines: Array<Record<string, string>> }) =>
        body.journal_lines.map((l) => [l.account_code, l.debit, l.credit, l.native_amount, l.posting_kind]);
      const preview = await api.post('/v1/transactions/preview', empty);
      expect(preview.status, preview.text).to.equal(200);
      const expected = [
        ['2020', '116.34', '0.00', '427.25', 'withdrawal'],
        ['1020', '0.00', '116.34', '427.25', 'withdrawal'],
        ['2020', '0.01', '0.00', '0.00', 'fx_rounding'],
        ['5090', '0.00', '0.01', null, 'fx_rounding'],
      ];
      expect(lines(preview.body)).to.deep.equal(expected);
      const posted = await api.post('/v1/transactions', empty);
      expect(posted.status, posted.text).to.equal(201);
      expect(lines(posted.body)).to.deep.equal(expected);
      const summary = await api.get('/v1/customers/C-P2/summary', { token: 'ledger' });
      expect(summary.body.cash[1]).to.include({ balance: '0.00', balance_usd: '0.00' });
    });
  });
});
