import { spawnSync } from 'node:child_process';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Decimal, draftFromEntry, FeeSchedule } from '@ledger/core/posting';
import { postTransactions } from '@ledger/core/store';
import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { buildBook } from './customer-book.js';
import { countRows, expectError, LEDGER_TOKEN, startApi, type TestApi } from './support.js';

/** `hledger` on this machine (scripts/ensure-services.sh installs it where it can), or null. */
const HLEDGER = spawnSync('hledger', ['--version'], { encoding: 'utf8' }).status === 0 ? 'hledger' : null;

/** A minimal RFC 4180 reader: quoted fields may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      row.push(field);
      field = '';
    } else if (!quoted && c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else {
      field += c;
    }
  }
  return rows;
}

describe('GET /v1/journal/export', () => {
  let api: TestApi;
  let tricky: string;
  let aedDeposit: string;
  before(async () => {
    api = await startApi();
    await buildBook(api);
    const reply = await api.post('/v1/transactions', {
      txn_type: 'deposit',
      customer_id: 'C-2',
      source: 'manual',
      source_txn_id: 'odd,"key"',
      txn_date: '2026-02-01',
      amount_usd: '7.00',
      memo: 'line one\nline two; a "quoted", part  with  spaces',
    });
    expect(reply.status, reply.text).to.equal(201);
    tricky = reply.body.txn_id;
    const aed = await api.post('/v1/transactions', {
      txn_type: 'deposit',
      customer_id: 'C-2',
      source: 'manual',
      source_txn_id: 'aed-1',
      txn_date: '2026-02-02',
      amount_usd: '100.00',
      original_currency: 'AED',
      original_amount: '367.25',
      fx_rate: '3.6725',
    });
    expect(aed.status, aed.text).to.equal(201);
    aedDeposit = aed.body.txn_id;
  });
  after(async () => {
    await api.close();
  });

  const exported = (query = '') => api.get(`/v1/journal/export${query}`, { token: 'ledger' });

  it('ledger format: one dated, described entry per transaction, a posting per line with the account’s code and name, USD amounts', async () => {
    const reply = await exported('?format=ledger&from=2026-01-10&to=2026-01-10');
    expect(reply.status).to.equal(200);
    expect(reply.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    expect(reply.headers.get('content-disposition')).to.equal('attachment; filename=journal.ledger');
    const [txn] = (await api.db('transactions').where({ txn_date: '2026-01-10' }).select('txn_id')) as Array<{
      txn_id: string;
    }>;
    expect(reply.text).to.equal(
      [
        '; The book’s journal, exported by the ledger service. Amounts in USD: debits positive, credits negative.',
        '',
        `2026-01-10 (${txn!.txn_id}) deposit C-1`,
        `    ; source: manual, source_txn_id: ${txn!.txn_id}`,
        '    1100 Omnibus cash at broker / custodian  1000.00 USD',
        '    2010 Customer cash wallet (USD)  -1000.00 USD',
        '',
      ].join('\n'),
    );
  });

  it('ledger format: an AED line keeps USD as its amount and shows its AED amount as a posting comment, signed as the amount', async () => {
    const reply = await exported('?format=ledger&from=2026-02-02&to=2026-02-02');
    expect(reply.text).to.include(
      [
        `2026-02-02 (${aedDeposit}) deposit C-2`,
        '    ; source: manual, source_txn_id: aed-1',
        '    1020 Operating bank (AED, USD equivalent)  100.00 USD  ; native: 367.25 AED',
        '    2020 Customer cash wallet (AED, USD equivalent)  -100.00 USD  ; native: -367.25 AED',
        '',
      ].join('\n'),
    );
  });

  it('a reversal names what it reverses; free text is kept to one line without comment marks', async () => {
    const text = (await exported()).text;
    expect(text).to.match(
      /\n2026-01-14 \([0-9a-f-]{36}\) reversal C-1\n {4}; source: ledger, source_txn_id: reversal:[0-9a-f-]{36}, reverses: [0-9a-f-]{36}\n/,
    );
    expect(text).to.include(
      `2026-02-01 (${tricky}) deposit C-2 | line one line two, a "quoted", part with spaces\n    ; source: manual, source_txn_id: odd "key"\n`,
    );
  });

  // Pending, saying why, where hledger is not installed (scripts/ensure-services.sh installs it from Debian's packages where it can).
  const withHledger =
    HLEDGER === null
      ? (title: string, test: () => Promise<void>) => it.skip(`${title} (pending: hledger is not installed)`, test)
      : it;

  withHledger('hledger balance over the export gives every account’s debit − credit of /v1/firm/accounts', async () => {
    const journal = (await exported()).text;
    const run = spawnSync(HLEDGER!, ['-f', '-', 'balance', '--flat', '--no-total', '-O', 'csv'], {
      input: journal,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).to.equal(0);
    const byAccount = new Map(
      parseCsv(run.stdout.replace(/\r?\n/g, '\r\n'))
        .slice(1)
        .map(([account, amount]) => [account!, new Decimal(amount!.replace(/ USD$/, '')).toFixed(2)]),
    );
    const accounts = (await api.get('/v1/firm/accounts', { token: 'ledger' })).body.items as Array<{
      account_code: string;
      name: string;
      net: string;
    }>;
    const expected = new Map(
      accounts
        .filter((a) => !new Decimal(a.net).isZero())
        .map((a) => [`${a.account_code} ${a.name}`, new Decimal(a.net).toFixed(2)]),
    );
    expect(expected.size).to.be.above(5);
    expect(Object.fromEntries(byAccount)).to.deep.equal(Object.fromEntries(expected));
  });

  it('csv format: a header, then one row per journal line with its transaction’s facts, quoted where needed', async () => {
    const reply = await exported('?format=csv');
    expect(reply.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    const [header, ...rows] = parseCsv(reply.text);
    expect(header).to.deep.equal([
      'txn_id',
      'txn_date',
      'txn_type',
      'source',
      'source_txn_id',
      'customer_id',
      'symbol',
      'memo',
      'reverses_txn_id',
      'line_id',
      'account_code',
      'account_name',
      'debit',
      'credit',
      'native_currency',
      'native_amount',
    ]);
    expect(rows).to.have.length(await countRows(api.db, 'journal_lines'));
    const odd = rows.filter((r) => r[0] === tricky);
    expect(odd.map((r) => [r[4], r[7], r[10], r[12], r[13]])).to.deep.equal([
      ['odd,"key"', 'line one\nline two; a "quoted", part  with  spaces', '1100', '7.00', '0.00'],
      ['odd,"key"', 'line one\nline two; a "quoted", part  with  spaces', '2010', '0.00', '7.00'],
    ]);
    // An AED line carries its AED amount (positive, on the line's side); a USD line none.
    expect(rows.filter((r) => r[0] === aedDeposit).map((r) => [r[10], r[12], r[13], r[14], r[15]])).to.deep.equal([
      ['1020', '100.00', '0.00', 'AED', '367.25'],
      ['2020', '0.00', '100.00', 'AED', '367.25'],
    ]);
    expect(odd.map((r) => [r[14], r[15]])).to.deep.equal([
      ['', ''],
      ['', ''],
    ]);
    // Debits equal credits over the whole export.
    const debit = rows.reduce((sum, r) => sum.plus(r[12]!), new Decimal(0));
    const credit = rows.reduce((sum, r) => sum.plus(r[13]!), new Decimal(0));
    expect(debit.toFixed(2)).to.equal(credit.toFixed(2));
  });

  it('from and to bound txn_date, inclusive', async () => {
    const rows = parseCsv((await exported('?format=csv&from=2026-01-12&to=2026-01-13')).text).slice(1);
    expect([...new Set(rows.map((r) => r[1]))].sort()).to.deep.equal(['2026-01-12', '2026-01-13']);
  });

  it('an unknown format is 400', async () => {
    expectError(await exported('?format=xlsx'), 400, 'validation_error');
  });

  it('a client that leaves midway frees the database connection the cursor held', async () => {
    // Enough lines that the export cannot sit whole in the socket's buffers.
    const drafts = Array.from({ length: 20_000 }, (_, i) =>
      draftFromEntry(
        {
          txn_type: 'deposit',
          customer_id: 'C-1',
          source: 'manual',
          source_txn_id: `bulk-${i}`,
          txn_date: '2026-03-01',
          amount_usd: '1.00',
        },
        uuidv7(),
        {
          feeSchedule: new FeeSchedule(new Decimal(22)),
        },
      ),
    );
    await postTransactions(api.db, drafts);
    const pool = (api.db.client as { pool: { numUsed(): number } }).pool;
    const abort = new AbortController();
    const response = await fetch(`${api.url}/v1/journal/export?format=csv`, {
      headers: { 'X-Ledger-Token': LEDGER_TOKEN },
      signal: abort.signal,
    });
    const reader = response.body!.getReader();
    expect((await reader.read()).done).to.equal(false);
    expect(pool.numUsed()).to.equal(1);
    abort.abort();
    // The server learns of the close asynchronously: give it turns of the event loop, not time.
    for (let turn = 0; turn < 10_000 && pool.numUsed() > 0; turn += 1) await nextTurn();
    expect(pool.numUsed()).to.equal(0);
    // And the api still serves.
    expect((await exported('?from=2026-01-10&to=2026-01-10')).status).to.equal(200);
  });
});
