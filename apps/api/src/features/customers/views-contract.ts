import { ACCOUNT_TYPES, CURRENCIES } from '@ledger/core/posting';
import { EQUITY_CURVE_DAYS_MAX, STATEMENT_MOVEMENTS_MAX } from '@ledger/core/reports';
import { READ } from '../../openapi/security.js';
import { PATTERNS } from '../../openapi/patterns.js';
import {
  errorResponses,
  json,
  listEnvelope,
  nullable,
  object,
  paramRef,
  READ_ERRORS,
  ref,
} from '../../openapi/components.js';
import type { JsonSchema, Operation, Parameter, Paths, Reference } from '../../openapi/types.js';

const money = (description: string): JsonSchema => ({ ...ref('SignedAmount'), description });
const nullableMoney = (description: string): JsonSchema => ({
  type: ['string', 'null'],
  pattern: PATTERNS.signedAmount.pattern,
  description,
});

const positionFields: Record<string, JsonSchema> = {
  symbol: ref('Symbol'),
  quantity: { ...ref('SignedAmount'), description: 'Shares held: buys − sells; a reversed trade counts for nothing.' },
  cost_usd: money(
    'The lots’ cost still held: securities liability 2100 of the symbol (buy costs less recost’s FIFO relief).',
  ),
  average_cost_usd: nullableMoney('cost_usd ÷ quantity, to 6 places; null when nothing is held.'),
  pending_recost: {
    type: 'integer',
    minimum: 0,
    description:
      'Trades of the symbol not yet recosted: the cost relief of a pending sell is not in cost_usd until recost runs.',
  },
};

/** A list envelope that also names the customer and carries totals. */
function withTotals(envelope: JsonSchema, totals: JsonSchema): JsonSchema {
  return {
    ...envelope,
    required: ['customer_id', 'totals', ...(envelope.required ?? [])],
    properties: { customer_id: ref('CustomerId'), totals, ...envelope.properties },
  };
}

/** The schemas of the per-customer views (summary to trial balance). */
export const schemas: Record<string, JsonSchema> = {
  WalletBalance: object(
    {
      currency: { type: 'string', enum: CURRENCIES },
      account_code: ref('AccountCode'),
      balance: money(
        'What the firm owes the customer in this wallet, in the wallet’s currency: the AED wallet from its lines’ AED amounts, exact (a line posted before lines kept them: its USD at the configured peg).',
      ),
      balance_usd: money('What the firm owes the customer in this wallet (credits − debits), at its USD equivalent.'),
    },
    'One cash wallet of the customer.',
  ),
  CustomerSummary: object(
    {
      customer_id: ref('CustomerId'),
      as_of: { ...nullable('Date'), description: 'The day the balances stood at the end of; null: every posting.' },
      cash: {
        type: 'array',
        items: ref('WalletBalance'),
        description: 'Every wallet, USD then AED (zero when untouched).',
      },
      cash_total_usd: money('The wallets’ sum.'),
      securities_at_cost_usd: money('Securities liability 2100: the customer’s shares at the cost of their lots.'),
      total_usd: money('cash_total_usd + securities_at_cost_usd.'),
    },
    'A customer’s cash and securities at cost, from the journal.',
  ),
  CustomerOverview: object(
    {
      customer: ref('Customer'),
      summary: ref('CustomerSummary'),
      activity: object(
        {
          transaction_count: { type: 'integer', minimum: 0 },
          first_txn_date: nullable('Date'),
          last_txn_date: nullable('Date'),
          position_count: { type: 'integer', minimum: 0, description: 'Symbols with shares or cost held.' },
        },
        'How much the customer has done.',
      ),
      links: object(
        {
          uaefeed: { type: 'boolean' },
          custodian: { type: 'boolean' },
          usbroker: { type: 'boolean' },
          remit: { type: 'boolean' },
        },
        'Which upstreams name the customer (an upstream reference is set).',
      ),
    },
    'The customer, their balances and their activity at a glance.',
  ),
  CustomerPosition: object(positionFields, 'One symbol the customer holds, from the journal.'),
  CustomerPositions: object(
    {
      customer_id: ref('CustomerId'),
      as_of: nullable('Date'),
      items: { type: 'array', items: ref('CustomerPosition') },
    },
    'The customer’s positions, by symbol.',
  ),
  PortfolioPosition: object(
    {
      ...positionFields,
      price_usd: {
        ...nullable('Amount'),
        description: 'The last price known, per share in USD; null when none is (see unpriced_reason).',
      },
      market_value_usd: nullableMoney('quantity × price_usd, rounded to cents; null when no price is known.'),
      unpriced_reason: {
        type: ['string', 'null'],
        enum: ['no_snapshot', 'not_in_snapshot', 'no_market_value', null],
        description:
          'Why there is no price: no snapshot of the book’s upstream, the symbol is not in it, or it gives no market value.',
      },
    },
    'A position with its cost and, where a price is known, its market value (reporting only: the ledger is cost-only).',
  ),
  CustomerPortfolio: object(
    {
      customer_id: ref('CustomerId'),
      prices: {
        type: ['object', 'null'],
        description: 'Where the prices come from: the latest snapshot of the book’s upstream; null when there is none.',
        additionalProperties: false,
        required: ['upstream', 'as_of', 'taken_at'],
        properties: {
          upstream: { type: 'string', enum: ['custodian', 'usbroker'] },
          as_of: ref('Date'),
          taken_at: { type: 'string', format: 'date-time' },
        },
      },
      items: { type: 'array', items: ref('PortfolioPosition') },
      totals: object(
        {
          cost_usd: money('Σ cost_usd.'),
          market_value_usd: money('Σ market_value_usd of the priced positions.'),
          unpriced_count: { type: 'integer', minimum: 0 },
        },
        'Totals over the positions.',
      ),
    },
    'The customer’s positions at cost, with market value where a price is known.',
  ),
  CustomerDividends: withTotals(
    listEnvelope(
      ref('TransactionSummary'),
      'The customer’s dividend and withholding transactions, newest first, with totals over the window.',
    ),
    object(
      {
        gross_usd: money('Dividends credited to the wallet, net of reversals.'),
        withheld_usd: money('Tax withheld from the wallet (wht_tax), net of reversals.'),
        net_usd: money('gross_usd − withheld_usd.'),
      },
      'Over every transaction of the window, not only this page.',
    ),
  ),
  StatementMovement: object(
    {
      line_id: { type: 'string', pattern: '^[0-9]+$' },
      txn_id: ref('TxnId'),
      txn_date: ref('Date'),
      txn_type: ref('TxnType'),
      account_code: ref('AccountCode'),
      posting_kind: { type: ['string', 'null'] },
      symbol: { type: ['string', 'null'] },
      memo: { type: ['string', 'null'] },
      amount_usd: money('Credit − debit of the wallet line: positive when the customer’s cash grows.'),
      balance_usd: money('The wallets’ balance after this movement.'),
      currency: { type: 'string', enum: CURRENCIES, description: 'The currency of the line’s wallet.' },
      amount: money(
        'amount_usd in the wallet’s currency: an AED line’s AED amount, exact (a line posted before lines kept them: its USD at the configured peg).',
      ),
    },
    'One movement of the customer’s cash.',
  ),
  StatementWallet: object(
    {
      currency: { type: 'string', enum: CURRENCIES },
      account_code: ref('AccountCode'),
      opening_balance: money('The wallet’s balance at the end of the day before `from` (zero without `from`).'),
      movements_total: money('Σ amount of the window’s movements on this wallet.'),
      closing_balance: money(
        'opening_balance + movements_total: the wallet’s balance at the end of `to`, the summary’s `balance` at `as_of` = `to`.',
      ),
    },
    'One wallet over the statement’s window, in its own currency.',
  ),
  CustomerStatement: object(
    {
      customer_id: ref('CustomerId'),
      from: nullable('Date'),
      to: nullable('Date'),
      opening_balance_usd: money('The wallets’ balance at the end of the day before `from` (zero without `from`).'),
      movements: { type: 'array', items: ref('StatementMovement'), maxItems: STATEMENT_MOVEMENTS_MAX },
      movements_total_usd: money('Σ amount_usd of the movements.'),
      closing_balance_usd: money('opening_balance_usd + movements_total_usd: the balance at the end of `to`.'),
      wallets: {
        type: 'array',
        items: ref('StatementWallet'),
        description:
          'Every wallet, USD then AED, in its own currency: an AED wallet’s AED is exact, while its USD figures are sums of conversions.',
      },
    },
    `The customer’s cash statement: every wallet movement of the window (at most ${STATEMENT_MOVEMENTS_MAX}: a busier window is a 400).`,
  ),
  EquityCurve: object(
    {
      customer_id: ref('CustomerId'),
      from: nullable('Date'),
      to: nullable('Date'),
      points: {
        type: 'array',
        maxItems: EQUITY_CURVE_DAYS_MAX,
        items: object(
          {
            day: ref('Date'),
            cash_usd: money('The wallets at the end of the day.'),
            cost_basis_usd: money('Securities at cost (2100) at the end of the day.'),
            total_usd: money('cash_usd + cost_basis_usd.'),
          },
          'The customer’s cash and cost basis at the end of one day.',
        ),
      },
    },
    `One point per day of the window (default: the customer’s first to last day of activity; at most ${EQUITY_CURVE_DAYS_MAX} days).`,
  ),
  CustomerTrialBalance: object(
    {
      customer_id: ref('CustomerId'),
      as_of: nullable('Date'),
      accounts: {
        type: 'array',
        items: object(
          {
            account_code: ref('AccountCode'),
            name: { type: 'string' },
            account_type: { type: 'string', enum: ACCOUNT_TYPES },
            debit: ref('Amount'),
            credit: ref('Amount'),
            debit_balance: ref('Amount'),
            credit_balance: ref('Amount'),
          },
          'An account the customer’s lines touch: its totals and its balance in the debit or the credit column.',
        ),
      },
      total_debit: ref('Amount'),
      total_credit: ref('Amount'),
      balanced: {
        type: 'boolean',
        description: 'Every transaction’s lines all carry its customer, so the customer’s lines balance too.',
      },
    },
    'The customer’s accounts in trial-balance shape.',
  ),
};

const ASOF = [paramRef('CustomerIdPath'), paramRef('AsOf')];
const WINDOW = [paramRef('CustomerIdPath'), paramRef('From'), paramRef('To')];

/** A GET of one customer's view; an unknown customer is a 404. */
export function customerView(
  operationId: string,
  summary: string,
  schema: string,
  parameters: Array<Parameter | Reference>,
  description?: string,
  extraErrors: Parameters<typeof errorResponses> = [],
): { get: Operation } {
  return {
    get: {
      operationId,
      summary,
      ...(description !== undefined && { description }),
      tags: ['customers'],
      security: READ,
      parameters,
      responses: {
        '200': { description: summary, content: json(ref(schema)) },
        ...errorResponses(...READ_ERRORS, 'NotFound', ...extraErrors),
      },
    },
  };
}

export const paths: Paths = {
  '/v1/customers/{customer_id}/summary': customerView(
    'getCustomerSummary',
    'Wallet cash by currency, securities at cost, totals',
    'CustomerSummary',
    ASOF,
  ),
  '/v1/customers/{customer_id}/overview': customerView(
    'getCustomerOverview',
    'The customer, their summary and activity',
    'CustomerOverview',
    [paramRef('CustomerIdPath')],
  ),
  '/v1/customers/{customer_id}/portfolio': customerView(
    'getCustomerPortfolio',
    'Positions at cost, with market value where a price is known',
    'CustomerPortfolio',
    [paramRef('CustomerIdPath')],
    'Prices come from the latest snapshot of the book’s upstream (custodian on the UAE book, converted from AED at the peg; usbroker on the India book); no upstream is called.',
  ),
  '/v1/customers/{customer_id}/positions': customerView(
    'getCustomerPositions',
    'Positions by symbol: quantity and cost',
    'CustomerPositions',
    ASOF,
  ),
  '/v1/customers/{customer_id}/dividends': customerView(
    'getCustomerDividends',
    'Dividend and withholding transactions, with totals',
    'CustomerDividends',
    [...WINDOW, paramRef('Limit'), paramRef('Offset')],
  ),
  '/v1/customers/{customer_id}/orders': customerView(
    'getCustomerOrders',
    'The customer’s trades (buys and sells), newest first',
    'TransactionPage',
    [...WINDOW, paramRef('SymbolFilter'), paramRef('Limit'), paramRef('Offset')],
  ),
  '/v1/customers/{customer_id}/statement': customerView(
    'getCustomerStatement',
    'Cash statement: opening balance, every movement, closing balance',
    'CustomerStatement',
    WINDOW,
  ),
  '/v1/customers/{customer_id}/equity_curve': customerView(
    'getCustomerEquityCurve',
    'Daily cash and cost basis',
    'EquityCurve',
    WINDOW,
  ),
  '/v1/customers/{customer_id}/trial_balance': customerView(
    'getCustomerTrialBalance',
    'The customer’s accounts in trial-balance shape',
    'CustomerTrialBalance',
    ASOF,
  ),
};
