import { ACCOUNT, type AccountCode } from './accounts.js';
import { assert, LedgerError } from './errors.js';
import { Decimal, formatDecimal, roundToCents, ZERO } from './money.js';

/**
 * What the firm reports mean, in the chart's words (docs/firm-reports.md). Pure: the store reads
 * the daily aggregates, these functions shape them.
 */

/** A window of txn_dates, both ends inclusive and optional (YYYY-MM-DD). */
export interface ReportWindow {
  from?: string;
  to?: string;
}

/** Refuses a window whose end comes before its start. */
export function assertWindow({ from, to }: ReportWindow): void {
  if (from !== undefined && to !== undefined && from > to) {
    const message = 'must not be before from';
    throw new LedgerError('validation_error', `to ${message}`, [{ path: '/query/to', message }]);
  }
}

/** The customers' wallets: deposits and withdrawals are their movements of the funding kinds. */
export const CUSTOMER_WALLETS: readonly AccountCode[] = [ACCOUNT.customerWalletUsd, ACCOUNT.customerWalletAed];
/** Posting kinds of money coming in from customers (credited to a wallet) and going out to them (debited). */
export const FUNDING_KINDS = { deposits: ['deposit', 'wire_in'], withdrawals: ['withdrawal', 'wire_out'] } as const;

/** The summary's balances, each the debit balance of its asset accounts at the end of the window. */
export const SUMMARY_BALANCES = {
  aum_custody_usd: [ACCOUNT.custodyEquities, ACCOUNT.custodyBonds],
  cash_usd: [ACCOUNT.operatingBankUsd, ACCOUNT.omnibusCash],
  cash_aed_usd: [ACCOUNT.operatingBankAed],
} as const satisfies Record<string, readonly AccountCode[]>;
export type SummaryBalance = keyof typeof SUMMARY_BALANCES;

/**
 * Where the firm earns and spends, by source, from the revenue and expense accounts of the chart.
 * The broker and the custodian are one party in the chart (1100, 2340, 5010 name "broker /
 * custodian"): on the UAE book `custodian` is the custodian's, on the India book the US broker's.
 * Every revenue and expense account of the chart is in exactly one source (asserted on read).
 */
export const EARNINGS_SOURCES = [
  {
    source: 'custodian',
    revenue: [ACCOUNT.brokerageRevenue, ACCOUNT.custodyFeeRevenue],
    cost: [ACCOUNT.brokerageCost],
  },
  { source: 'partners', revenue: [ACCOUNT.partnerRevenue], cost: [] },
  // 5090: the rounding of AED conversions cleared from emptied wallets, a cost (or gain) of converting currency.
  { source: 'fx_spread', revenue: [ACCOUNT.fxSpreadRevenue], cost: [ACCOUNT.remittanceFees, ACCOUNT.fxRounding] },
] as const satisfies ReadonlyArray<{ source: string; revenue: readonly AccountCode[]; cost: readonly AccountCode[] }>;
export type EarningsSource = (typeof EARNINGS_SOURCES)[number]['source'];
export const EARNINGS_ACCOUNTS: readonly AccountCode[] = EARNINGS_SOURCES.flatMap((s) => [...s.revenue, ...s.cost]);

/** Newest transactions the summary lists; days of flows it lists (the newest). */
export const RECENT_TXNS_MAX = 10;
export const FLOW_DAYS_MAX = 366;

/** Debits and credits of one account over some days. */
export interface Movement {
  account_code: AccountCode;
  debit: string;
  credit: string;
}

export interface Earnings {
  source: EarningsSource;
  revenue_usd: string;
  cost_usd: string;
  margin_usd: string;
}

/** Revenue (net credits of its revenue accounts), cost (net debits of its expense accounts) and margin per source. */
export function earningsBySource(movements: readonly Movement[]): Earnings[] {
  const net = new Map<AccountCode, Decimal>();
  for (const m of movements) {
    assert(EARNINGS_ACCOUNTS.includes(m.account_code), `account ${m.account_code} belongs to an earnings source`);
    net.set(m.account_code, (net.get(m.account_code) ?? ZERO).plus(m.debit).minus(m.credit));
  }
  const sum = (codes: readonly AccountCode[]) => codes.reduce((total, code) => total.plus(net.get(code) ?? ZERO), ZERO);
  return EARNINGS_SOURCES.map(({ source, revenue, cost }) => {
    const revenueUsd = sum(revenue).negated();
    const costUsd = sum(cost);
    return { source, ...amounts(revenueUsd, costUsd) };
  });
}

/** Totals over sources. */
export function earningsTotal(sources: readonly Earnings[]): Omit<Earnings, 'source'> {
  const revenue = sources.reduce((t, s) => t.plus(s.revenue_usd), ZERO);
  const cost = sources.reduce((t, s) => t.plus(s.cost_usd), ZERO);
  return amounts(revenue, cost);
}

const amounts = (revenue: Decimal, cost: Decimal) => ({
  revenue_usd: formatDecimal(revenue),
  cost_usd: formatDecimal(cost),
  margin_usd: formatDecimal(revenue.minus(cost)),
});

/** The debit balance of some accounts, from every account's net (debit − credit). */
export function debitBalance(nets: ReadonlyMap<AccountCode, Decimal>, codes: readonly AccountCode[]): Decimal {
  return codes.reduce((total, code) => total.plus(nets.get(code) ?? ZERO), ZERO);
}

/** A USD amount of AED at the peg, in AED (cents). */
export function aedAtPeg(usd: Decimal, aedPerUsd: Decimal): Decimal {
  return roundToCents(usd.times(aedPerUsd));
}

/** One day's customer money in and out, net of reversals. */
export interface Flow {
  day: string;
  deposits_usd: string;
  withdrawals_usd: string;
}

/** One day's wallet movements of one funding kind (debit and credit summed). */
export interface FundingMovement {
  day: string;
  posting_kind: string;
  debit: string;
  credit: string;
}

/** Per day, deposits (wallet credits less debits of the deposit kinds) and withdrawals (the mirror), oldest first. */
export function flowsByDay(movements: readonly FundingMovement[]): Flow[] {
  const days = new Map<string, { deposits: Decimal; withdrawals: Decimal }>();
  for (const m of movements) {
    const day = days.get(m.day) ?? { deposits: ZERO, withdrawals: ZERO };
    if ((FUNDING_KINDS.deposits as readonly string[]).includes(m.posting_kind))
      day.deposits = day.deposits.plus(m.credit).minus(m.debit);
    else if ((FUNDING_KINDS.withdrawals as readonly string[]).includes(m.posting_kind))
      day.withdrawals = day.withdrawals.plus(m.debit).minus(m.credit);
    else assert(false, `posting kind ${m.posting_kind} is a funding kind`);
    days.set(m.day, day);
  }
  return [...days]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([day, { deposits, withdrawals }]) => ({
      day,
      deposits_usd: formatDecimal(deposits),
      withdrawals_usd: formatDecimal(withdrawals),
    }));
}
