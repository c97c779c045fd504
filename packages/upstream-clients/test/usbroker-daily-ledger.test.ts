import { expect } from 'chai';
import nock from 'nock';
import {
  createUsbrokerClient,
  parseDailyLedger,
  UpstreamPayloadError,
  USBROKER_DAILY_LEDGER_COLUMNS,
  UsbrokerNotFoundError,
  type UsbrokerDailyLedgerRow,
} from '../src/testing.js';

const BASE_URL = 'http://usbroker.test';
const TOKEN = 'usbroker-access-token-do-not-leak';
const DATE = '2026-01-07';
const FIRM = 'FIRM01';
const SOURCE = { upstream: 'usbroker', method: 'GET', path: 'v1/reports/daily-ledger' };
const HEADER = USBROKER_DAILY_LEDGER_COLUMNS.join(',');

type Cells = Partial<Record<(typeof USBROKER_DAILY_LEDGER_COLUMNS)[number], string>>;

/** One CSV line, the columns in the documented order; a column not given is an empty cell. */
function line(cells: Cells): string {
  const base: Cells = { report_date: DATE, firm_id: FIRM, account_no: 'DWAB000001', currency: 'USD' };
  const all = { ...base, ...cells };
  return USBROKER_DAILY_LEDGER_COLUMNS.map((column) => all[column] ?? '').join(',');
}

/** A file as the broker sends it: CRLF line ends, the last line ended too. */
function csv(...rows: Cells[]): string {
  return [HEADER, ...rows.map(line)].map((l) => `${l}\r\n`).join('');
}

const TRD_BUY: Cells = {
  txn_no: 'T-1',
  row_code: 'TRD',
  symbol: 'AAPL',
  cusip: '037833100',
  side: 'BUY',
  quantity: '2',
  price: '190.25',
  principal: '-380.50',
  commission: '-0.50',
  sec_fee: '0',
  taf_fee: '-0.01',
  ifsca_fee: '-0.05',
  other_fee: '',
  amount: '-381.06',
  trade_date: '2026-01-07',
  settle_date: '2026-01-08',
  description: 'Bought 2 AAPL',
};
const TRD_SELL: Cells = {
  ...TRD_BUY,
  txn_no: 'T-2',
  side: 'SELL',
  quantity: '0.5',
  principal: '95.12',
  amount: '95.00',
  description: '"Sold 0.5 AAPL, partial"',
};
const WIREI: Cells = { txn_no: 'T-3', row_code: 'WIREI', amount: '1200.00', description: 'Wire in' };
const WIREO: Cells = { txn_no: 'T-4', row_code: 'WIREO', amount: '-300.00' };
const DIV: Cells = {
  txn_no: 'T-5',
  row_code: 'DIV',
  symbol: 'MSFT',
  cusip: '594918104',
  quantity: '10',
  per_share: '0.83',
  amount: '8.30',
  trade_date: '2025-11-20',
  pay_date: '2026-01-07',
};
const DIVNRA: Cells = {
  txn_no: 'T-6',
  row_code: 'DIVNRA',
  symbol: 'MSFT',
  quantity: '10',
  amount: '-2.08',
  wht_rate: '0.25',
  tax_code: 'NRA',
  ref_txn_no: 'T-5',
  pay_date: '2026-01-07',
};
const FEE: Cells = { txn_no: 'T-7', row_code: 'FEE', amount: '-1.00', description: 'Account fee' };

const SPLIT: Cells = {
  txn_no: 'T-8',
  row_code: 'SPLIT',
  symbol: 'AAPL',
  quantity: '30',
  per_share: '4',
  principal: '0.00',
  amount: '0.00',
  trade_date: DATE,
  description: 'SPLIT 4:1 AAPL',
};
const CIL: Cells = {
  txn_no: 'T-10',
  row_code: 'CIL',
  symbol: 'XYZ',
  quantity: '-0.5',
  price: '30.00',
  amount: '15.00',
  trade_date: DATE,
  ref_txn_no: 'T-9',
};

function parsed(text: string): UsbrokerDailyLedgerRow[] {
  return parseDailyLedger(text, { date: DATE, firm: FIRM }, SOURCE);
}

function payloadErrorOf(text: string): UpstreamPayloadError {
  try {
    parsed(text);
  } catch (error) {
    expect(error).to.be.instanceOf(UpstreamPayloadError);
    return error as UpstreamPayloadError;
  }
  throw new Error('expected an UpstreamPayloadError');
}

describe('usbroker daily ledger CSV', () => {
  describe('a file with every row code, CRLF line ends', () => {
    const rows = parsed(csv(TRD_BUY, TRD_SELL, WIREI, WIREO, DIV, DIVNRA, FEE));

    it('reads one typed row per line, in file order', () => {
      expect(rows.map((r) => r.row_code)).to.deep.equal(['TRD', 'TRD', 'WIREI', 'WIREO', 'DIV', 'DIVNRA', 'FEE']);
    });

    it('keeps amounts as decimal strings with their sign: debits negative', () => {
      expect(rows.map((r) => (r.row_code === 'UNKNOWN' ? null : r.amount))).to.deep.equal([
        '-381.06',
        '95.00',
        '1200.00',
        '-300.00',
        '8.30',
        '-2.08',
        '-1.00',
      ]);
    });

    it('types a TRD row: side, quantity, price, itemised fees, dates; empty cells are null', () => {
      expect(rows[0]).to.deep.equal({
        report_date: DATE,
        firm_id: FIRM,
        account_no: 'DWAB000001',
        txn_no: 'T-1',
        row_code: 'TRD',
        symbol: 'AAPL',
        cusip: '037833100',
        side: 'BUY',
        quantity: '2',
        price: '190.25',
        principal: '-380.50',
        commission: '-0.50',
        sec_fee: '0',
        taf_fee: '-0.01',
        ifsca_fee: '-0.05',
        other_fee: null,
        amount: '-381.06',
        currency: 'USD',
        trade_date: '2026-01-07',
        settle_date: '2026-01-08',
        pay_date: null,
        per_share: null,
        wht_rate: null,
        tax_code: null,
        ref_txn_no: null,
        description: 'Bought 2 AAPL',
      });
    });

    it('reads a quoted cell holding a comma', () => {
      expect(rows[1]).to.include({ side: 'SELL', quantity: '0.5', description: 'Sold 0.5 AAPL, partial' });
    });

    it('types wires and fees, with null for every cell not applicable', () => {
      expect(rows[2]).to.include({
        row_code: 'WIREI',
        amount: '1200.00',
        symbol: null,
        side: null,
        quantity: null,
        trade_date: null,
      });
      expect(rows[3]).to.include({ row_code: 'WIREO', amount: '-300.00', description: null });
      expect(rows[6]).to.include({ row_code: 'FEE', amount: '-1.00', description: 'Account fee' });
    });

    it('types DIV (ex-date in trade_date, shares in quantity) and DIVNRA (wht_rate a fraction, linked by ref_txn_no)', () => {
      expect(rows[4]).to.include({
        row_code: 'DIV',
        symbol: 'MSFT',
        quantity: '10',
        per_share: '0.83',
        trade_date: '2025-11-20',
        pay_date: '2026-01-07',
      });
      expect(rows[5]).to.include({
        row_code: 'DIVNRA',
        wht_rate: '0.25',
        ref_txn_no: 'T-5',
        tax_code: 'NRA',
        amount: '-2.08',
      });
    });
  });

  it('types SPLIT (effective date in trade_date, shares added or removed, the ratio in per_share) and CIL rows', () => {
    const [forward, reverse, cil] = parsed(
      csv(SPLIT, { ...SPLIT, txn_no: 'T-9', symbol: 'XYZ', quantity: '-22.5', per_share: '0.1' }, CIL),
    );
    expect(forward).to.include({ row_code: 'SPLIT', symbol: 'AAPL', quantity: '30', per_share: '4', amount: '0.00' });
    expect(reverse).to.include({ row_code: 'SPLIT', quantity: '-22.5', per_share: '0.1' });
    expect(cil).to.include({ row_code: 'CIL', quantity: '-0.5', price: '30.00', amount: '15.00', ref_txn_no: 'T-9' });
  });

  it('keeps a row of a code it does not know as UNKNOWN, every cell as written, and reads the rest of the day', () => {
    const rows = parsed(csv(WIREI, { ...WIREI, txn_no: 'T-20', row_code: 'MERGER', symbol: 'XYZ', quantity: '-5' }));
    expect(rows[0]).to.include({ row_code: 'WIREI' });
    expect(rows[1]).to.deep.include({
      row_code: 'UNKNOWN',
      code: 'MERGER',
      report_date: DATE,
      firm_id: FIRM,
      account_no: 'DWAB000001',
      txn_no: 'T-20',
    });
    expect((rows[1] as { cells: Record<string, string | null> }).cells).to.include({
      symbol: 'XYZ',
      quantity: '-5',
      amount: '1200.00',
    });
  });

  it('reads a day without activity, the header alone, as no rows', () => {
    expect(parsed(`${HEADER}\r\n`)).to.deep.equal([]);
    expect(parsed(HEADER)).to.deep.equal([]);
  });

  it('reads the columns by header name, whatever their order, ignoring extra ones', () => {
    const columns = [...USBROKER_DAILY_LEDGER_COLUMNS].reverse();
    const values: Cells = { ...line2cells(WIREI) };
    const text = `${[...columns, 'future_column'].join(',')}\r\n${[...columns.map((c) => values[c] ?? ''), 'x'].join(',')}\r\n`;
    expect(parsed(text)[0]).to.include({ row_code: 'WIREI', amount: '1200.00', txn_no: 'T-3' });
  });

  describe('a malformed file is an UpstreamPayloadError naming the field', () => {
    it('an empty body (not even the header)', () => {
      expect(payloadErrorOf('')).to.include({ field: '(header)' });
    });

    it('a missing column', () => {
      const columns = USBROKER_DAILY_LEDGER_COLUMNS.filter((column) => column !== 'wht_rate');
      const cells = line2cells(WIREI);
      const text = `${columns.join(',')}\r\n${columns.map((column) => cells[column] ?? '').join(',')}\r\n`;
      expect(payloadErrorOf(text).field).to.equal('(header).wht_rate');
    });

    it('a row with more cells than the header', () => {
      const error = payloadErrorOf(`${HEADER}\r\n${line(WIREI)},extra\r\n`);
      expect(error.field).to.equal('(body)');
      expect(error.problem).to.match(/CSV_RECORD_INCONSISTENT_FIELDS_LENGTH at line 2/);
    });

    it('an unclosed quote', () => {
      expect(payloadErrorOf(`${HEADER}\r\n${line({ ...WIREI, description: '"never closed' })}\r\n`).field).to.equal(
        '(body)',
      );
    });

    it('wht_rate as a percentage instead of a fraction', () => {
      const error = payloadErrorOf(csv(DIV, { ...DIVNRA, wht_rate: '25' }));
      expect(error.field).to.equal('rows[1].wht_rate');
      expect(error.problem).to.match(/fraction.*\(line 3\)$/);
    });

    it('an amount with a thousands separator', () => {
      expect(payloadErrorOf(csv({ ...WIREI, amount: '"1,200.00"' })).field).to.equal('rows[0].amount');
    });

    it('a date that is not on the calendar', () => {
      expect(payloadErrorOf(csv({ ...TRD_BUY, settle_date: '2026-02-30' })).field).to.equal('rows[0].settle_date');
    });

    it('a row without a code, or an unknown code’s row without its account', () => {
      expect(payloadErrorOf(csv({ ...WIREI, row_code: '' })).field).to.equal('rows[0].row_code');
      expect(payloadErrorOf(csv({ ...WIREI, row_code: 'MERGER', account_no: '' })).field).to.equal(
        'rows[0].account_no',
      );
    });

    it('a split or a trade removing shares the wrong way (a SPLIT of 0, a CIL adding, a TRD of −2)', () => {
      expect(payloadErrorOf(csv({ ...SPLIT, quantity: '0' })).field).to.equal('rows[0].quantity');
      expect(payloadErrorOf(csv({ ...CIL, quantity: '0.5' })).field).to.equal('rows[0].quantity');
      expect(payloadErrorOf(csv({ ...TRD_BUY, quantity: '-2' })).field).to.equal('rows[0].quantity');
      expect(payloadErrorOf(csv({ ...SPLIT, amount: '1.00' })).field).to.equal('rows[0].amount');
    });

    it('a DIVNRA row without the DIV it withholds from', () => {
      expect(payloadErrorOf(csv({ ...DIVNRA, ref_txn_no: '' })).field).to.equal('rows[0].ref_txn_no');
    });

    it('a TRD row without its side', () => {
      expect(payloadErrorOf(csv({ ...TRD_BUY, side: '' })).field).to.equal('rows[0].side');
    });

    it('a debit with a positive amount (a WIREO, a BUY)', () => {
      expect(payloadErrorOf(csv({ ...WIREO, amount: '300.00' })).field).to.equal('rows[0].amount');
      expect(payloadErrorOf(csv({ ...TRD_BUY, amount: '381.06' })).field).to.equal('rows[0].amount');
    });

    it('a row of another day or another firm', () => {
      expect(payloadErrorOf(csv({ ...WIREI, report_date: '2026-01-06' })).field).to.equal('rows[0].report_date');
      expect(payloadErrorOf(csv({ ...WIREI, firm_id: 'FIRM02' })).field).to.equal('rows[0].firm_id');
    });

    it('two rows with one txn_no', () => {
      expect(payloadErrorOf(csv(WIREI, { ...WIREO, txn_no: 'T-3' })).field).to.equal('rows[1].txn_no');
    });
  });

  describe('through the client', () => {
    before(() => nock.disableNetConnect());
    afterEach(() => {
      const pending = nock.pendingMocks();
      nock.cleanAll();
      expect(pending, 'every mocked answer was requested').to.deep.equal([]);
    });
    after(() => nock.enableNetConnect());

    function broker() {
      nock(BASE_URL).post('/oauth2/token').reply(200, { access_token: TOKEN, expires_in: 3600, token_type: 'Bearer' });
      return createUsbrokerClient({ baseUrl: BASE_URL, apiKey: 'id', apiSecret: 'secret', backoffMs: 5 });
    }

    it('asks for text/csv by date and firm and types the rows', async () => {
      const client = broker();
      nock(BASE_URL, { reqheaders: { authorization: `Bearer ${TOKEN}`, accept: 'text/csv' } })
        .get('/v1/reports/daily-ledger')
        .query({ date: DATE, firm: FIRM })
        .reply(200, csv(DIV, DIVNRA), { 'content-type': 'text/csv' });
      const rows = await client.getDailyLedger(DATE, FIRM);
      expect(rows.map((r) => r.txn_no)).to.deep.equal(['T-5', 'T-6']);
    });

    it('types an unknown firm (404) as UsbrokerNotFoundError', async () => {
      const client = broker();
      nock(BASE_URL)
        .get('/v1/reports/daily-ledger')
        .query({ date: DATE, firm: 'NOPE' })
        .reply(404, { error: 'not_found', message: 'unknown firm' });
      const error = await client.getDailyLedger(DATE, 'NOPE').then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(UsbrokerNotFoundError);
      expect(error).to.include({ resource: 'firm', id: 'NOPE', status: 404 });
      expect((error as Error).message).to.equal(
        'usbroker GET /v1/reports/daily-ledger answered 404 after 1 attempt: unknown firm NOPE',
      );
    });

    it('names the call in a payload error', async () => {
      const client = broker();
      nock(BASE_URL)
        .get('/v1/reports/daily-ledger')
        .query(true)
        .reply(200, csv({ ...WIREI, amount: 'abc' }), { 'content-type': 'text/csv' });
      const error = await client.getDailyLedger(DATE, FIRM).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(UpstreamPayloadError);
      expect(error).to.include({
        upstream: 'usbroker',
        method: 'GET',
        path: 'v1/reports/daily-ledger',
        field: 'rows[0].amount',
      });
    });
  });
});

/** The cells of a row given as `Cells`, with the base columns `line` adds. */
function line2cells(cells: Cells): Cells {
  const values = line(cells).split(',');
  return Object.fromEntries(USBROKER_DAILY_LEDGER_COLUMNS.map((column, i) => [column, values[i] ?? '']));
}
