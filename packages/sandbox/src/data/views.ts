import { CURRENCIES, priceOn, securityOf, type Currency } from './catalog.js';
import { firstDayOf, lastDayOf, monthOf, slashDate } from './dates.js';
import { isPlantedMismatch, type SandboxDataConfig } from './config.js';
import { type CustomerData, type SandboxMovement, type SandboxOrder, type SandboxTransfer } from './generate.js';
import { divideToDecimal, formatMinor } from './money.js';

/**
 * What each upstream answers, derived from a customer's records: every statement, summary and
 * snapshot agrees with the transfers and orders by construction (opening + movements = closing;
 * holdings = bought − sold). Amounts are decimal strings; uaefeed's server writes its amounts
 * as JSON numbers from them.
 */

const ZERO = '0.00';

function inRange(date: string, from: string | undefined, to: string | undefined): boolean {
  return (from === undefined || date >= from) && (to === undefined || date <= to);
}

export function transfersBetween(data: CustomerData, from?: string, to?: string): SandboxTransfer[] {
  return data.transfers.filter((t) => inRange(t.valueDate, from, to));
}

export function ordersBetween(data: CustomerData, from?: string, to?: string): SandboxOrder[] {
  return data.orders.filter((o) => inRange(o.tradeDate, from, to));
}

function cashBalance(
  movements: readonly SandboxMovement[],
  currency: Currency,
  before: (m: SandboxMovement) => boolean,
): bigint {
  let balance = 0n;
  for (const m of movements) if (m.currency === currency && before(m)) balance += m.cashMinor;
  return balance;
}

function describe(m: SandboxMovement): string {
  switch (m.kind) {
    case 'DEPOSIT':
      return `Deposit ${m.ref}`;
    case 'WITHDRAW':
      return `Withdrawal ${m.ref}`;
    default:
      return `${m.kind === 'BUY' ? 'Buy' : 'Sell'} ${m.qty! < 0n ? -m.qty! : m.qty} ${m.symbol} @ ${formatMinor(m.priceMinor!)} ${m.ref}`;
  }
}

// ---------------------------------------------------------------- uaefeed

export interface UaefeedCashSummaryView {
  accountNumber: string;
  currency: Currency;
  balance: string;
  blockedAmount: string;
  buyingPower: string;
  cashForWithdrawal: string;
  lastUpdatedDate: string;
  unsettledSales: string;
}

/** `GET /v1.2/cash/summary`: each cash account's balance after every record (nothing blocked or unsettled). */
export function uaefeedCashSummary(data: CustomerData, asOf: string): UaefeedCashSummaryView[] {
  return CURRENCIES.map((currency) => {
    const balance = formatMinor(cashBalance(data.movements, currency, () => true));
    return {
      accountNumber: `${data.customer.uaefeed_customer_number}-${currency}`,
      currency,
      balance,
      blockedAmount: ZERO,
      buyingPower: balance,
      cashForWithdrawal: balance,
      lastUpdatedDate: asOf,
      unsettledSales: ZERO,
    };
  });
}

export interface UaefeedCashStatementView {
  customerNumber: string;
  month: number;
  year: number;
  list: {
    cashAccountNumber: string;
    currency: Currency;
    tradeOpeningBalance: string;
    settledOpeningBalance: string;
    deposit: string;
    withdraw: string;
    buy: string;
    sell: string;
    other: string;
    tradeClosingBalance: string;
    settledClosingBalance: string;
    list: {
      transactionDate: string;
      valueDate: string;
      description: string;
      debit: string;
      credit: string;
      tradeBalance: string;
      settledBalance: string;
    }[];
  }[];
}

/**
 * `GET /v1.2/statement/cash`: per cash account (AED, USD), opening + deposit − withdraw − buy +
 * sell + other = closing; one line per movement with the running balance. Everything settles
 * the day it trades, so trade and settled balances are equal. Dates `YYYY/MM/DD`.
 */
export function uaefeedCashStatement(data: CustomerData, year: number, month: number): UaefeedCashStatementView {
  const first = firstDayOf(monthOf(year, month));
  const last = lastDayOf(monthOf(year, month));
  return {
    customerNumber: data.customer.uaefeed_customer_number,
    month,
    year,
    list: CURRENCIES.map((currency) => {
      const opening = cashBalance(data.movements, currency, (m) => m.date < first);
      const totals = { DEPOSIT: 0n, WITHDRAW: 0n, BUY: 0n, SELL: 0n };
      let balance = opening;
      const lines = data.movements
        .filter((m) => m.currency === currency && inRange(m.date, first, last))
        .map((m) => {
          totals[m.kind] += m.cashMinor < 0n ? -m.cashMinor : m.cashMinor;
          balance += m.cashMinor;
          const date = slashDate(m.date);
          return {
            transactionDate: date,
            valueDate: date,
            description: describe(m),
            debit: m.cashMinor < 0n ? formatMinor(-m.cashMinor) : ZERO,
            credit: m.cashMinor > 0n ? formatMinor(m.cashMinor) : ZERO,
            tradeBalance: formatMinor(balance),
            settledBalance: formatMinor(balance),
          };
        });
      return {
        cashAccountNumber: `${data.customer.uaefeed_customer_number}-${currency}`,
        currency,
        tradeOpeningBalance: formatMinor(opening),
        settledOpeningBalance: formatMinor(opening),
        deposit: formatMinor(totals.DEPOSIT),
        withdraw: formatMinor(totals.WITHDRAW),
        buy: formatMinor(totals.BUY),
        sell: formatMinor(totals.SELL),
        other: ZERO,
        tradeClosingBalance: formatMinor(balance),
        settledClosingBalance: formatMinor(balance),
        list: lines,
      };
    }),
  };
}

export interface UaefeedHoldingsStatementView {
  list: {
    accountNumber: string;
    securityType: 'CS' | 'FND';
    list: {
      exchange: string;
      list: {
        symbol: string;
        totalHolding: string;
        totalAmount: string;
        list: { transactionDate: string; narration: string; quantity: string; amount: string }[];
      }[];
    }[];
  }[];
}

/** Quantity held per symbol after the movements that pass `until`. */
function heldQuantities(
  movements: readonly SandboxMovement[],
  until: (m: SandboxMovement) => boolean,
): Map<string, bigint> {
  const held = new Map<string, bigint>();
  for (const m of movements) {
    if (m.symbol !== null && m.qty !== null && until(m)) held.set(m.symbol, (held.get(m.symbol) ?? 0n) + m.qty);
  }
  return held;
}

/**
 * `GET /v1.2/statement/positions`: at the month's end, every symbol held or moved in the month:
 * `totalHolding` = bought − sold to date, `totalAmount` = that × the month-end price; the
 * month's movements signed (BUY > 0, SELL < 0) with their net settlement. Grouped by security
 * type, then exchange; symbols in alphabetical order.
 */
export function uaefeedHoldingsStatement(
  config: SandboxDataConfig,
  data: CustomerData,
  year: number,
  month: number,
): UaefeedHoldingsStatementView {
  const first = firstDayOf(monthOf(year, month));
  const last = lastDayOf(monthOf(year, month));
  const held = heldQuantities(data.movements, (m) => m.date <= last);
  const moved = data.movements.filter((m) => m.symbol !== null && inRange(m.date, first, last));
  const symbols = [
    ...new Set([...[...held].filter(([, qty]) => qty > 0n).map(([s]) => s), ...moved.map((m) => m.symbol!)]),
  ].sort();
  const list: UaefeedHoldingsStatementView['list'] = [];
  for (const securityType of ['CS', 'FND'] as const) {
    const ofType = symbols.filter((s) => securityOf(s).securityType === securityType);
    if (ofType.length === 0) continue;
    const exchanges = [...new Set(ofType.map((s) => securityOf(s).exchange))].sort();
    list.push({
      accountNumber: data.customer.uaefeed_account_number,
      securityType,
      list: exchanges.map((exchange) => ({
        exchange,
        list: ofType
          .filter((s) => securityOf(s).exchange === exchange)
          .map((symbol) => {
            const qty = held.get(symbol) ?? 0n;
            return {
              symbol,
              totalHolding: qty.toString(),
              totalAmount: formatMinor(qty * priceOn(config.seed, symbol, last)),
              list: moved
                .filter((m) => m.symbol === symbol)
                .map((m) => ({
                  transactionDate: slashDate(m.date),
                  narration: `${m.kind} ${m.ref}`,
                  quantity: m.qty!.toString(),
                  amount: formatMinor(-m.cashMinor),
                })),
            };
          }),
      })),
    });
  }
  return { list };
}

// ---------------------------------------------------------------- custodian (AED only)

export interface CustodianAccountView {
  account: string;
  name: string;
  currency: 'AED';
  status: 'active';
  opened_on: string;
}

export function custodianAccount(data: Pick<CustomerData, 'customer'>, openedOn: string): CustodianAccountView {
  return {
    account: data.customer.custodian_account,
    name: data.customer.name,
    currency: 'AED',
    status: 'active',
    opened_on: openedOn,
  };
}

export interface CustodianTransactionView {
  id: string;
  type: 'CASH_IN' | 'CASH_OUT' | 'BUY' | 'SELL';
  symbol: string | null;
  qty: string | null;
  price: string | null;
  gross: string;
  fees: { code: string; amount: string }[];
  net: string;
  currency: 'AED';
  trade_date: string;
  settle_date: string;
}

const CUSTODIAN_TYPE = { DEPOSIT: 'CASH_IN', WITHDRAW: 'CASH_OUT', BUY: 'BUY', SELL: 'SELL' } as const;

/**
 * `GET /transactions`: the same AED movements as uaefeed's (its transfers and AED orders), with
 * the fee itemised (`COMMISSION`); amounts unsigned, `type` gives the direction. Ids carry the
 * uaefeed record's sequence: `CTX-<seed>-<customer number>-<seq>`.
 */
export function custodianTransactions(config: SandboxDataConfig, data: CustomerData): CustodianTransactionView[] {
  return data.movements
    .filter((m) => m.currency === 'AED')
    .map((m) => ({
      id: `CTX-${config.seed}-${data.customer.uaefeed_customer_number}-${String(m.seq).padStart(5, '0')}`,
      type: CUSTODIAN_TYPE[m.kind],
      symbol: m.symbol,
      qty: m.qty === null ? null : (m.qty < 0n ? -m.qty : m.qty).toString(),
      price: m.priceMinor === null ? null : formatMinor(m.priceMinor),
      gross: formatMinor(m.grossMinor),
      fees: m.feeMinor === 0n && m.symbol === null ? [] : [{ code: 'COMMISSION', amount: formatMinor(m.feeMinor) }],
      net: formatMinor(m.cashMinor < 0n ? -m.cashMinor : m.cashMinor),
      currency: 'AED',
      trade_date: m.date,
      settle_date: m.date,
    }));
}

export interface CustodianHoldingsView {
  as_of: string;
  account: string;
  currency: 'AED';
  positions: { symbol: string; isin: string; qty: string; avg_cost: string; market_value: string }[];
  cash: { balance: string; available: string };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
}

/**
 * `GET /holdings?as_of`: AED positions held at the end of `asOf` (bought − sold), average cost
 * per share by the average-cost method (fees excluded; a sale leaves it unchanged), 4
 * decimals; market value at that day's price; cash = the AED account's balance.
 */
export function custodianHoldings(config: SandboxDataConfig, data: CustomerData, asOf: string): CustodianHoldingsView {
  // Average cost per share in minor units, as an exact fraction.
  const positions = new Map<string, { qty: bigint; costNum: bigint; costDen: bigint }>();
  for (const m of data.movements) {
    if (m.date > asOf || m.currency !== 'AED' || m.symbol === null || m.qty === null) continue;
    const p = positions.get(m.symbol) ?? { qty: 0n, costNum: 0n, costDen: 1n };
    if (m.qty > 0n) {
      const num = p.costNum * p.qty + m.grossMinor * p.costDen;
      const den = p.costDen * (p.qty + m.qty);
      const g = gcd(num, den);
      p.costNum = num / g;
      p.costDen = den / g;
    }
    p.qty += m.qty;
    if (p.qty === 0n) Object.assign(p, { costNum: 0n, costDen: 1n });
    positions.set(m.symbol, p);
  }
  const balance = formatMinor(cashBalance(data.movements, 'AED', (m) => m.date <= asOf));
  return {
    as_of: asOf,
    account: data.customer.custodian_account,
    currency: 'AED',
    positions: [...positions]
      .filter(([, p]) => p.qty > 0n)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([symbol, p], i) => {
        // The planted variance (SandboxDataConfig.plantedMismatch): one share more than held.
        const qty = i === 0 && isPlantedMismatch(config, data.index) ? p.qty + 1n : p.qty;
        return {
          symbol,
          isin: securityOf(symbol).isin,
          qty: qty.toString(),
          avg_cost: divideToDecimal(p.costNum, p.costDen * 100n, 4),
          market_value: formatMinor(qty * priceOn(config.seed, symbol, asOf)),
        };
      }),
    cash: { balance, available: balance },
  };
}

export interface CustodianCashStatementView {
  account: string;
  month: string;
  currency: 'AED';
  opening_balance: string;
  closing_balance: string;
  lines: { date: string; value_date: string; description: string; debit: string; credit: string; balance: string }[];
}

/** `GET /statements/cash?month=YYYY-MM`: the AED account's month, opening + lines = closing. */
export function custodianCashStatement(data: CustomerData, month: string): CustodianCashStatementView {
  const first = firstDayOf(month);
  const last = lastDayOf(month);
  const opening = cashBalance(data.movements, 'AED', (m) => m.date < first);
  let balance = opening;
  const lines = data.movements
    .filter((m) => m.currency === 'AED' && inRange(m.date, first, last))
    .map((m) => {
      balance += m.cashMinor;
      return {
        date: m.date,
        value_date: m.date,
        description: describe(m),
        debit: m.cashMinor < 0n ? formatMinor(-m.cashMinor) : ZERO,
        credit: m.cashMinor > 0n ? formatMinor(m.cashMinor) : ZERO,
        balance: formatMinor(balance),
      };
    });
  return {
    account: data.customer.custodian_account,
    month,
    currency: 'AED',
    opening_balance: formatMinor(opening),
    closing_balance: formatMinor(balance),
    lines,
  };
}
