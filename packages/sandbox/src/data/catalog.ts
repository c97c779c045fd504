import { fromDayNumber, toDayNumber } from './dates.js';
import { hash32 } from './random.js';

/** The securities the sandbox trades. Symbols are real tickers; ISINs are made up (valid check digit). */

export type Currency = 'AED' | 'USD';
export const CURRENCIES: readonly Currency[] = ['AED', 'USD'];

export interface Security {
  symbol: string;
  exchange: string;
  currency: Currency;
  /** uaefeed's security type: common stock or fund. */
  securityType: 'CS' | 'FND';
  isin: string;
  /** Reference price in minor units; the day's price moves within ±10 % of it. */
  basePriceMinor: bigint;
}

/** The ISIN check digit (Luhn over the letters-as-numbers expansion). */
export function isinCheckDigit(body: string): string {
  const digits = [...body].map((ch) => (/\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55))).join('');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) d *= 2;
    sum += d > 9 ? d - 9 : d;
  }
  return String((10 - (sum % 10)) % 10);
}

function security(
  symbol: string,
  exchange: string,
  currency: Currency,
  securityType: 'CS' | 'FND',
  n: number,
  price: string,
): Security {
  const body = `${currency === 'AED' ? 'AE' : 'US'}SBX${String(n).padStart(6, '0')}`;
  const [whole = '0', fraction = '00'] = price.split('.');
  return {
    symbol,
    exchange,
    currency,
    securityType,
    isin: body + isinCheckDigit(body),
    basePriceMinor: BigInt(whole) * 100n + BigInt(fraction),
  };
}

export const SECURITIES: readonly Security[] = [
  security('EMAAR', 'DFM', 'AED', 'CS', 1, '9.50'),
  security('EMIRATESNBD', 'DFM', 'AED', 'CS', 2, '18.40'),
  security('DEWA', 'DFM', 'AED', 'CS', 3, '2.60'),
  security('FAB', 'ADX', 'AED', 'CS', 4, '14.20'),
  security('ALDAR', 'ADX', 'AED', 'CS', 5, '6.10'),
  security('ADNOCDIST', 'ADX', 'AED', 'CS', 6, '3.70'),
  security('AAPL', 'NASDAQ', 'USD', 'CS', 7, '190.00'),
  security('MSFT', 'NASDAQ', 'USD', 'CS', 8, '410.00'),
  security('NVDA', 'NASDAQ', 'USD', 'CS', 9, '120.00'),
  security('JPM', 'NYSE', 'USD', 'CS', 10, '195.00'),
  security('SPY', 'NYSE', 'USD', 'FND', 11, '520.00'),
];

const BY_SYMBOL = new Map(SECURITIES.map((s) => [s.symbol, s]));

export function securityOf(symbol: string): Security {
  const found = BY_SYMBOL.get(symbol);
  if (found === undefined) throw new Error(`unknown symbol ${symbol}`);
  return found;
}

export function securitiesIn(currency: Currency): Security[] {
  return SECURITIES.filter((s) => s.currency === currency);
}

/** The day's price in minor units: a pure function of seed, symbol and date (±10 % of the base). */
export function priceOn(seed: number, symbol: string, date: string): bigint {
  const base = securityOf(symbol).basePriceMinor;
  const permille = 900n + BigInt(hash32(`${seed}:${symbol}:${date}`) % 201);
  const price = (base * permille + 500n) / 1000n;
  return price < 1n ? 1n : price;
}

/**
 * The corporate actions of the India book's broker (usbroker): a split of `symbol` giving
 * `newShares` for every `oldShares` held, effective (ex date) on the first weekday on or after
 * `atPermille` thousandths of the way through the data period, so every period has both. One
 * forward split and one reverse split; a reverse split pays cash in lieu of the fraction of a
 * share it leaves. The UAE feeds have no corporate-action format: their prices stay unadjusted.
 */
export interface Split {
  symbol: string;
  newShares: bigint;
  oldShares: bigint;
  atPermille: bigint;
}
export const SPLITS: readonly Split[] = [
  { symbol: 'NVDA', newShares: 4n, oldShares: 1n, atPermille: 400n },
  { symbol: 'JPM', newShares: 1n, oldShares: 10n, atPermille: 700n },
];

export interface DataPeriod {
  from: string;
  to: string;
}

/** A split's effective date in a period: a weekday (the first one from its point in the period on). */
export function splitEffectiveOn(split: Split, period: DataPeriod): string {
  const from = toDayNumber(period.from);
  let day = from + Number((BigInt(toDayNumber(period.to) - from) * split.atPermille) / 1000n);
  // Day 0 (1970-01-01) was a Thursday: (day + 4) % 7 is 0 on Sundays, 6 on Saturdays.
  while ((day + 4) % 7 === 0 || (day + 4) % 7 === 6) day += 1;
  return fromDayNumber(day);
}

/**
 * The India book's US price of a day in cents: the day's price (priceOn) in post-split terms from
 * each split's effective date on (× old / new shares, half up). Quotes, positions, fills and the
 * end-of-day file all read it.
 */
export function usPriceOn(seed: number, period: DataPeriod, symbol: string, date: string): bigint {
  let price = priceOn(seed, symbol, date);
  for (const split of SPLITS)
    if (split.symbol === symbol && splitEffectiveOn(split, period) <= date)
      price = (price * split.oldShares * 2n + split.newShares) / (split.newShares * 2n);
  return price < 1n ? 1n : price;
}

/** Fees bundled into an order's net settlement, in basis points of the gross. */
export const FEE_BPS: Readonly<Record<Currency, bigint>> = { AED: 15n, USD: 10n };
