import { usPriceOn, type DataPeriod } from './catalog.js';
import { addMonths, firstDayOf, fromDayNumber, lastDayOf, toDayNumber } from './dates.js';
import { isPlantedMismatch, periodOf, type SandboxDataConfig } from './config.js';
import {
  CUSIPS,
  DAILY_LEDGER_COLUMNS,
  formatQty,
  formatScaled,
  generateIndiaCustomerData,
  indiaCustomer,
  midRateE8,
  parseCents,
  positionsOf,
  type DailyLedgerRow,
  type IndiaCustomer,
  type IndiaCustomerData,
  type Remittance,
} from './india.js';
import { formatMinor } from './money.js';

/** Every answer of the India upstreams, derived from the records (and the remit objects' current state). */

export interface IndiaDataset {
  readonly customers: readonly IndiaCustomer[];
  /** By customer_id, remit customer id or usbroker account number. */
  find(identifier: string): IndiaCustomer | undefined;
  /** Every customer's records; generated all at once on first use and kept (the admin API mutates them). */
  all(): IndiaCustomerData[];
  dataOf(customer: IndiaCustomer): IndiaCustomerData;
  remittance(orderId: string): Remittance | undefined;
  /** The customer a remit object id (order_, payt_, quote_, setl_, refund_) belongs to. */
  ownerOf(remitId: string): IndiaCustomer | undefined;
}

export function createIndiaDataset(config: SandboxDataConfig): IndiaDataset {
  const customers = Array.from({ length: config.customers }, (_, i) => indiaCustomer(config, i + 1));
  const byId = new Map<string, IndiaCustomer>();
  for (const c of customers)
    for (const key of [c.customer_id, c.remit_customer_id, c.usbroker_account_no]) byId.set(key, c);
  let generated: IndiaCustomerData[] | null = null;
  const byOrder = new Map<string, Remittance>();
  const all = () => {
    if (generated === null) {
      generated = customers.map((_, i) => generateIndiaCustomerData(config, i + 1));
      for (const d of generated) for (const r of d.remittances) byOrder.set(r.order.id, r);
    }
    return generated;
  };
  return {
    customers,
    find: (identifier) => byId.get(identifier),
    all,
    dataOf: (customer) => all()[Number(customer.customer_id.slice(4)) - 1]!,
    remittance: (orderId) => {
      all();
      return byOrder.get(orderId);
    },
    ownerOf: (remitId) => {
      // Every remit id is `<prefix>_<seed>_<customer index>_<seq>_<k>`.
      const match = /^[a-z]+_-?\d+_(\d{6})_/.exec(remitId);
      const index = match?.[1] === undefined ? 0 : Number(match[1]);
      return customers[index - 1];
    },
  };
}

// ---- usbroker ----

/** The end of the period, or of the last day with a row when a wire of the period's last settlements arrived after it. */
export const usbrokerAsOf = (data: IndiaCustomerData, periodTo: string) => {
  const last = data.rows.at(-1)?.report_date ?? periodTo;
  return `${last > periodTo ? last : periodTo}T23:59:59Z`;
};

/** The firm's own account at the sandbox broker (contract, Recost revised): `<firm id>-FIRM`. */
export const usbrokerFirmAccountOf = (firmId: string) => `${firmId}-FIRM`;

/**
 * The firm account's balance, read like a customer's: the platform's part of every trade's fee
 * (`other_fee` of the TRD rows, credited to it by the broker); nothing is wired out of it.
 */
export function usbrokerFirmBalance(all: readonly IndiaCustomerData[], periodTo: string) {
  const rows = all.flatMap((d) => d.rows.filter((r) => r.row_code === 'TRD' && r.other_fee !== ''));
  const cash = rows.reduce((sum, r) => sum - parseCents(r.other_fee), 0n);
  const last = rows.reduce((day, r) => (r.report_date > day ? r.report_date : day), periodTo);
  return {
    cash: formatMinor(cash),
    cash_withdrawable: formatMinor(cash),
    buying_power: formatMinor(cash),
    pending_deposits: '0.00',
    currency: 'USD',
    as_of: `${last}T23:59:59Z`,
  };
}

export function usbrokerBalance(data: IndiaCustomerData, periodTo: string) {
  const cash = data.rows.reduce((sum, r) => sum + parseCents(r.amount), 0n);
  const pending = data.wires
    .filter((w) => w.direction === 'IN' && w.status === 'pending')
    .reduce((sum, w) => sum + parseCents(w.amount), 0n);
  return {
    cash: formatMinor(cash),
    cash_withdrawable: formatMinor(cash),
    buying_power: formatMinor(cash),
    pending_deposits: formatMinor(pending),
    currency: 'USD',
    as_of: usbrokerAsOf(data, periodTo),
  };
}

export function usbrokerPositions(config: SandboxDataConfig, data: IndiaCustomerData, periodTo: string) {
  return [...positionsOf(data).entries()]
    .filter(([, p]) => p.qtyMicro > 0n)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([symbol, p], i) => {
      const price = usPriceOn(config.seed, periodOf(config), symbol, periodTo);
      // The planted variance (SandboxDataConfig.plantedMismatch): one share more than held.
      const qtyMicro = i === 0 && isPlantedMismatch(config, data.index) ? p.qtyMicro + 1_000_000n : p.qtyMicro;
      return {
        symbol,
        cusip: CUSIPS[symbol] ?? null,
        qty: formatQty(qtyMicro),
        // cost / qty to 4 decimals, half up.
        avg_cost: formatScaled((p.costCents * 1_000_000n * 100n * 2n + p.qtyMicro) / (p.qtyMicro * 2n), 4),
        cost_basis: formatMinor(p.costCents),
        market_value: formatMinor((qtyMicro * price * 2n + 1_000_000n) / 2_000_000n),
      };
    });
}

export function usbrokerStatement(data: IndiaCustomerData, month: string) {
  const from = firstDayOf(month);
  const to = lastDayOf(month);
  let opening = 0n;
  let closing = 0n;
  const activity = [];
  for (const r of data.rows) {
    if (r.report_date < from) opening += parseCents(r.amount);
    if (r.report_date <= to) closing += parseCents(r.amount);
    if (r.report_date >= from && r.report_date <= to) {
      activity.push({
        date: r.report_date,
        txn_no: r.txn_no,
        row_code: r.row_code,
        symbol: r.symbol === '' ? null : r.symbol,
        description: r.description === '' ? null : r.description,
        amount: r.amount,
      });
    }
  }
  return {
    account_no: data.account.account_no,
    month,
    currency: 'USD',
    opening_cash: formatMinor(opening),
    closing_cash: formatMinor(closing),
    activity,
  };
}

/** The rows of every account reported on `date`, by account then as they happened. */
export function dailyLedgerRows(all: readonly IndiaCustomerData[], date: string, firm: string): DailyLedgerRow[] {
  return all.flatMap((d) => d.rows.filter((r) => r.report_date === date).map((r) => ({ ...r, firm_id: firm })));
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** CRLF, the header always. */
export function dailyLedgerCsv(rows: readonly DailyLedgerRow[]): string {
  return [DAILY_LEDGER_COLUMNS.join(','), ...rows.map((r) => DAILY_LEDGER_COLUMNS.map((c) => csvCell(r[c])).join(','))]
    .map((line) => `${line}\r\n`)
    .join('');
}

export function usbrokerQuotes(config: SandboxDataConfig, symbols: readonly string[], periodTo: string) {
  return symbols
    .filter((s) => s in CUSIPS)
    .map((symbol) => ({
      symbol,
      last: formatMinor(usPriceOn(config.seed, periodOf(config), symbol, periodTo)),
      currency: 'USD',
      as_of: `${periodTo}T20:00:00Z`,
    }));
}

/**
 * The US symbols' daily closes over [from, to], weekdays, as a market-data vendor's end-of-day
 * file in the ledger's `load-close-prices` form (`symbol,date,close`): each close is the price
 * the sandbox's quotes give for that day, so the ledger can value holdings (Schedule FA's peak and
 * closing) over the sandbox's whole period, not only the days its syncs ran. Post-split from each
 * split's effective date in `period` (the data period the splits are dated in).
 */
export function usbrokerClosePricesCsv(prices: { seed: number; period: DataPeriod }, from: string, to: string): string {
  const lines = ['symbol,date,close'];
  for (const symbol of Object.keys(CUSIPS))
    for (let day = toDayNumber(from); day <= toDayNumber(to); day += 1) {
      const date = fromDayNumber(day);
      // Day 0 (1970-01-01) was a Thursday: (day + 4) % 7 is 0 on Sundays, 6 on Saturdays.
      if ((day + 4) % 7 === 0 || (day + 4) % 7 === 6) continue;
      lines.push(`${symbol},${date},${formatMinor(usPriceOn(prices.seed, prices.period, symbol, date))}`);
    }
  return `${lines.join('\n')}\n`;
}

// ---- remit ----

/** Newest created_at first (then id, descending). */
export function newestFirst<T extends { id: string; created_at: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) =>
    a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.id < b.id ? 1 : -1,
  );
}

export function remitMidRate(config: SandboxDataConfig, periodTo: string) {
  return { mid_market_rate: { currency: 'USD', rate: formatScaled(midRateE8(config.seed, periodTo), 8) } };
}

/** Merchant balance (ours): INR of paid payments not yet settled available; INR of authorised payments waiting for funds pending. */
export function remitBalances(all: readonly IndiaCustomerData[]) {
  let available = 0;
  let pending = 0;
  for (const d of all) {
    for (const r of d.remittances) {
      const p = r.payment;
      if (p === null) continue;
      if (p.status === 'success' && p.funds_available && p.settlement_id === null) available += p.amount;
      if ((p.status === 'success' && !p.funds_available) || p.status === 'in_progress') pending += p.amount;
    }
  }
  return {
    available: [{ currency: 'INR', amount: available }],
    pending: [{ currency: 'INR', amount: pending }],
    deficit: [],
  };
}

export function monthsOf(config: SandboxDataConfig): string[] {
  return Array.from({ length: config.months }, (_, i) => addMonths(config.startMonth, i));
}
