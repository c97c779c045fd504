import type { Db } from '@ledger/core';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { expect } from 'chai';
import { JOBS } from '../src/index.js';
import { depsOf } from './usbroker-support.js';

describe('load-fx-rates and load-close-prices', function () {
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
    expect(first).to.deep.include({
      source: 'sbi-usd-inr-rates',
      loaded: 1559,
      replaced: 0,
      unchanged: 0,
      skipped: 66,
    });
    const again = await job.run(job.input.parse({ file: 'sbi-usd-inr-rates' }), depsOf(db, null));
    expect(again).to.deep.include({ loaded: 0, unchanged: 1559 });
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
      recorded: 2,
      skipped_rows: [{ line: 4, reason: 'malformed' }],
    });
    expect(await run('symbol,date,close\nAAPL,2024-06-14,212.49\nAAPL,2024-06-17,216.70\n')).to.deep.include({
      recorded: 1,
    });
    const { rows } = await db.raw(
      "SELECT price_date::text, close_usd::text FROM close_prices WHERE symbol = 'AAPL' ORDER BY price_date",
    );
    expect(rows).to.deep.equal([
      { price_date: '2024-06-14', close_usd: '212.49' },
      { price_date: '2024-06-17', close_usd: '216.7' },
    ]);
  });
});
