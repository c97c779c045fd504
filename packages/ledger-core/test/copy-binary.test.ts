import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { binaryCopy } from '../src/store/columns/copy-binary.js';
import type { SqlType } from '../src/store/columns/table.js';

/** One column of `sqlType`, each record its value. */
const column = (sqlType: SqlType) => [{ sqlType, value: (v: unknown) => v }];
/** One value of `sqlType` COPYed alone. */
const encoded = (sqlType: SqlType, value: unknown) => () => binaryCopy(column(sqlType), [value]);
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

/** Decimals at every edge of base-10,000 digits, signs, zeros and display scales. */
const DECIMALS = [
  '0',
  '0.00',
  '-0.00',
  '0.01',
  '-0.01',
  '1',
  '1.50',
  '9999',
  '10000',
  '10000.0001',
  '99999999.99',
  '12345.6',
  '-12345.678901',
  '0.00000001',
  '1000000000000.00000000',
  '123456789012345678.12345678',
  '0.1234',
  '0.12345',
  '5000.50000',
];

/** Random decimals of up to 20 whole and 10 fraction digits, some negative, with leading and trailing zeros. */
function randomDecimals(n: number, seed: number): string[] {
  let state = seed;
  const next = (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % below;
  };
  const digits = (length: number) => Array.from({ length }, () => next(10)).join('');
  return Array.from({ length: n }, () => {
    const whole = digits(1 + next(20));
    const fraction = next(3) === 0 ? '' : `.${digits(1 + next(10))}`;
    return `${next(4) === 0 ? '-' : ''}${whole}${fraction}`;
  });
}

describe("COPY's binary format: each value reaches Postgres exactly as its text would", function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => {
    t = await createTestDatabase({ migrate: false, poolMax: 2 });
    db = t.db;
  });
  after(() => t?.drop());

  /** COPYs `values` of `sqlType` in binary into a one-column table; answers the stored values as Postgres spells them. */
  async function roundTrip(
    sqlType: 'numeric' | 'date' | 'uuid' | 'text' | 'jsonb',
    values: unknown[],
  ): Promise<string[]> {
    return db.transaction(async (trx) => {
      await trx.raw(`CREATE TEMP TABLE copied (position serial, value ${sqlType}) ON COMMIT DROP`);
      const connection = (await trx.client.acquireConnection()) as pg.PoolClient;
      await pipeline(
        Readable.from([binaryCopy(column(sqlType), values)]),
        connection.query(copyFrom('COPY copied (value) FROM STDIN (FORMAT binary)')),
      );
      return (
        await trx.raw<{ rows: Array<{ v: string }> }>('SELECT value::text AS v FROM copied ORDER BY position')
      ).rows.map((r) => r.v);
    });
  }

  /** What Postgres makes of each value given as text: the text COPY's answer. */
  async function asText(sqlType: string, values: string[]): Promise<string[]> {
    const { rows } = await db.raw<{ rows: Array<{ v: string }> }>(
      `SELECT v::${sqlType}::text AS v FROM unnest(?::text[]) WITH ORDINALITY AS u(v, i) ORDER BY i`,
      [values],
    );
    return rows.map((r) => r.v);
  }

  it('numeric: every edge and 2,000 random decimals, to the digit and the display scale', async () => {
    const values = [...DECIMALS, ...randomDecimals(2_000, 35)];
    expect(await roundTrip('numeric', values)).to.deep.equal(await asText('numeric', values));
    expect(await roundTrip('numeric', ['1.50', '-0.00', '10000.0001'])).to.deep.equal(['1.50', '0.00', '10000.0001']);
  });

  it('date, uuid, text and jsonb; null as null', async () => {
    const dates = ['2000-01-01', '1999-12-31', '1970-01-01', '2024-02-29', '2026-11-29', '2099-12-31'];
    expect(await roundTrip('date', dates)).to.deep.equal(dates);
    const uuids = ['0190c2d4-6c1e-7a2b-9f00-000000000000', 'FFFFFFFF-FFFF-4FFF-8FFF-FFFFFFFFFFFF'];
    expect(await roundTrip('uuid', uuids)).to.deep.equal(await asText('uuid', uuids));
    // A run of one id (a transaction's lines) is encoded once and its bytes repeated: runs of 1 to
    // 5, broken by nulls, over the writer's growth past its first MiB.
    const runs = Array.from({ length: 70_000 }, (_, i) =>
      i % 7 === 6 ? null : `0190c2d4-6c1e-7a2b-9f00-${String(Math.floor(i / (1 + (i % 5)))).padStart(12, '0')}`,
    );
    expect(await roundTrip('uuid', runs)).to.deep.equal(runs);
    const texts = ['plain', 'é', 'x\u{1f600}', 'tab\there\nnew line\r\\N back\\slash "quoted" \u00e9\u{1f600}', ''];
    expect(await roundTrip('text', texts)).to.deep.equal(texts);
    const documents = [{ lots: [{ quantity: '1.5' }], note: 'é\t\u{1f600}' }, {}];
    expect((await roundTrip('jsonb', documents)).map((j) => JSON.parse(j) as unknown)).to.deep.equal(documents);
    expect(await roundTrip('numeric', [null, '1.00', undefined])).to.deep.equal([null, '1.00', null]);
    // A line's zero side, as formatDecimal writes it, keeps its display scale.
    expect(await roundTrip('numeric', ['0.00', '12.30', '0.00', '0', '0.000'])).to.deep.equal([
      '0.00',
      '12.30',
      '0.00',
      '0',
      '0.000',
    ]);
    // Past the writer's first 64 KiB, many times: it grows without losing a byte.
    const long = ['a'.repeat(70_000), 'b\u00e9'.repeat(100_000), 'c'];
    expect(await roundTrip('text', long)).to.deep.equal(long);
  });

  it('refuses what it cannot encode exactly: a JS number, a non-decimal, an impossible date, a malformed uuid, a type never COPYed', () => {
    expect(encoded('numeric', 1.5)).to.throw(/number/);
    for (const bad of ['1e5', 'NaN', 'Infinity', '1.', '.5', '+1', ' 1', '1,000.00'])
      expect(encoded('numeric', bad), bad).to.throw(/decimal/);
    for (const bad of ['2026-02-30', '2026-13-01', '2026-1-01', '26-01-01'])
      expect(encoded('date', bad), bad).to.throw(/date/);
    for (const bad of [
      '0190c2d4-6c1e-7a2b-9f00',
      '0190c2d4-6c1e-7a2b-9f00-00000000000g',
      '0190c2d4x6c1e-7a2b-9f00-000000000000',
      '0190c2d46c1e7a2b9f00000000000000abcd',
      '0190c2d4-6c1e-7a2b-9f00-00000000000\u00e9',
    ])
      expect(encoded('uuid', bad), bad).to.throw(/uuid/);
    expect(encoded('boolean', 'true')).to.throw(/not COPYed/);
  });
});
