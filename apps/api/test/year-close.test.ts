import { Decimal } from '@ledger/core/posting';
import { recost } from '@ledger/core/store';
import { expect } from 'chai';
import { countRows, deposit, expectError, type TestApi } from './support.js';
import { postEntry, RECOST, reportsAnswered, startApiWithC1 } from './closing.js';

const ANA = { headers: { 'X-Ledger-Actor': 'ana@example.com' } };

/** The income reports of the UAE book's 2025 (a calendar year), and of C-1, as the API answers them. */
const INCOME_REPORTS = [
  '/v1/firm/earnings?from=2025-01-01&to=2025-12-31',
  '/v1/firm/earnings?from=2025-01-01&to=2026-01-31',
  '/v1/firm/earnings',
  '/v1/customers/C-1/summary?as_of=2025-12-31',
  '/v1/customers/C-1/trial_balance?as_of=2025-12-31',
  '/v1/customers/C-1/statement?from=2025-01-01&to=2025-12-31',
];

interface TrialBalance {
  accounts: Array<{ account_code: string; debit_balance: string; credit_balance: string }>;
  balanced: boolean;
}

describe('closing a financial year to retained earnings (docs/period-close.md#closing-a-financial-year)', function () {
  this.timeout(120_000);
  let api: TestApi;

  before(async () => (api = await startApiWithC1()));
  after(() => api?.close());

  const post = (fields: Record<string, unknown>) => postEntry(api, fields);

  /** An adjustment moving `amount` from `credit` to `debit`, the firm's own (no customer); a credit to 1010 says so. */
  const adjustment = (txn_date: string, debit: string, credit: string, amount: string) =>
    post({
      txn_type: 'adjustment',
      customer_id: null,
      txn_date,
      amount_usd: amount,
      credits_operating_bank: credit === '1010',
      lines: [
        { account_code: debit, debit: amount, credit: '0' },
        { account_code: credit, debit: '0', credit: amount },
      ],
    });

  const incomeReports = () => reportsAnswered(api, INCOME_REPORTS);

  /** Debit or credit balance (signed: credit negative) of some accounts in the trial balance as of a day. */
  async function balances(asOf: string, codes: string[]): Promise<Record<string, string>> {
    const reply = await api.get(`/v1/firm/trial_balance?as_of=${asOf}`, { token: 'ledger' });
    const body = reply.body as TrialBalance;
    expect(body.balanced, 'the trial balance balances').to.equal(true);
    return Object.fromEntries(
      codes.map((code) => {
        const row = body.accounts.find((a) => a.account_code === code)!;
        return [code, new Decimal(row.debit_balance).minus(row.credit_balance).toFixed(2)];
      }),
    );
  }

  const yearsList = async () => (await api.get('/v1/periods/years', { token: 'ledger' })).body;

  let closing: Record<string, unknown>;

  it('closes 2025 with one entry dated its last day: each revenue and expense balance to 3000, by whom; net income reads the same before and after, the balance sheet shows it in 3000', async () => {
    // A buy (fee 2.20 to 4010, of which recost gives the broker 0.40 in 5010), partner revenue and a cost.
    await post({ txn_date: '2025-02-01', amount_usd: '5000.00' });
    await post({
      txn_type: 'buy_security',
      symbol: 'AAPL',
      quantity: '10',
      amount_usd: '1000.00',
      txn_date: '2025-03-03',
    });
    await adjustment('2025-06-30', '1010', '4040', '300.00');
    await adjustment('2025-09-15', '5010', '1010', '50.00');
    await adjustment('2026-01-05', '1010', '4040', '10.00');
    await recost(api.db, RECOST);

    // The year must be closed as a period first, through its last day; and the day must end a year.
    const open = await api.post('/v1/periods/close-year', { through: '2025-12-31' });
    expectError(open, 409, 'conflict');
    expect(open.body.error.message).to.match(/close the period through 2025-12-31 first/);
    expect((await api.post('/v1/periods/close', { through: '2025-12-31' })).status).to.equal(201);
    const notAYearEnd = await api.post('/v1/periods/close-year', { through: '2025-03-31' });
    expectError(notAYearEnd, 400, 'validation_error');
    expect(notAYearEnd.body.error.details[0]).to.include({ path: '/through' });
    expectError(
      await api.post('/v1/periods/close-year', { through: '2025-12-31' }, { token: 'ledger' }),
      403,
      'forbidden',
    );
    expectError(await api.post('/v1/periods/close-year', {}), 400, 'validation_error');

    const before = await incomeReports();
    const earnings = (await api.get('/v1/firm/earnings?from=2025-01-01&to=2025-12-31', { token: 'ledger' })).body;
    expect(earnings).to.include({ revenue_usd: '302.20', cost_usd: '50.40', margin_usd: '251.80' });
    const feesBefore = (await api.get('/v1/firm/summary?from=2025-01-01&to=2025-12-31', { token: 'ledger' })).body
      .fees_revenue_usd;
    const transactions = await countRows(api.db, 'transactions');

    const reply = await api.post('/v1/periods/close-year', { through: '2025-12-31' }, ANA);
    expect(reply.status, reply.text).to.equal(201);
    closing = reply.body;
    expect(closing).to.include({
      action: 'close',
      fy_start: '2025-01-01',
      fy_end: '2025-12-31',
      net_income_usd: '251.80',
      reason: null,
      actor: 'api:ana@example.com',
    });
    const entry = (await api.get(`/v1/transactions/${closing.txn_id}`, { token: 'ledger' })).body;
    expect(entry).to.include({
      txn_type: 'year_close',
      txn_date: '2025-12-31',
      customer_id: null,
      posted_by: 'api:ana@example.com',
    });
    expect(entry.metadata).to.deep.equal({ fy_start: '2025-01-01', fy_end: '2025-12-31', net_income_usd: '251.80' });
    expect(
      entry.journal_lines.map((l: Record<string, string>) => [l.account_code, l.debit, l.credit, l.posting_kind]),
    ).to.have.deep.members([
      ['4010', '2.20', '0.00', 'year_close'],
      ['4040', '300.00', '0.00', 'year_close'],
      ['5010', '0.00', '50.40', 'year_close'],
      ['3000', '0.00', '251.80', 'year_close'],
    ]);

    // Again: the same close, nothing posted.
    const again = await api.post('/v1/periods/close-year', { through: '2025-12-31' });
    expect([again.status, again.body]).to.deep.equal([200, closing]);
    expect(await countRows(api.db, 'transactions')).to.equal(transactions + 1);

    // Net income: the same bytes before and after (the firm's, over the year and beyond; C-1's).
    expect(await incomeReports()).to.deep.equal(before);
    expect(
      (await api.get('/v1/firm/summary?from=2025-01-01&to=2025-12-31', { token: 'ledger' })).body.fees_revenue_usd,
    ).to.equal(feesBefore);
    // The balance sheet: the year's income is in 3000, its revenue and expense accounts are empty; 2026 starts afresh.
    expect(await balances('2025-12-31', ['3000', '4010', '4040', '5010'])).to.deep.equal({
      '3000': '-251.80',
      '4010': '0.00',
      '4040': '0.00',
      '5010': '0.00',
    });
    expect(await balances('2026-01-31', ['3000', '4040'])).to.deep.equal({ '3000': '-251.80', '4040': '-10.00' });
    expect(await yearsList()).to.deep.equal({ items: [closing], total: 1, limit: 50, offset: 0 });
    expect(api.logs.some((l) => l.includes('year closed'))).to.equal(true);
  });

  it('refuses a reversal of the closing entry by hand (409), and any other posting into the closed year still (422)', async () => {
    expectError(await api.post(`/v1/transactions/${closing.txn_id}/reverse`, {}), 409, 'conflict');
    expectError(
      await api.post('/v1/transactions', deposit({ source_txn_id: 'into-closed-year', txn_date: '2025-12-31' })),
      422,
      'period_closed',
    );
  });

  it('reopening the period before the year’s end reverses the closing entry on that day, audited; closing again carries what the year holds then', async () => {
    const before = await incomeReports();
    const reopened = await api.post(
      '/v1/periods/reopen',
      { through: '2025-11-30', reason: 'a December invoice came late' },
      { headers: { 'X-Ledger-Actor': 'Bo Li' } },
    );
    expect(reopened.status, reopened.text).to.equal(201);
    const years = await yearsList();
    expect(years.total).to.equal(2);
    expect(years.items[0]).to.include({
      action: 'reopen',
      fy_end: '2025-12-31',
      net_income_usd: '251.80',
      reason: 'a December invoice came late',
      actor: 'api:Bo Li',
    });
    const reversal = (await api.get(`/v1/transactions/${years.items[0].txn_id}`, { token: 'ledger' })).body;
    expect(reversal).to.include({
      txn_type: 'reversal',
      reverses_txn_id: closing.txn_id,
      txn_date: '2025-12-31',
      posted_by: 'api:Bo Li',
    });
    expect(await balances('2025-12-31', ['3000', '4040', '5010'])).to.deep.equal({
      '3000': '0.00',
      '4040': '-300.00',
      '5010': '50.40',
    });
    expect(await incomeReports()).to.deep.equal(before);

    await adjustment('2025-12-20', '1010', '4040', '20.00');
    expect((await api.post('/v1/periods/close', { through: '2025-12-31' })).status).to.equal(201);
    const second = await api.post('/v1/periods/close-year', { through: '2025-12-31' });
    expect(second.status, second.text).to.equal(201);
    expect(second.body).to.include({ action: 'close', net_income_usd: '271.80', actor: 'api' });
    expect(second.body.txn_id).to.not.equal(closing.txn_id);
    expect(await balances('2025-12-31', ['3000', '4040'])).to.deep.equal({ '3000': '-271.80', '4040': '0.00' });
  });
});
