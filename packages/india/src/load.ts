import { Decimal } from '@ledger/core/posting';
import { notReversedSql, type Db } from '@ledger/core/store';
import { parseSbiRates, type InrRate } from './rates.js';

/** What a load did: rows new to the table, rows that replaced a day's earlier sheet, rows already there, rows skipped and why. */
export interface FxRatesLoad extends Record<string, unknown> {
  source: string;
  loaded: number;
  replaced: number;
  unchanged: number;
  skipped: number;
  skipped_by_reason: Record<string, number>;
  /** Each skipped row: its line, date and reason (a stored later sheet of the day is `older_than_stored`). */
  skipped_rows: Array<{ line: number | null; date: string | null; reason: string }>;
}

const countBy = (rows: Array<{ reason: string }>) =>
  rows.reduce<Record<string, number>>((c, r) => ({ ...c, [r.reason]: (c[r.reason] ?? 0) + 1 }), {});

/**
 * Loads SBI's USD/INR archive (rates.ts parses it) into `inr_rates`. Idempotent: a row equal to
 * the stored one is `unchanged`; a later sheet of a stored day replaces it; an earlier one is
 * skipped as `older_than_stored`. One statement, guarded by the same rule, so a concurrent load
 * cannot replace a later sheet with an earlier one.
 */
export async function loadFxRates(db: Db, csv: string, source: string): Promise<FxRatesLoad> {
  const { rates, skipped } = parseSbiRates(csv);
  const { rows: stored } = await db.raw<{
    rows: Array<{ rate_date: string; tt_buy: string; mid: string; published_at: string }>;
  }>(
    `SELECT rate_date::text, tt_buy::text, mid::text, to_char(published_at, 'YYYY-MM-DD HH24:MI') AS published_at FROM inr_rates WHERE rate_date = ANY(?::date[])`,
    [rates.map((r) => r.date)],
  );
  const byDate = new Map(stored.map((s) => [s.rate_date, s]));
  const write: InrRate[] = [];
  const older: string[] = [];
  let [loaded, replaced, unchanged] = [0, 0, 0];
  for (const rate of rates) {
    const s = byDate.get(rate.date);
    if (s === undefined) loaded += 1;
    else if (s.published_at > rate.publishedAt) {
      older.push(rate.date);
      continue;
    } else if (
      s.published_at === rate.publishedAt &&
      new Decimal(s.tt_buy).isEqualTo(rate.ttBuy) &&
      new Decimal(s.mid).isEqualTo(rate.mid)
    ) {
      unchanged += 1;
      continue;
    } else replaced += 1;
    write.push(rate);
  }
  if (write.length > 0) {
    await db.raw(
      `INSERT INTO inr_rates (rate_date, tt_buy, mid, source, published_at)
       SELECT * FROM unnest(?::date[], ?::numeric[], ?::numeric[], ?::text[], ?::timestamp[])
       ON CONFLICT (rate_date) DO UPDATE SET tt_buy = excluded.tt_buy, mid = excluded.mid, source = excluded.source, published_at = excluded.published_at, loaded_at = now()
        WHERE inr_rates.published_at <= excluded.published_at`,
      [
        write.map((r) => r.date),
        write.map((r) => r.ttBuy.toFixed()),
        write.map((r) => r.mid.toFixed()),
        write.map(() => source),
        write.map((r) => r.publishedAt),
      ],
    );
  }
  const skippedRows = [
    ...skipped.map((s) => ({ line: s.line, date: s.date, reason: s.reason })),
    ...older.map((date) => ({ line: null, date, reason: 'older_than_stored' })),
  ];
  return {
    source,
    loaded,
    replaced,
    unchanged,
    skipped: skippedRows.length,
    skipped_by_reason: countBy(skippedRows),
    skipped_rows: skippedRows,
  };
}

/** A close price: symbol, day, USD. */
export interface ClosePrice {
  symbol: string;
  date: string;
  closeUsd: Decimal;
}

/**
 * Records close prices; a day already held is replaced by a later reading that differs. Answers
 * the rows inserted, the days whose close changed (updated), and those that held it already.
 */
export async function recordClosePrices(
  db: Db,
  prices: ClosePrice[],
  source: string,
): Promise<{ inserted: number; updated: number; unchanged: number }> {
  if (prices.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
  // xmax is 0 only in a row this statement inserted; a day whose close is the same is not returned.
  const { rows } = await db.raw<{ rows: Array<{ inserted: boolean }> }>(
    `INSERT INTO close_prices (symbol, price_date, close_usd, source)
     SELECT * FROM unnest(?::text[], ?::date[], ?::numeric[], ?::text[])
     ON CONFLICT (symbol, price_date) DO UPDATE SET close_usd = excluded.close_usd, source = excluded.source, recorded_at = now()
      WHERE close_prices.close_usd IS DISTINCT FROM excluded.close_usd
     RETURNING (xmax = 0) AS inserted`,
    [
      prices.map((p) => p.symbol),
      prices.map((p) => p.date),
      prices.map((p) => p.closeUsd.toFixed()),
      prices.map(() => source),
    ],
  );
  const inserted = rows.filter((r) => r.inserted).length;
  return { inserted, updated: rows.length - inserted, unchanged: prices.length - rows.length };
}

/** A symbol as the broker writes it. */
export const SYMBOL = /^[A-Z][A-Z0-9.-]{0,31}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const PRICE = /^\d+(\.\d+)?$/;

/** Close prices from CSV `symbol,date,close` (a header line first); malformed lines are skipped and named. */
export function parseClosePrices(csv: string): {
  prices: ClosePrice[];
  skipped: Array<{ line: number; reason: 'malformed' }>;
} {
  const prices: ClosePrice[] = [];
  const skipped: Array<{ line: number; reason: 'malformed' }> = [];
  csv
    .split(/\r?\n/)
    .slice(1)
    .forEach((text, i) => {
      if (text.trim() === '') return;
      const [symbol = '', date = '', close = ''] = text.split(',').map((c) => c.trim());
      if (SYMBOL.test(symbol) && DAY.test(date) && PRICE.test(close) && new Decimal(close).isGreaterThan(0))
        prices.push({ symbol, date, closeUsd: new Decimal(close) });
      else skipped.push({ line: i + 2, reason: 'malformed' });
    });
  return { prices, skipped };
}

/** Symbols some customer holds now (buys not reversed, less the matches in effect). */
export async function heldSymbols(db: Db): Promise<string[]> {
  const { rows } = await db.raw<{ rows: Array<{ symbol: string }> }>(
    `SELECT b.symbol FROM transactions b
      WHERE b.txn_type = 'buy_security' AND b.symbol IS NOT NULL AND b.quantity IS NOT NULL
        AND ${notReversedSql('b.txn_id')}
        AND b.quantity > (SELECT coalesce(sum(m.quantity), 0) FROM lot_matches m
                           WHERE m.lot_txn_id = b.txn_id AND ${notReversedSql('m.derivation_txn_id')})
      GROUP BY b.symbol ORDER BY b.symbol`,
  );
  return rows.map((r) => r.symbol);
}
