import { USBROKER_PAGE_LIMIT_MAX } from '@ledger/upstream-clients';
import { nullable, object, paramRef, ref } from '../../openapi/components.js';
import { PATTERNS } from '../../openapi/patterns.js';
import type { JsonSchema, Parameter, Paths } from '../../openapi/types.js';
import { customerView } from './views-contract.js';

const text = { type: 'string' } as const satisfies JsonSchema;
const textOrNull = { type: ['string', 'null'] } as const satisfies JsonSchema;
/** An upstream's decimal, sign kept, as it sent it. */
const decimal: JsonSchema = { type: 'string', pattern: PATTERNS.signedAmount.pattern };
const decimalOrNull: JsonSchema = { type: ['string', 'null'], pattern: PATTERNS.signedAmount.pattern };
const instant: JsonSchema = { type: 'string', format: 'date-time' };
const instantOrNull: JsonSchema = { type: ['string', 'null'], format: 'date-time' };

/** What every live broker view says besides its data: whose account, whether it could be read, when. */
const brokerViewFields: Record<string, JsonSchema> = {
  customer_id: ref('CustomerId'),
  account_no: {
    ...textOrNull,
    description: 'The customer’s usbroker account; null when none is linked (or on the UAE book).',
  },
  available: {
    type: 'boolean',
    description:
      'False on the UAE book (no US broker) and for a customer without a broker account: the data is then empty.',
  },
  reason: { ...textOrNull, description: 'Why the data is empty; null when it was read.' },
  fetched_at: { ...instantOrNull, description: 'When the broker answered.' },
};

const brokerView = (field: string, data: JsonSchema, description: string) =>
  object(
    { ...brokerViewFields, [field]: data },
    `${description} Read live from usbroker, read-only; not configured or unreachable on the India book: 503 \`upstream_unavailable\`.`,
  );

const usbrokerBalance = object(
  {
    cash: decimal,
    cash_withdrawable: decimal,
    buying_power: decimal,
    pending_deposits: decimal,
    currency: text,
    as_of: instant,
  },
  'The broker’s balance of the account, as it sent it.',
);
const usbrokerPosition = object(
  { symbol: text, cusip: textOrNull, qty: decimal, avg_cost: decimal, cost_basis: decimal, market_value: decimal },
  'A position as the broker reports it.',
);
const usbrokerOrder = object(
  {
    order_id: text,
    client_order_id: textOrNull,
    symbol: text,
    side: { type: 'string', enum: ['BUY', 'SELL'] },
    qty: decimalOrNull,
    notional: decimalOrNull,
    filled_qty: decimal,
    avg_fill_price: decimalOrNull,
    status: text,
    submitted_at: instant,
    filled_at: instantOrNull,
    cost_type: { type: 'string', enum: ['quantity', 'full_portfolio_cost'] },
  },
  'An order as the broker reports it.',
);
const usbrokerStatement = object(
  {
    account_no: text,
    month: text,
    currency: text,
    opening_cash: decimal,
    closing_cash: decimal,
    activity: {
      type: 'array',
      items: object(
        {
          date: ref('Date'),
          txn_no: text,
          row_code: text,
          symbol: textOrNull,
          description: textOrNull,
          amount: decimal,
        },
        'One line of the statement; amount positive credits the client.',
      ),
    },
  },
  'The broker’s monthly statement of the account.',
);

const holdingsPosition = object(
  {
    symbol: text,
    quantity: decimal,
    cost: { ...decimalOrNull, description: 'Cost basis in the snapshot’s currency, when the upstream states it.' },
    market_value: {
      ...decimalOrNull,
      description: 'Market value in the snapshot’s currency, when the upstream states it.',
    },
  },
  'A position as the upstream reported it.',
);

/** The schemas of the views that read an upstream (holdings, the raw broker views; ledger-recon's is the India reports' CustomerLedgerRecon). */
export const schemas: Record<string, JsonSchema> = {
  CustomerHoldings: object(
    {
      customer_id: ref('CustomerId'),
      upstream: {
        type: 'string',
        enum: ['custodian', 'usbroker'],
        description: 'The book’s holdings upstream: custodian (UAE) or usbroker (India).',
      },
      account: { ...textOrNull, description: 'The customer’s account there; null when none is linked.' },
      source: {
        type: 'string',
        enum: ['live', 'cache', 'none'],
        description:
          '`live`: read from the upstream now (and cached); `cache`: the upstream could not be read, this is the last snapshot kept; `none`: neither.',
      },
      reason: {
        ...textOrNull,
        description: 'Why it is not live (not configured, no account linked, the upstream’s failure); null when live.',
      },
      as_of: { ...nullable('Date'), description: 'The day the holdings are at the end of.' },
      taken_at: { ...instantOrNull, description: 'When they were read from the upstream.' },
      currency: {
        ...textOrNull,
        description: 'The currency of cost, market value and cash (AED at the custodian, USD at the broker).',
      },
      positions: { type: 'array', items: holdingsPosition },
      cash: { type: ['object', 'null'], description: 'The upstream’s cash fields as it sent them (decimal strings).' },
    },
    'The customer’s holdings at the upstream: live when it answers, else the snapshot cache, saying so.',
  ),
  UsbrokerBalanceView: brokerView(
    'balance',
    { anyOf: [usbrokerBalance, { type: 'null' }] },
    'The broker’s balance of the customer’s account.',
  ),
  UsbrokerOrdersView: brokerView(
    'orders',
    { type: 'array', items: usbrokerOrder },
    'One page of the broker’s orders of the account, ascending by id.',
  ),
  UsbrokerPortfolioView: brokerView(
    'positions',
    { type: 'array', items: usbrokerPosition },
    'The broker’s positions of the account.',
  ),
  UsbrokerStatementView: brokerView(
    'statement',
    { anyOf: [usbrokerStatement, { type: 'null' }] },
    'The broker’s monthly statement of the account.',
  ),
};

const customer = paramRef('CustomerIdPath');
const afterId: Parameter = {
  name: 'after_id',
  in: 'query',
  description: 'Orders strictly after this order id (the broker’s cursor).',
  schema: { type: 'string', minLength: 1, maxLength: 128, pattern: PATTERNS.printable.pattern, examples: ['ORD-1'] },
};
const pageLimit: Parameter = {
  name: 'limit',
  in: 'query',
  description: `At most this many orders (1 to ${USBROKER_PAGE_LIMIT_MAX}).`,
  schema: { type: 'integer', minimum: 1, maximum: USBROKER_PAGE_LIMIT_MAX, default: USBROKER_PAGE_LIMIT_MAX },
};
const month: Parameter = {
  name: 'month',
  in: 'query',
  description: 'The month, YYYY-MM; absent: the current month (UTC).',
  schema: { type: 'string', pattern: '^(19|20|21)[0-9]{2}-(0[1-9]|1[0-2])$', examples: ['2026-01'] },
};

const RAW =
  'India book: read live from usbroker, never stored. On the UAE book, or for a customer without a broker account, 200 with `available` false and empty data.';

export const paths: Paths = {
  '/v1/customers/{customer_id}/holdings': customerView(
    'getCustomerHoldings',
    'Holdings at the upstream: live, else the snapshot cache',
    'CustomerHoldings',
    [customer],
    'The book’s holdings upstream (custodian on UAE, usbroker on India) is read live when it is configured, the customer is linked and it answers; the read is saved as the customer’s cached portfolio. Otherwise the last cached portfolio (or holdings snapshot) answers with `source` `cache` and the reason; with neither, `source` `none` and empty positions.',
  ),
  '/v1/customers/{customer_id}/ledger-recon': customerView(
    'getCustomerLedgerRecon',
    'India: ledger cash and shares versus the live broker',
    'CustomerLedgerRecon',
    [customer],
    'Cash to the cent and share counts exactly (cost is on different bases and only shown): the comparison of GET /v1/india/ledger-recon. A broker that is not configured or does not answer is status `error` with the message (never a 5xx); on the UAE book the status is `not_applicable`.',
  ),
  '/v1/customers/{customer_id}/usbroker-balance': customerView(
    'getCustomerUsbrokerBalance',
    'India, raw: the broker’s balance',
    'UsbrokerBalanceView',
    [customer],
    RAW,
    ['UpstreamUnavailable'],
  ),
  '/v1/customers/{customer_id}/usbroker-orders': customerView(
    'getCustomerUsbrokerOrders',
    'India, raw: one page of the broker’s orders',
    'UsbrokerOrdersView',
    [customer, afterId, pageLimit],
    RAW,
    ['UpstreamUnavailable'],
  ),
  '/v1/customers/{customer_id}/usbroker-portfolio': customerView(
    'getCustomerUsbrokerPortfolio',
    'India, raw: the broker’s positions',
    'UsbrokerPortfolioView',
    [customer],
    RAW,
    ['UpstreamUnavailable'],
  ),
  '/v1/customers/{customer_id}/usbroker-statement': customerView(
    'getCustomerUsbrokerStatement',
    'India, raw: the broker’s monthly statement',
    'UsbrokerStatementView',
    [customer, month],
    RAW,
    ['UpstreamUnavailable'],
  ),
};
