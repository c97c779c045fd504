import { READ } from '../../openapi/security.js';
import { ACCOUNT_TYPES } from '@ledger/core/posting';
import { EARNINGS_SOURCES, FLOW_DAYS_MAX, RECENT_TXNS_MAX } from '@ledger/core/reports';
import {
  errorResponses,
  json,
  nullable,
  object,
  paramRef,
  READ_ERRORS,
  ref,
  timestamps,
} from '../../openapi/components.js';
import type { JsonSchema, Parameter, Paths } from '../../openapi/types.js';

const AS_OF: Parameter = {
  name: 'as_of',
  in: 'query',
  description: 'Balances as they stood at the end of this day (every txn_date up to it, inclusive); now without it.',
  schema: ref('Date'),
};
const WINDOW = [paramRef('From'), paramRef('To')];
const WINDOW_ECHO = {
  from: nullable('Date', 'The window’s first txn_date, as asked; null for none.'),
  to: nullable('Date', 'The window’s last txn_date, as asked; null for none.'),
};
const money = (description: string): JsonSchema => ({ ...ref('SignedAmount'), description });
const earnings = (description: string, withSource: boolean): JsonSchema =>
  object(
    {
      ...(withSource && { source: { type: 'string', enum: EARNINGS_SOURCES.map((s) => s.source) } }),
      revenue_usd: money('Net credits of the revenue accounts.'),
      cost_usd: money('Net debits of the expense accounts.'),
      margin_usd: money('revenue_usd − cost_usd.'),
    },
    description,
  );
const SOURCES_DESCRIPTION = EARNINGS_SOURCES.map(
  (s) => `\`${s.source}\`: revenue ${s.revenue.join(', ')}; cost ${s.cost.length ? s.cost.join(', ') : 'none'}`,
).join('. ');

/** The schemas of the firm's reports. */
export const schemas: Record<string, JsonSchema> = {
  AccountTotal: object(
    {
      account_code: ref('AccountCode'),
      name: { type: 'string' },
      account_type: { type: 'string', enum: ACCOUNT_TYPES },
      normal_side: { type: 'string', enum: ['debit', 'credit'] },
      dormant: { type: 'boolean' },
      debit: ref('Amount'),
      credit: ref('Amount'),
      net: { ...ref('SignedAmount'), description: 'debit − credit: positive for a debit balance.' },
      balance: { ...ref('SignedAmount'), description: 'The balance on the account’s normal side.' },
      line_count: { type: 'integer', minimum: 0 },
    },
    'One account of the chart with its running totals.',
  ),
  AccountTotals: object(
    { items: { type: 'array', items: ref('AccountTotal') } },
    'The chart of accounts with running totals.',
  ),
  TrialBalance: object(
    {
      accounts: {
        type: 'array',
        items: object(
          {
            account_code: ref('AccountCode'),
            name: { type: 'string' },
            account_type: { type: 'string', enum: ACCOUNT_TYPES },
            debit_balance: ref('Amount'),
            credit_balance: ref('Amount'),
          },
          'An account’s balance in the debit or the credit column.',
        ),
      },
      total_debit: ref('Amount'),
      total_credit: ref('Amount'),
      difference: { ...ref('SignedAmount'), description: 'total_debit − total_credit: zero when the books balance.' },
      balanced: { type: 'boolean' },
    },
    'The trial balance of the book.',
  ),
  RecentTxn: object(
    {
      txn_id: ref('TxnId'),
      txn_date: ref('Date'),
      ...timestamps('posted_at'),
      txn_type: ref('TxnType'),
      source: ref('Source'),
      customer_id: nullable('CustomerId'),
      symbol: nullable('Symbol'),
      amount_usd: ref('Amount'),
      reverses_txn_id: nullable('TxnId', 'The transaction this one reverses, if it is a reversal.'),
    },
    'One of the newest transactions of the window.',
  ),
  FirmSummary: object(
    {
      ...WINDOW_ECHO,
      total_deposits_usd: money(
        'Customers’ money in over the window: wallet (2010, 2020) credits less debits of posting kinds deposit and wire_in; a reversal counts against it on its own day.',
      ),
      total_withdrawals_usd: money(
        'Customers’ money out over the window: wallet debits less credits of posting kinds withdrawal and wire_out, net of reversals.',
      ),
      fees_revenue_usd: money(
        'Net credits of every revenue account (4010, 4020, 4030, 4040) over the window: the revenue_usd of GET /v1/firm/earnings.',
      ),
      aum_custody_usd: money('Securities in custody at cost (1200 + 1210) at the end of `to` (now without it).'),
      cash_usd: money(
        'The firm’s USD cash (1010 operating bank + 1100 omnibus cash at broker / custodian) at the end of `to`.',
      ),
      cash_aed_usd: money('The firm’s AED cash in USD (1020, converted at ingest at the AED peg) at the end of `to`.'),
      cash_aed: money('cash_aed_usd in AED at the peg (× aed_per_usd), rounded to fils.'),
      aed_per_usd: { ...ref('PositiveDecimal'), description: 'The AED peg this server converts at (AED_PER_USD).' },
      transaction_count: {
        type: 'integer',
        minimum: 0,
        description:
          'Transactions with a txn_date in the window (reversals and recost entries included): the sum of by_type’s counts.',
      },
      customer_count: { type: 'integer', minimum: 0, description: 'Every customer the book knows (not windowed).' },
      by_type: {
        type: 'array',
        description: 'Per txn_type with transactions in the window, by txn_type.',
        items: object(
          { txn_type: ref('TxnType'), count: { type: 'integer', minimum: 0 }, total_usd: ref('Amount') },
          'How many transactions of a type, and the sum of their amount_usd.',
        ),
      },
      flows: {
        type: 'array',
        maxItems: FLOW_DAYS_MAX,
        description: `Per day with customer money in or out in the window, oldest first; the newest ${FLOW_DAYS_MAX} such days at most (the totals cover every day).`,
        items: object(
          {
            day: ref('Date'),
            deposits_usd: money('As total_deposits_usd, for the day.'),
            withdrawals_usd: money('As total_withdrawals_usd, for the day.'),
          },
          'One day’s customer money in and out.',
        ),
      },
      recent: {
        type: 'array',
        maxItems: RECENT_TXNS_MAX,
        description: `The ${RECENT_TXNS_MAX} newest transactions of the window: latest txn_date first, then txn_id descending (posting order for the UUIDv7 ids the api makes).`,
        items: ref('RecentTxn'),
      },
    },
    'The firm at a glance: flows over the window (txn_date from `from` to `to`, inclusive; all time without them), balances at its end.',
  ),
  EarningsBySource: earnings('Revenue, cost and margin of one source.', true),
  FirmEarnings: object(
    {
      ...WINDOW_ECHO,
      sources: {
        type: 'array',
        items: ref('EarningsBySource'),
        description: `Every source, always, in this order. ${SOURCES_DESCRIPTION}.`,
      },
      revenue_usd: money('Over every source.'),
      cost_usd: money('Over every source.'),
      margin_usd: money('revenue_usd − cost_usd.'),
      months: {
        type: 'array',
        description:
          'Per calendar month with revenue or cost in the window, oldest first (a month cut by the window counts its days in it).',
        items: object(
          {
            month: { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', examples: ['2026-01'] },
            sources: { type: 'array', items: ref('EarningsBySource') },
            revenue_usd: money('Over every source.'),
            cost_usd: money('Over every source.'),
            margin_usd: money('revenue_usd − cost_usd.'),
          },
          'One month’s earnings.',
        ),
      },
    },
    'What the firm earned and spent, by source, from the revenue and expense accounts of the chart over the window (all time without one).',
  ),
};

export const paths: Paths = {
  '/v1/firm/accounts': {
    get: {
      operationId: 'getFirmAccounts',
      summary: 'The chart of accounts with running debit, credit, net and balance per account',
      tags: ['firm'],
      security: READ,
      parameters: [AS_OF],
      responses: {
        '200': { description: 'Every account of the chart.', content: json(ref('AccountTotals')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
  '/v1/firm/trial_balance': {
    get: {
      operationId: 'getTrialBalance',
      summary: 'The same totals in trial-balance shape; `balanced` is false only if the books are broken',
      tags: ['firm'],
      security: READ,
      parameters: [AS_OF],
      responses: {
        '200': { description: 'The trial balance.', content: json(ref('TrialBalance')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
  '/v1/firm/summary': {
    get: {
      operationId: 'getFirmSummary',
      summary:
        'Deposits, withdrawals, revenue, AUM at cost, cash, counts, by type, daily flows and the newest transactions',
      description:
        'Read from the daily aggregates, never the journal: its latency does not grow with the book. `to` before `from` is a 400.',
      tags: ['firm'],
      security: READ,
      parameters: WINDOW,
      responses: {
        '200': { description: 'The firm summary.', content: json(ref('FirmSummary')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
  '/v1/firm/earnings': {
    get: {
      operationId: 'getFirmEarnings',
      summary: 'Revenue, cost and margin by source (custodian, UAE partners, FX spread), in total and per month',
      description: 'Read from the daily aggregates of the revenue and expense accounts. `to` before `from` is a 400.',
      tags: ['firm'],
      security: READ,
      parameters: WINDOW,
      responses: {
        '200': { description: 'The firm’s earnings.', content: json(ref('FirmEarnings')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
};
