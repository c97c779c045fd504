import { LedgerError } from '@ledger/core/posting';
import type { Db } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { expect } from 'chai';
import { JOBS, noOutcomes } from '../src/testing.js';
import { depsOf } from './usbroker-support.js';

/** A load's row counts: these, and none of the other outcomes. */
const counts = (some: Partial<ReturnType<typeof noOutcomes>>) => ({ ...noOutcomes(), ...some });

describe('load-fx-rates, load-close-prices, load-issuers and load-cost-inflation-index', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Db;
  before(async () => {
    t = await createTestDatabase({ runtimeRole: true });
    db = t.runtime!.db;
  });
  after(async () => {
    await t?.drop();
  });

  it('load-fx-rates loads the shipped SBI file by name, and again changes nothing', async () => {
    const job = JOBS['load-fx-rates']!;
    const first = await job.run(job.input.parse({ file: 'sbi-usd-inr-rates' }), depsOf(db, null));
    expect(first).to.deep.include({ source: 'sbi-usd-inr-rates', rows: counts({ inserted: 1559, skipped: 66 }) });
    expect(first.rows_not_loaded).to.have.length(66);
    const again = await job.run(job.input.parse({ file: 'sbi-usd-inr-rates' }), depsOf(db, null));
    expect(again.rows).to.deep.equal(counts({ duplicate: 1559, skipped: 66 }));
  });

  it('load-fx-rates takes no path: a file it does not ship is refused by its schema', () => {
    expect(JOBS['load-fx-rates']!.input.safeParse({ file: '/etc/passwd' }).success).to.equal(false);
    expect(JOBS['load-fx-rates']!.input.safeParse({ csv: 'DATE,TT BUY,TT SELL\n', source: 'upload' }).success).to.equal(
      true,
    );
  });

  it('load-close-prices records each day’s close, a later reading replacing it; malformed lines named', async () => {
    const job = JOBS['load-close-prices']!;
    const run = (csv: string) => job.run(job.input.parse({ csv, source: 'eod' }), depsOf(db, null));
    expect(await run('symbol,date,close\nAAPL,2024-06-14,212.49\nAAPL,2024-06-17,216.67\nbad line\n')).to.deep.equal({
      source: 'eod',
      rows: counts({ inserted: 2, rejected: 1 }),
      rows_not_loaded: [{ line: 4, key: null, outcome: 'rejected', reason: { code: 'malformed', detail: {} } }],
    });
    expect(await run('symbol,date,close\nAAPL,2024-06-14,212.49\nAAPL,2024-06-17,216.70\n')).to.deep.include({
      rows: counts({ updated: 1, duplicate: 1 }),
    });
    const { rows } = await db.raw(
      "SELECT price_date::text, close_usd::text FROM close_prices WHERE symbol = 'AAPL' ORDER BY price_date",
    );
    expect(rows).to.deep.equal([
      { price_date: '2024-06-14', close_usd: '212.49' },
      { price_date: '2024-06-17', close_usd: '216.7' },
    ]);
  });

  it('load-issuers loads the shipped file by name, again changes nothing; an operator’s file replaces what differs', async () => {
    const job = JOBS['load-issuers']!;
    const run = (body: unknown) => job.run(job.input.parse(body), depsOf(db, null));
    expect(await run({ file: 'us-issuers' })).to.deep.equal({
      source: 'us-issuers',
      rows: counts({ inserted: 7 }),
      rows_not_loaded: [],
    });
    expect(await run({ file: 'us-issuers' })).to.deep.include({ rows: counts({ duplicate: 7 }) });
    const csv = [
      'symbol,entity_name,address,zip_code,country,nature_of_entity,instrument_type',
      'AAPL,Apple Inc.,"One Apple Park Way, Cupertino, California, United States",95014,United States of America,Company (listed equity shares),share',
      'TSM,Taiwan Semiconductor Manufacturing Company Limited,"No. 8, Li-Hsin Road 6, Hsinchu Science Park, Hsinchu",300096,Taiwan,Company (American depositary shares),share',
      'JPM,JPMorgan Chase & Co.,"270 Park Avenue, New York, New York, United States",10017-2014,United States of America,Company (listed equity shares),share',
    ].join('\n');
    expect(await run({ csv, source: 'ops-2026-11' })).to.deep.include({
      rows: counts({ inserted: 1, updated: 1, duplicate: 1 }),
    });
    const { rows } = await db.raw(
      "SELECT symbol, zip_code, country, source FROM issuers WHERE symbol IN ('JPM', 'TSM') ORDER BY symbol",
    );
    expect(rows).to.deep.equal([
      { symbol: 'JPM', zip_code: '10017-2014', country: 'United States of America', source: 'ops-2026-11' },
      { symbol: 'TSM', zip_code: '300096', country: 'Taiwan', source: 'ops-2026-11' },
    ]);
    expect(job.input.safeParse({ file: '/etc/passwd' }).success).to.equal(false);
  });

  it('load-issuers refuses a file lacking a column whole: a validation error, and nothing is loaded', async () => {
    const job = JOBS['load-issuers']!;
    const csv = 'symbol,entity_name,address,country,nature_of_entity\nZZZZ,Z Inc.,Somewhere,Nowhere,Company\n';
    const error = await job.run(job.input.parse({ csv, source: 'bad' }), depsOf(db, null)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(LedgerError).and.to.include({ code: 'validation_error' });
    expect((await db.raw("SELECT count(*)::int AS n FROM issuers WHERE symbol = 'ZZZZ'")).rows).to.deep.equal([
      { n: 0 },
    ]);
  });

  it('load-cost-inflation-index loads the shipped file by name (2001-02 to 2025-26), again changes nothing; an operator’s line replaces a year, a malformed one is named', async () => {
    const job = JOBS['load-cost-inflation-index']!;
    const shipped = () => job.run(job.input.parse({ file: 'cost-inflation-index' }), depsOf(db, null));
    expect(await shipped()).to.deep.include({ rows: counts({ inserted: 25 }) });
    expect(await shipped()).to.deep.include({ rows: counts({ duplicate: 25 }) });
    const upload = await job.run(
      job.input.parse({ csv: 'fy,cii\n2025-26,377\n2026-28,400\n', source: 'upload' }),
      depsOf(db, null),
    );
    expect(upload).to.deep.equal({
      source: 'upload',
      rows: counts({ updated: 1, rejected: 1 }),
      rows_not_loaded: [{ line: 3, key: '2026-28', outcome: 'rejected', reason: { code: 'malformed', detail: {} } }],
    });
    const { rows } = await db.raw(
      "SELECT fy, cii FROM cost_inflation_index WHERE fy IN ('2001-02', '2025-26') ORDER BY fy",
    );
    expect(rows).to.deep.equal([
      { fy: '2001-02', cii: 100 },
      { fy: '2025-26', cii: 377 },
    ]);
    const refused = job.run(job.input.parse({ csv: 'year,index\n2025-26,376\n', source: 'upload' }), depsOf(db, null));
    await refused.then(
      () => expect.fail('a file without the fy,cii header is refused'),
      (error: unknown) => expect(error).to.be.instanceOf(LedgerError),
    );
  });
});
