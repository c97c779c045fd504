import BigNumber from 'bignumber.js';
import type { DataColumn, Json, Row, TableSpec } from './table-data.js';
import {
  column,
  deriveTables,
  factsOf,
  flattenRow,
  isRecord,
  isTextList,
  needsAction,
  records,
  type Spec,
} from './report-specs.js';

/**
 * The India reports' declared tables: readable headers, amounts right-aligned and totalled in one
 * currency per column, the rows that need action flagged by the report's own rule. A report
 * without a spec here (a new one as it lands) gets its tables derived (`deriveTables`).
 */

/** An amount of one currency: right-aligned, summed in the totals row. */
const amount = (key: string, label: string) => column(key, label, 'money', true);
/** A count: right-aligned, summed. */
const count = (key: string, label: string) => column(key, label, 'num', true);
/** A number that never sums (a rate, a share, a price, a running total, a quantity of mixed symbols). */
const num = (key: string, label: string) => column(key, label, 'num');
const text = (key: string, label: string) => column(key, label);

const field = (report: Json, key: string): Json | undefined => (isRecord(report) ? report[key] : undefined);
const rowsOf = (value: Json | undefined): Row[] => records(value).map(flattenRow);
/** The records of `key` inside each parent record, each led by the parent's fields named in `lead`. */
const within = (parents: Json | undefined, key: string, lead: readonly string[]): Row[] =>
  records(parents).flatMap((parent) =>
    rowsOf(parent[key]).map((row) => ({ ...Object.fromEntries(lead.map((k) => [k, parent[k] ?? null])), ...row })),
  );
const differs = (value: Json | undefined) =>
  typeof value === 'string' && value !== '' && !new BigNumber(value).isZero() && !new BigNumber(value).isNaN();
const nonEmpty = (value: Json | undefined) => Array.isArray(value) && value.length > 0;
/** Statuses of a nested record (`lrs.status`) that need action: anything but ok. */
const notOk = (value: Json | undefined) => typeof value === 'string' && value !== 'ok';

const table = (
  id: string,
  title: string,
  columns: readonly DataColumn[],
  rows: readonly Row[],
  flag: (row: Row) => boolean = needsAction,
): TableSpec => ({ id, title, columns, rows, flag });

/** A report's warnings as a table when they are many (a few stay among the facts). */
const warnings = (report: Json): TableSpec[] => {
  const list = field(report, 'warnings');
  return isTextList(list)
    ? [
        table(
          'warnings',
          'Warnings',
          [text('warning', 'Warning')],
          list.map((w) => ({ warning: w })),
          () => true,
        ),
      ]
    : [];
};

const lrs: Spec = (report) => [
  table(
    'pans',
    'LRS use and TCS by PAN',
    [
      text('pan', 'PAN'),
      text('customer_ids', 'Customers'),
      text('status', 'LRS status'),
      count('remittance_count', 'Remittances'),
      count('refunded_count', 'Refunded'),
      amount('remitted_usd', 'Remitted USD'),
      amount('remitted_inr', 'Remitted INR'),
      amount('declared_prior_usage.amount_usd', 'Declared prior USD'),
      num('lrs_used_share', 'LRS used'),
      num('lrs_headroom_usd', 'Headroom USD'),
      text('threshold_crossed_on', 'TCS threshold crossed'),
      amount('estimated_tcs_inr', 'TCS estimated INR'),
      amount('actual_tcs_inr', 'TCS collected INR'),
      amount('difference_inr', 'TCS difference INR'),
    ],
    rowsOf(field(report, 'pans')),
    (row) => needsAction(row) || differs(row.difference_inr),
  ),
  table(
    'remittances',
    'Remittances in date order',
    [
      text('pan', 'PAN'),
      text('order_id', 'Order'),
      text('customer_id', 'Customer'),
      text('remitted_on', 'Remitted on'),
      amount('amount_inr', 'Amount INR'),
      amount('amount_usd', 'Amount USD'),
      num('cumulative_inr', 'Cumulative INR'),
      amount('above_threshold_inr', 'Above threshold INR'),
      num('tcs_rate', 'TCS rate'),
      amount('estimated_tcs_inr', 'TCS estimated INR'),
      amount('actual_tcs_inr', 'TCS collected INR'),
      text('refunded', 'Refunded'),
    ],
    within(field(report, 'pans'), 'remittances', ['pan']),
    (row) =>
      typeof row.actual_tcs_inr === 'string' &&
      typeof row.estimated_tcs_inr === 'string' &&
      !new BigNumber(row.actual_tcs_inr).isEqualTo(row.estimated_tcs_inr),
  ),
  table(
    'tcs_rules',
    'TCS rules by date',
    [
      text('from', 'From'),
      num('rate', 'Rate'),
      num('threshold_inr', 'Threshold INR'),
      text('unconfirmed', 'Unconfirmed'),
    ],
    rowsOf(field(report, 'tcs_rules')),
    (row) => row.unconfirmed === true,
  ),
  ...warnings(report),
];

/** One symbol of one customer in the capital-gains answer: the rows of its tables come from both. */
type Holding = { c: Row; s: Row };
/** The customer and symbol that lead each row of a holding's nested records. */
const leadOf = ({ c, s }: Holding) => ({ customer_id: c.customer_id ?? null, symbol: s.symbol ?? null });

const gainsBySymbol = (bySymbol: readonly Holding[]) =>
  table(
    'symbols',
    'Gains by customer and symbol',
    [
      text('customer_id', 'Customer'),
      text('symbol', 'Symbol'),
      count('disposals', 'Disposals'),
      count('open_lots', 'Open lots'),
      count('flagged_sales', 'Flagged sales'),
      amount('short_term_gain_inr', 'Short-term gain INR'),
      amount('long_term_gain_inr', 'Long-term gain INR'),
      amount('long_term_gain_before_2024_07_23_inr', 'LT gain before 23 Jul 2024 INR'),
      amount('long_term_gain_before_2024_07_23_indexed_inr', 'LT gain before 23 Jul 2024, indexed INR'),
      amount('long_term_gain_from_2024_07_23_inr', 'LT gain from 23 Jul 2024 INR'),
    ],
    bySymbol.map(({ c, s }) => ({
      customer_id: c.customer_id ?? null,
      ...flattenRow(s),
      disposals: records(s.disposals).length,
      open_lots: records(s.open_lots).length,
      flagged_sales: records(s.flagged_sales).length,
    })),
    (row) => row.flagged_sales !== 0,
  );

const disposalMatches = (bySymbol: readonly Holding[]) =>
  table(
    'matches',
    'Disposals matched to lots (FIFO)',
    [
      text('customer_id', 'Customer'),
      text('symbol', 'Symbol'),
      text('sell_txn_id', 'Sale'),
      text('acquired_on', 'Acquired'),
      text('transferred_on', 'Transferred'),
      num('quantity', 'Shares'),
      num('months_held', 'Months held'),
      text('term', 'Term'),
      amount('cost_of_acquisition_usd', 'Cost USD'),
      amount('consideration_usd', 'Consideration USD'),
      amount('gain_usd', 'Gain USD'),
      amount('cost_of_acquisition_inr', 'Cost INR'),
      amount('consideration_inr', 'Consideration INR'),
      amount('gain_inr', 'Gain INR'),
    ],
    bySymbol.flatMap((h) =>
      records(h.s.disposals).flatMap((d) =>
        rowsOf(d.matches).map((m) => ({ ...leadOf(h), sell_txn_id: d.sell_txn_id ?? null, ...m })),
      ),
    ),
    // A gain without its INR figure lacks a rate: the return cannot be filed from it.
    (row) => row.gain_inr === null,
  );

const flaggedSales = (bySymbol: readonly Holding[]) =>
  table(
    'flagged_sales',
    'Sales not matched to lots',
    [
      text('customer_id', 'Customer'),
      text('symbol', 'Symbol'),
      text('txn_id', 'Sale'),
      text('txn_date', 'Date'),
      num('quantity', 'Shares'),
      text('reason', 'Reason'),
    ],
    bySymbol.flatMap((h) => rowsOf(h.s.flagged_sales).map((f) => ({ ...leadOf(h), ...f }))),
    () => true,
  );

const openLots = (bySymbol: readonly Holding[]) =>
  table(
    'open_lots',
    'Open lots',
    [
      text('customer_id', 'Customer'),
      text('symbol', 'Symbol'),
      text('lot_txn_id', 'Lot'),
      text('acquired_on', 'Acquired'),
      num('quantity', 'Shares'),
      amount('cost_usd', 'Cost USD'),
    ],
    bySymbol.flatMap((h) => rowsOf(h.s.open_lots).map((l) => ({ ...leadOf(h), ...l }))),
    () => false,
  );

const capitalGains: Spec = (report) => {
  const bySymbol = records(field(report, 'items')).flatMap((c) => records(c.symbols).map((s) => ({ c, s })));
  return [
    gainsBySymbol(bySymbol),
    disposalMatches(bySymbol),
    flaggedSales(bySymbol),
    openLots(bySymbol),
    ...warnings(report),
  ];
};

const reconciliation: Spec = (report) => [
  table(
    'remittances',
    'Remittances against broker wires',
    [
      text('order_id', 'Order'),
      text('customer_id', 'Customer'),
      text('sent_on', 'Sent on'),
      amount('amount_usd', 'Amount USD'),
      text('status', 'Status'),
      text('transfer_id', 'Wire'),
      text('wire_value_date', 'Wire value date'),
      num('days', 'Days'),
    ],
    rowsOf(field(report, 'remittances')),
  ),
  table(
    'unmatched_funding',
    'Wires without a remittance',
    [
      text('transfer_id', 'Wire'),
      text('customer_id', 'Customer'),
      text('value_date', 'Value date'),
      amount('amount_usd', 'Amount USD'),
      text('status', 'Status'),
    ],
    rowsOf(field(report, 'unmatched_funding')),
  ),
  table(
    'customers',
    'Customers',
    [
      text('customer_id', 'Customer'),
      text('account_no', 'Broker account'),
      text('status', 'Status'),
      text('error', 'Error'),
      count('remittances', 'Remittances'),
      amount('remitted_usd', 'Remitted USD'),
      amount('wired_usd', 'Wired USD'),
      amount('matched_usd', 'Matched USD'),
      count('counts.matched', 'Matched'),
      count('counts.in_transit', 'In transit'),
      count('counts.aged_in_transit', 'Aged in transit'),
      count('counts.unmatched_funding', 'Unmatched wires'),
    ],
    rowsOf(field(report, 'customers')),
    (row) =>
      needsAction(row) ||
      (typeof row['counts.aged_in_transit'] === 'number' && row['counts.aged_in_transit'] > 0) ||
      (typeof row['counts.unmatched_funding'] === 'number' && row['counts.unmatched_funding'] > 0),
  ),
];

const ledgerRecon: Spec = (report) => {
  const customers = records(field(report, 'customers'));
  return [
    table(
      'customers',
      'Ledger against the broker, by customer',
      [
        text('customer_id', 'Customer'),
        text('status', 'Status'),
        text('account_no', 'Broker account'),
        amount('ledger.cash_usd', 'Ledger cash USD'),
        amount('broker.cash', 'Broker cash USD'),
        amount('difference.cash_usd', 'Cash difference USD'),
        amount('ledger.securities_at_cost_usd', 'Ledger securities at cost USD'),
        amount('broker.securities_cost_basis', 'Broker cost basis USD'),
        amount('broker.market_value', 'Broker market value USD'),
        text('broker.as_of', 'Broker as of'),
        text('error', 'Error'),
      ],
      customers.map(flattenRow),
    ),
    table(
      'shares',
      'Share counts by customer and symbol',
      [
        text('customer_id', 'Customer'),
        text('symbol', 'Symbol'),
        text('status', 'Status'),
        num('ledger_quantity', 'Ledger shares'),
        num('usbroker_quantity', 'Broker shares'),
        num('difference', 'Broker − ledger'),
      ],
      customers.flatMap((c) =>
        rowsOf(isRecord(c.difference) ? c.difference.shares : null).map((s) => ({
          customer_id: c.customer_id ?? null,
          ...s,
        })),
      ),
      (row) => row.status !== 'match',
    ),
  ];
};

const compliance: Spec = (report) => [
  table(
    'customers',
    'Broker account and LRS standing by customer',
    [
      text('customer_id', 'Customer'),
      text('account_no', 'Broker account'),
      text('pan', 'PAN'),
      text('status', 'Account status'),
      text('error', 'Error'),
      text('lrs.fy', 'FY'),
      amount('lrs.remitted_usd', 'Remitted USD'),
      amount('lrs.declared_prior_usd', 'Declared prior USD'),
      num('lrs.lrs_used_share', 'LRS used'),
      num('lrs.lrs_headroom_usd', 'Headroom USD'),
      text('lrs.status', 'LRS status'),
    ],
    rowsOf(field(report, 'customers')),
    (row) => needsAction(row) || notOk(row['lrs.status']),
  ),
];

const dividends: Spec = (report) => [
  table(
    'customers',
    'Dividends and withholding by customer',
    [
      text('customer_id', 'Customer'),
      amount('gross_usd', 'Gross USD'),
      amount('withheld_usd', 'Withheld USD'),
      amount('net_usd', 'Net USD'),
      num('effective_rate', 'Withheld rate'),
      amount('gross_inr', 'Gross INR'),
      amount('withheld_inr', 'Withheld INR'),
      amount('treaty_cap_inr', 'Treaty cap INR'),
      amount('credit_available_inr', 'Credit available INR'),
      amount('not_creditable_inr', 'Not creditable INR'),
    ],
    rowsOf(field(report, 'customers')),
    (row) => differs(row.not_creditable_inr),
  ),
  table(
    'events',
    'Dividend events',
    [
      text('customer_id', 'Customer'),
      text('symbol', 'Symbol'),
      text('ex_date', 'Ex-date'),
      text('pay_date', 'Paid'),
      amount('gross_usd', 'Gross USD'),
      amount('withheld_usd', 'Withheld USD'),
      amount('net_usd', 'Net USD'),
      num('effective_rate', 'Withheld rate'),
      num('treaty_rate', 'Treaty rate'),
      amount('gross_inr', 'Gross INR'),
      amount('credit_available_inr', 'Credit available INR'),
      amount('not_creditable_inr', 'Not creditable INR'),
      text('not_creditable_reason', 'Why not creditable'),
    ],
    within(field(report, 'customers'), 'events', ['customer_id']),
    (row) => typeof row.not_creditable_reason === 'string',
  ),
  ...warnings(report),
];

const scheduleFa: Spec = (report) => [
  table(
    'a3',
    'A3: foreign equity held',
    [
      text('customer_id', 'Customer'),
      text('symbol', 'Symbol'),
      text('entity_name', 'Entity'),
      text('country', 'Country'),
      text('date_of_acquiring', 'Acquired'),
      amount('initial_value_inr', 'Initial value INR'),
      text('peak_value_date', 'Peak on'),
      amount('peak_value_inr', 'Peak value INR'),
      amount('peak_lower_bound_inr', 'Peak at least INR'),
      num('closing_shares', 'Closing shares'),
      amount('closing_value_inr', 'Closing value INR'),
      amount('gross_dividends_inr', 'Dividends INR'),
      amount('gross_sale_proceeds_inr', 'Sale proceeds INR'),
      count('missing_close_days', 'Days without a close'),
    ],
    // The days themselves (hundreds for a symbol listed late) are in the CSV of the raw answer; here, how many.
    within(field(report, 'items'), 'a3', ['customer_id']).map((row) => ({
      ...row,
      missing_close_days: Array.isArray(row.missing_close_days) ? row.missing_close_days.length : 0,
    })),
    (row) => row.peak_value_inr === null || (typeof row.missing_close_days === 'number' && row.missing_close_days > 0),
  ),
  table(
    'a2',
    'A2: foreign custodial accounts',
    [
      text('customer_id', 'Customer'),
      text('institution_name', 'Institution'),
      text('account_number', 'Account'),
      text('account_opening_date', 'Opened'),
      text('peak_balance_date', 'Peak on'),
      amount('peak_balance_inr', 'Peak balance INR'),
      amount('closing_balance_inr', 'Closing balance INR'),
      amount('gross_dividend_inr', 'Dividends INR'),
      amount('gross_interest_inr', 'Interest INR'),
      amount('gross_proceeds_inr', 'Proceeds INR'),
      amount('gross_credited_inr', 'Credited INR'),
    ],
    within(field(report, 'items'), 'a2', ['customer_id']),
    (row) => row.closing_balance_inr === null,
  ),
  ...warnings(report),
];

const settlementAudit: Spec = (report) => [
  table(
    'missing_utr',
    'Settled without a UTR',
    [text('order_id', 'Order'), text('customer_id', 'Customer')],
    rowsOf(field(field(report, 'missing_utr') ?? null, 'orders')),
    () => true,
  ),
  table(
    'purpose_codes',
    'By purpose code',
    [text('purpose_code', 'Purpose code'), count('count', 'Remittances'), amount('amount_usd', 'Amount USD')],
    rowsOf(field(report, 'purpose_codes')),
    () => false,
  ),
  ...warnings(report),
];

const brokerFees: Spec = (report) => [
  table(
    'items',
    'Trades: broker cost modelled against actual',
    [
      text('txn_id', 'Trade'),
      text('customer_id', 'Customer'),
      text('symbol', 'Symbol'),
      text('side', 'Side'),
      text('txn_date', 'Date'),
      amount('notional_usd', 'Notional USD'),
      amount('modelled_usd', 'Modelled USD'),
      amount('configured_usd', 'Configured USD'),
      amount('actual_usd', 'Actual USD'),
      amount('drift_usd', 'Drift USD'),
      text('flagged', 'Flagged'),
    ],
    rowsOf(field(report, 'items')),
  ),
  ...warnings(report),
];

const fxMargin: Spec = (report) => [
  table(
    'customers',
    'FX margin by customer',
    [
      text('customer_id', 'Customer'),
      count('remittances', 'Remittances'),
      amount('amount_usd', 'Remitted USD'),
      amount('realized_usd', 'Realised margin USD'),
      amount('assumed_usd', 'Assumed margin USD'),
      amount('drift_usd', 'Drift USD'),
    ],
    rowsOf(field(report, 'customers')),
    (row) => row.realized_usd === null,
  ),
  table(
    'remittances',
    'Remittances: customer rate against mid',
    [
      text('order_id', 'Order'),
      text('customer_id', 'Customer'),
      text('remitted_on', 'Remitted on'),
      amount('amount_inr', 'Amount INR'),
      amount('amount_usd', 'Amount USD'),
      num('customer_rate', 'Customer rate'),
      num('mid_rate', 'Mid rate'),
      num('margin_bps', 'Margin bps'),
      amount('provider_fees_usd', 'Provider fees USD'),
      amount('realized.margin_usd', 'Realised margin USD'),
      amount('assumed_usd', 'Assumed margin USD'),
      amount('drift_usd', 'Drift USD'),
    ],
    rowsOf(field(report, 'remittances')),
    (row) => row.mid_rate === null,
  ),
  ...warnings(report),
];

const flows = ['wires_in', 'wires_out', 'buys', 'sells', 'dividends', 'withholdings', 'broker_fees'] as const;
const usbroker: Spec = (report) => [
  table(
    'customers',
    'Broker activity by customer',
    [
      text('customer_id', 'Customer'),
      text('account_no', 'Broker account'),
      ...flows.map((f) =>
        amount(
          `${f}.usd`,
          `${f.replace('_', ' ')} USD`.replace(/^./, (c) => c.toUpperCase()),
        ),
      ),
      amount('brokerage_revenue_usd', 'Brokerage revenue USD'),
      amount('brokerage_cost_usd', 'Brokerage cost USD'),
      amount('brokerage_margin_usd', 'Brokerage margin USD'),
    ],
    rowsOf(field(report, 'customers')),
    () => false,
  ),
  table(
    'recent',
    'Recent postings',
    [
      text('txn_id', 'Transaction'),
      text('txn_date', 'Date'),
      text('txn_type', 'Type'),
      text('source', 'Source'),
      text('customer_id', 'Customer'),
      text('symbol', 'Symbol'),
      num('amount_usd', 'Amount USD'),
    ],
    rowsOf(field(report, 'recent')),
    () => false,
  ),
];

const remit: Spec = (report) => [
  table(
    'by_status',
    'Orders by status',
    [
      text('status', 'Status'),
      count('count', 'Orders'),
      amount('amount_inr', 'Amount INR'),
      amount('amount_usd', 'Amount USD'),
    ],
    rowsOf(field(report, 'by_status')),
  ),
  table(
    'customers',
    'By customer',
    [
      text('customer_id', 'Customer'),
      text('remit_customer_id', 'Remit customer'),
      count('orders', 'Orders'),
      count('paid', 'Paid'),
      amount('paid_usd', 'Paid USD'),
      amount('paid_inr', 'Paid INR'),
      amount('tcs_inr', 'TCS INR'),
    ],
    rowsOf(field(report, 'customers')),
    () => false,
  ),
  table(
    'pans',
    'By PAN',
    [
      text('pan', 'PAN'),
      count('customers', 'Customers'),
      count('remittances', 'Remittances'),
      amount('remitted_usd', 'Remitted USD'),
      amount('remitted_inr', 'Remitted INR'),
      amount('tcs_inr', 'TCS INR'),
    ],
    rowsOf(field(report, 'pans')),
    (row) => row.pan === null,
  ),
  table(
    'recent',
    'Recent orders',
    [
      text('order_id', 'Order'),
      text('customer_id', 'Customer'),
      text('status', 'Status'),
      text('remitted_on', 'Remitted on'),
      amount('amount_inr', 'Amount INR'),
      amount('amount_usd', 'Amount USD'),
    ],
    rowsOf(field(report, 'recent')),
  ),
];

const treasury: Spec = (report) => {
  const balances = field(report, 'balances');
  return [
    table(
      'balances',
      'Merchant balances',
      [text('kind', 'Balance'), text('currency', 'Currency'), num('amount', 'Amount')],
      (['available', 'pending', 'deficit'] as const).flatMap((kind) =>
        rowsOf(field(balances ?? null, kind)).map((b) => ({ kind, ...b })),
      ),
      (row) => row.kind === 'deficit' && differs(row.amount),
    ),
  ];
};

const nav: Spec = (report) => [
  table(
    'customers',
    'NAV by customer',
    [
      text('customer_id', 'Customer'),
      text('account_no', 'Broker account'),
      text('status', 'Status'),
      amount('cash_usd', 'Cash USD'),
      amount('cost_usd', 'Cost USD'),
      amount('market_value_usd', 'Market value USD'),
      amount('unrealized_pnl_usd', 'Unrealised P&L USD'),
      amount('nav_usd', 'NAV USD'),
      text('unpriced_symbols', 'Unpriced'),
      text('error', 'Error'),
    ],
    rowsOf(field(report, 'customers')),
    (row) => needsAction(row) || nonEmpty(row.unpriced_symbols),
  ),
  table(
    'positions',
    'Positions',
    [
      text('customer_id', 'Customer'),
      text('symbol', 'Symbol'),
      num('quantity', 'Shares'),
      num('price_usd', 'Price USD'),
      amount('cost_usd', 'Cost USD'),
      amount('market_value_usd', 'Market value USD'),
      amount('unrealized_pnl_usd', 'Unrealised P&L USD'),
    ],
    within(field(report, 'customers'), 'positions', ['customer_id']),
    (row) => row.price_usd === null,
  ),
  ...warnings(report),
];

const categories = ['failed', 'action_required', 'under_review', 'pending', 'expired', 'cancelled'] as const;
const remittanceExceptions: Spec = (report) => [
  table(
    'items',
    'Orders that did not complete',
    [
      text('order_id', 'Order'),
      text('category', 'Category'),
      text('status', 'Status'),
      text('customer_id', 'Customer'),
      text('remit_customer_id', 'Remit customer'),
      amount('amount_inr', 'Amount INR'),
      text('purpose_code', 'Purpose'),
      text('reference_number', 'Reference'),
      text('created_at', 'Created'),
      num('age_days', 'Age (days)'),
    ],
    rowsOf(field(report, 'items')),
    // Cancelled and expired orders are closed; the rest wait on someone.
    (row) => row.category !== 'cancelled' && row.category !== 'expired',
  ),
  table(
    'by_customer',
    'By customer',
    [
      text('customer_id', 'Customer'),
      text('remit_customer_id', 'Remit customer'),
      count('total', 'Orders'),
      ...categories.map((c) =>
        count(
          `by_category.${c}`,
          c.replace('_', ' ').replace(/^./, (x) => x.toUpperCase()),
        ),
      ),
    ],
    rowsOf(field(report, 'by_customer')),
    () => false,
  ),
];

/** holdings-recon: the one mismatch among hundreds of symbols is what the page is for, so symbols lead. */
const holdingsRecon: Spec = (report) => {
  const customers = records(field(report, 'customers'));
  return [
    table(
      'symbols',
      'Share counts by customer and symbol',
      [
        text('customer_id', 'Customer'),
        text('symbol', 'Symbol'),
        text('status', 'Status'),
        count('ledger_quantity', 'Ledger shares'),
        count('usbroker_quantity', 'Broker shares'),
        count('difference', 'Broker − ledger'),
      ],
      within(customers, 'symbols', ['customer_id']),
      (row) => row.status !== 'match',
    ),
    table(
      'customers',
      'Customers',
      [
        text('customer_id', 'Customer'),
        text('account_no', 'Broker account'),
        text('status', 'Status'),
        count('symbols', 'Symbols'),
        text('error', 'Error'),
      ],
      customers.map((c) => ({ ...flattenRow(c), symbols: records(c.symbols).length })),
    ),
  ];
};

/** A figure of the tax pack: an amount with the rate, its date and the rule it follows. */
const isPackFigure = (value: Json): value is { [key: string]: Json } =>
  isRecord(value) && 'rule' in value && 'inr' in value && 'rate_date' in value;

/** Every figure of the pack, by its path in the answer (as its CSV names it), in the answer's order. */
const packFigures = (value: Json, path: string): Row[] => {
  if (isPackFigure(value)) return [{ field: path, ...value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => packFigures(v, `${path}[${i}]`));
  if (isRecord(value))
    return Object.entries(value).flatMap(([k, v]) => packFigures(v, path === '' ? k : `${path}.${k}`));
  return [];
};

/** The ITR schedules the pack fills (its other keys are facts, rules and warnings). */
const PACK_SCHEDULES = [
  'ScheduleFA',
  'ScheduleCG',
  'ScheduleOS',
  'ScheduleFSI',
  'ScheduleTR',
  'Form67',
  'ScheduleTCS',
  'ScheduleAL',
];

const taxPack: Spec = (report) => [
  table(
    'figures',
    'Figures by schedule and field',
    [
      text('field', 'Schedule field'),
      num('inr', 'INR'),
      num('usd', 'USD'),
      num('rate', 'Rate'),
      text('rate_date', 'Rate date'),
      text('rule', 'Rule'),
    ],
    PACK_SCHEDULES.flatMap((schedule) => packFigures(field(report, schedule) ?? null, schedule)),
    () => false,
  ),
  table(
    'tcs',
    'Schedule TCS: tax collected per remittance',
    [
      text('order_id', 'Order'),
      text('customer_id', 'Customer'),
      text('remitted_on', 'Remitted'),
      text('refunded', 'Refunded'),
      amount('collected.inr', 'TCS INR'),
      amount('estimated_inr', 'Estimated INR'),
    ],
    rowsOf(field(field(report, 'ScheduleTCS') ?? null, 'lines')),
    (row) => row.refunded === true,
  ),
  table(
    'lots',
    'Schedule AL: lots open at 31 March',
    [
      text('customer_id', 'Customer'),
      text('symbol', 'Symbol'),
      text('acquired_on', 'Acquired'),
      num('quantity', 'Quantity'),
      amount('cost.usd', 'Cost USD'),
      num('cost.rate', 'Rate'),
      amount('cost.inr', 'Cost INR'),
    ],
    rowsOf(field(field(report, 'ScheduleAL') ?? null, 'lots')),
    () => false,
  ),
  table(
    'rules',
    'Rules and sources',
    [text('key', 'Rule'), text('rule', 'What it says'), text('source', 'Source')],
    Object.entries(
      isRecord(field(report, 'rules') ?? null) ? (field(report, 'rules') as { [key: string]: Json }) : {},
    ).map(([key, value]) => ({ key, ...(isRecord(value) ? value : {}) })),
    () => false,
  ),
  ...warnings(report),
];

/** The fields a report shows as facts above its tables, where not every plain field is one. */
const INDIA_FACTS: Record<string, readonly string[]> = { 'tax-pack': ['pan', 'fy', 'assessment_year', 'totals'] };

/** A report's facts: those its entry in INDIA_FACTS names, else every plain field outside its tables. */
export const indiaFactsOf = (name: string | undefined, report: Json) => {
  const keys = name !== undefined ? INDIA_FACTS[name] : undefined;
  return factsOf(
    keys === undefined || !isRecord(report) ? report : Object.fromEntries(keys.map((k) => [k, report[k] ?? null])),
  );
};

/** The India reports whose tables are declared, by name (the path after `/v1/india/`). */
export const INDIA_SPECS: Record<string, Spec> = {
  lrs,
  'capital-gains': capitalGains,
  dividends,
  'schedule-fa': scheduleFa,
  'settlement-audit': settlementAudit,
  'broker-fees': brokerFees,
  'fx-margin': fxMargin,
  usbroker,
  remit,
  treasury,
  nav,
  'holdings-recon': holdingsRecon,
  'ledger-recon': ledgerRecon,
  reconciliation,
  compliance,
  'remittance-exceptions': remittanceExceptions,
  'tax-pack': taxPack,
};

/** A report's tables: declared when it has a spec, else derived from its answer. */
export const tablesOf = (name: string | undefined, report: Json): TableSpec[] =>
  (name !== undefined ? INDIA_SPECS[name] : undefined)?.(report) ?? deriveTables(report);
