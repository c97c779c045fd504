import { FY_PATTERN_SOURCE, FY_RULE } from '@ledger/india';
import { errorResponses, json, object, READ_ERRORS, ref } from '../../openapi/components.js';
import { READ } from '../../openapi/security.js';
import type { JsonSchema, Parameter, Paths } from '../../openapi/types.js';
import { COMPLIANCE_STATUSES } from './compliance.js';
import {
  CASH_STATUSES,
  REMITTANCE_TIE_OUT_STATUSES,
  SHARE_STATUSES,
  TIE_OUT_STATUSES,
  WIRE_TIE_OUT_STATUSES,
} from '@ledger/reconciliation';
import { HOLDINGS_CUSTOMER_STATUSES } from './holdings-recon.js';
import { LEDGER_RECON_STATUSES } from './ledger-recon.js';
import { NAV_STATUSES } from './nav.js';
import { RECON_CUSTOMER_STATUSES } from './reconciliation.js';
import { EXCEPTION_CATEGORIES, NON_PAID_STATUSES } from './remittance-exceptions.js';

const TAG = 'india-live';
const money = (description: string): JsonSchema => ({ ...ref('SignedAmount'), description });
const moneyOrNull = (description: string): JsonSchema => ({
  type: ['string', 'null'],
  pattern: '^-?[0-9]+(\\.[0-9]+)?$',
  description,
});
const text: JsonSchema = { type: 'string' };
const textOrNull: JsonSchema = { type: ['string', 'null'] };
const count: JsonSchema = { type: 'integer', minimum: 0 };
const instant: JsonSchema = { type: 'string', format: 'date-time' };
const instantOrNull: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const customerId = ref('CustomerId');
const accountNo: JsonSchema = {
  ...textOrNull,
  description: 'The customer’s usbroker account; null when none is linked.',
};
const errorText: JsonSchema = {
  ...textOrNull,
  description: 'Why the broker could not be read (status `error`); null otherwise.',
};
const list = (items: JsonSchema, description: string): JsonSchema => ({ type: 'array', items, description });
const counts = (keys: readonly string[], description: string) =>
  object(Object.fromEntries(keys.map((k) => [k, count])), description);
const status = (values: readonly string[], description: string): JsonSchema => ({
  type: 'string',
  enum: [...values],
  description,
});
const warnings: JsonSchema = list(
  text,
  'What the report could not do, in words (a customer not read, a price missing); empty when complete.',
);

const flow = object({ count, usd: money('Σ amount_usd.') }, 'How many transactions and their USD.');
const brokerEarnings = {
  brokerage_revenue_usd: money('Brokerage revenue (4010, credits − debits).'),
  brokerage_cost_usd: money('Brokerage cost paid to the broker (5010, debits − credits).'),
  brokerage_margin_usd: money('Revenue − cost.'),
};
const brokerFlows = Object.fromEntries(
  ['wires_in', 'wires_out', 'buys', 'sells', 'dividends', 'withholdings', 'broker_fees'].map((name) => [name, flow]),
);

const shareTieOut = object(
  {
    symbol: text,
    status: status(
      SHARE_STATUSES,
      'What `usbroker_holdings_recon` decides for this symbol: `match`: equal within RECON_QUANTITY_TOLERANCE (default 0); `mismatch`: both hold, differently; `ledger_only` / `usbroker_only`: held on that side alone.',
    ),
    ledger_quantity: money('Shares in the ledger (buys − sells, reversals undone).'),
    usbroker_quantity: money('Shares in the broker’s position.'),
    difference: money('usbroker − ledger.'),
  },
  'One symbol’s share count, ledger against broker, by the matcher of `usbroker_holdings_recon`.',
);

const navPosition = object(
  {
    symbol: text,
    quantity: money('Shares in the ledger.'),
    cost_usd: money('Cost still held (2100: FIFO lots, fees excluded).'),
    price_usd: {
      ...textOrNull,
      description: 'The broker’s last price; null when it has none (the position is then not valued).',
    },
    market_value_usd: moneyOrNull('quantity × price, to the cent; null without a price.'),
    unrealized_pnl_usd: moneyOrNull('market value − cost; null without a price.'),
  },
  'A position marked to market.',
);

const navFigures = {
  cash_usd: money('The USD wallet (2010).'),
  cost_usd: money('Securities at cost (2100).'),
  market_value_usd: moneyOrNull('Σ market value of the priced positions; null unless valued.'),
  unrealized_pnl_usd: moneyOrNull('Σ (market value − cost) of the priced positions; null unless valued.'),
  nav_usd: moneyOrNull('cash + market value; null unless valued.'),
};

const remitMoney = object(
  { currency: text, amount: money('Major units of the currency.') },
  'An amount in a currency.',
);

/** The schemas of the live India reports (and the one ledger-against-broker comparison the customer view shares). */
export const schemas: Record<string, JsonSchema> = {
  CustomerLedgerRecon: object(
    {
      customer_id: customerId,
      status: status(
        LEDGER_RECON_STATUSES,
        '`match`: cash and every share count match (within the recon tolerances, default exact); `mismatch`: not (see difference); `error`: the broker could not be read (see error); `no_link`: no broker account; `not_applicable`: the UAE book.',
      ),
      account_no: accountNo,
      ledger: object(
        {
          cash_usd: money('The USD wallet (2010).'),
          securities_at_cost_usd: money('Securities liability (2100): FIFO lots, fees excluded. Shown, not compared.'),
        },
        'The customer’s balances in the ledger.',
      ),
      broker: {
        type: ['object', 'null'],
        additionalProperties: false,
        required: ['cash', 'securities_cost_basis', 'market_value', 'as_of'],
        properties: {
          cash: money('The broker’s cash, as it sent it.'),
          securities_cost_basis: money(
            'Σ cost_basis of the broker’s positions: average cost with its bundled fees. Shown, not compared.',
          ),
          market_value: money('Σ market_value of the broker’s positions. Shown, not compared.'),
          as_of: instant,
        },
        description: 'The broker’s live figures; null when not read.',
      },
      difference: {
        type: ['object', 'null'],
        additionalProperties: false,
        required: ['cash_usd', 'cash_status', 'shares'],
        properties: {
          cash_usd: money('Ledger cash − broker cash.'),
          cash_status: status(
            CASH_STATUSES,
            'What `usbroker_ledger_recon` decides for this cash: `match` within RECON_MONEY_TOLERANCE_USD (default 0), else `mismatch`.',
          ),
          shares: list(ref('ShareTieOut'), 'The symbols whose share counts differ (none when they all match).'),
        },
        description: 'What differs; null when the broker was not read.',
      },
      error: errorText,
    },
    'A customer’s ledger against the live broker, like with like: cash and share counts, by the matchers of `usbroker_ledger_recon` and `usbroker_holdings_recon`. Cost is on different bases (the ledger’s FIFO lots without fees, the broker’s average cost with fees) and is shown, never compared.',
  ),
  ShareTieOut: shareTieOut,
  UsbrokerOverview: object(
    {
      totals: object(
        { customers: count, ...brokerFlows, ...brokerEarnings },
        'The firm: every broker-linked customer.',
      ),
      customers: list(
        object(
          { customer_id: customerId, account_no: text, ...brokerFlows, ...brokerEarnings },
          'One broker-linked customer.',
        ),
        'Per broker-linked customer, by id.',
      ),
      recent: list(ref('RecentTxn'), 'The newest transactions of source usbroker.'),
    },
    'The broker leg as posted: funding wires, trades, dividends, withholding and account fees (count and USD of the usbroker transactions, reversals not netted), brokerage revenue and cost after recost.',
  ),
  RemitOverview: object(
    {
      fy: {
        ...text,
        description:
          'The financial year of `fy_totals` and `pans` (`YYYY-YY`): as asked, else the current one. `totals`, `by_status` and `customers` are all time.',
      },
      fy_totals: object(
        {
          paid: count,
          paid_usd: money('USD of the orders paid in `fy`.'),
          paid_inr: money('INR of the orders paid in `fy`.'),
          tcs_inr: money('TCS collected on them (INR).'),
        },
        'The remittances paid in `fy` (by their remittance date): the sums of `pans`.',
      ),
      totals: object(
        {
          orders: count,
          paid: count,
          paid_usd: money('USD of the paid orders.'),
          paid_inr: money('INR of the paid orders.'),
          tcs_inr: money('TCS collected on the paid orders (INR).'),
          fx_spread_revenue_usd: money('FX-spread revenue (4030).'),
          fx_receivable_usd: money('FX-spread margin remit has not settled yet (1300).'),
        },
        'Every remittance stored, all time (not only `fy`: `fy_totals` are the year’s).',
      ),
      by_status: list(
        object(
          { status: text, count, amount_inr: money('INR.'), amount_usd: money('USD (orders priced).') },
          'Orders of one status.',
        ),
        'Per remit status, all time.',
      ),
      customers: list(
        object(
          {
            customer_id: customerId,
            remit_customer_id: text,
            orders: count,
            paid: count,
            paid_usd: money('USD paid.'),
            paid_inr: money('INR paid.'),
            tcs_inr: money('TCS collected.'),
          },
          'One customer’s remittances.',
        ),
        'Per customer, by id, all time.',
      ),
      pans: list(
        object(
          {
            pan: textOrNull,
            customers: count,
            remittances: count,
            remitted_usd: money('USD.'),
            remitted_inr: money('INR.'),
            tcs_inr: money('TCS collected.'),
          },
          'One PAN’s paid remittances in the financial year (LRS is per PAN; null: remittances without a PAN).',
        ),
        'Per PAN, paid in `fy` (GET /v1/india/lrs weighs them against the LRS limit).',
      ),
      recent: list(
        object(
          {
            order_id: text,
            customer_id: customerId,
            status: text,
            amount_inr: money('INR.'),
            amount_usd: moneyOrNull('USD; null before a quote prices it.'),
            remitted_on: ref('Date'),
            created_at: instant,
          },
          'A remittance.',
        ),
        'The newest remittances by creation.',
      ),
    },
    'The remittance leg as sync-remit stored it.',
  ),
  RemitTreasury: object(
    {
      configured: {
        type: 'boolean',
        description:
          'False when remit is not configured or did not answer (or on the UAE book): the figures are then empty.',
      },
      warning: { ...textOrNull, description: 'Why `configured` is false; null otherwise.' },
      fetched_at: instantOrNull,
      balances: object(
        {
          available: list(remitMoney, 'Available.'),
          pending: list(remitMoney, 'Pending.'),
          deficit: list(remitMoney, 'Deficit.'),
        },
        'remit’s merchant balance per currency, as it sent it.',
      ),
      mid_rate: {
        type: ['object', 'null'],
        additionalProperties: false,
        required: ['from', 'to', 'rate'],
        properties: {
          from: text,
          to: text,
          rate: { ...ref('Decimal'), description: 'USD per INR, as remit sent it.' },
        },
        description: 'remit’s live INR→USD mid-market rate; null when not read.',
      },
    },
    'The remittance provider’s merchant balance and live mid rate: read-only, never posted, not a customer balance.',
  ),
  NavSummary: object(
    {
      firm: object(
        { customers: counts(NAV_STATUSES, 'Customers per status.'), ...navFigures },
        'Σ over the customers valued.',
      ),
      customers: list(
        object(
          {
            customer_id: customerId,
            account_no: accountNo,
            status: status(
              NAV_STATUSES,
              '`valued`: priced at the broker’s last prices; `no_link`: no broker account; `error`: the broker could not be read.',
            ),
            error: errorText,
            ...navFigures,
            unpriced_symbols: list(text, 'Symbols held that the broker gave no price for: left out of market value.'),
            positions: list(navPosition, 'Each symbol held, by symbol (valued customers only).'),
          },
          'One customer’s NAV.',
        ),
        'Every India customer, by id.',
      ),
      warnings,
    },
    'Net asset value marked to market (reporting only: the ledger is cost-only): the ledger’s shares at the broker’s last prices plus the ledger’s cash.',
  ),
  HoldingsReconSummary: object(
    {
      totals: object(
        {
          customers: counts(HOLDINGS_CUSTOMER_STATUSES, 'Customers per status.'),
          symbols: counts(SHARE_STATUSES, 'Symbols per status, over the customers compared.'),
        },
        'Counts.',
      ),
      customers: list(
        object(
          {
            customer_id: customerId,
            account_no: accountNo,
            status: status(
              HOLDINGS_CUSTOMER_STATUSES,
              '`compared`; `no_link`: no broker account; `error`: the broker could not be read.',
            ),
            error: errorText,
            symbols: list(ref('ShareTieOut'), 'Every symbol held on either side, by symbol.'),
          },
          'One customer’s share counts.',
        ),
        'Every India customer, by id.',
      ),
    },
    'Per (customer, symbol), the ledger’s share count against the broker’s live position.',
  ),
  FirmLedgerRecon: object(
    {
      totals: object(
        {
          customers: counts(LEDGER_RECON_STATUSES, 'Customers per status.'),
          ledger_cash_usd: money('Σ ledger cash of the customers read.'),
          broker_cash_usd: money('Σ broker cash of the customers read.'),
          cash_difference_usd: money('Σ (ledger − broker) cash.'),
        },
        'Counts and cash totals.',
      ),
      customers: list(
        ref('CustomerLedgerRecon'),
        'Every India customer, by id: the comparison of GET /v1/customers/{customer_id}/ledger-recon.',
      ),
    },
    'Every India customer’s ledger cash and shares against the live broker.',
  ),
  IndiaReconResponse: object(
    {
      window_days: {
        ...count,
        description:
          'RECON_TIE_OUT_DAY_WINDOW, the window of `lrs_usbroker_tie_out`: a wire may carry a remittance from its date through this many days after the later of its date and its settlement’s.',
      },
      as_of: ref('Date'),
      totals: object(
        {
          customers: counts(RECON_CUSTOMER_STATUSES, 'Customers per status.'),
          remittances: counts(
            TIE_OUT_STATUSES,
            'Remittances per status, and wires carrying none (`unmatched_funding`).',
          ),
          remitted_usd: money('Σ USD of the paid remittances.'),
          matched_usd: money('Σ USD of those matched to a wire.'),
        },
        'Counts and totals.',
      ),
      customers: list(
        object(
          {
            customer_id: customerId,
            account_no: accountNo,
            status: status(
              RECON_CUSTOMER_STATUSES,
              '`compared`; `no_link`: no broker account; `error`: the broker could not be read.',
            ),
            error: errorText,
            remittances: count,
            remitted_usd: money('Σ USD of the customer’s paid remittances.'),
            wired_usd: moneyOrNull('Σ completed funding wires into the account; null unless compared.'),
            matched_usd: moneyOrNull('Σ USD of the remittances matched; null unless compared.'),
            counts: counts(TIE_OUT_STATUSES, 'The customer’s remittances per status, and wires carrying none.'),
          },
          'One customer’s tie-out.',
        ),
        'Every India customer with a broker account or a paid remittance, by id.',
      ),
      remittances: list(
        object(
          {
            order_id: text,
            customer_id: customerId,
            amount_usd: money(
              'The order’s USD: its quote’s `to.amount` (never a settlement’s, which may batch several orders).',
            ),
            remitted_on: {
              ...ref('Date'),
              description:
                'Its paid payment’s `created_at` in IST, else the order’s: the date the LRS report gives it.',
            },
            settled_on: {
              ...textOrNull,
              format: 'date',
              description: 'The day (IST) remit settled the FX spread; null while it has not.',
            },
            status: status(
              REMITTANCE_TIE_OUT_STATUSES,
              '`matched`: a wire carried it; `in_transit`: none yet, within its window; `aged_in_transit`: none, its window past (a `remitted_not_wired` variance of `lrs_usbroker_tie_out`).',
            ),
            window_ends_on: {
              ...ref('Date'),
              description:
                'The last value date of a wire that may carry it: window_days after the later of remitted_on and settled_on (as_of while not settled).',
            },
            transfer_id: { ...textOrNull, description: 'The wire that carried it.' },
            wire_value_date: { ...textOrNull, format: 'date' },
            days: {
              type: 'integer',
              description: 'Days from remitted_on to the wire’s value date (matched), or to as_of.',
            },
            unmatched_wires: list(
              object(
                { transfer_id: text, amount_usd: money('The wire’s USD.'), value_date: ref('Date') },
                'A wire that carried no remittance.',
              ),
              'Not matched: the customer’s wires valued in its window that carried nothing (the ones to look at); empty when matched.',
            ),
          },
          'One paid remittance of a compared customer.',
        ),
        'Per remittance, by customer and date.',
      ),
      wires: list(
        object(
          {
            transfer_id: text,
            customer_id: customerId,
            amount_usd: money('The wire’s USD.'),
            value_date: ref('Date'),
            status: status(
              WIRE_TIE_OUT_STATUSES,
              '`matched`: it carries the remittances of `order_ids`, whose USD adds up to its amount; `unmatched_funding`: no set of them does (the customer’s own funding, or a wire that does not add up).',
            ),
            order_ids: list(text, 'Every order the wire carries, oldest first; empty when unmatched.'),
          },
          'One completed funding wire into a compared customer’s account.',
        ),
        'Per completed wire in, by customer and value date.',
      ),
      unmatched_funding: list(
        object(
          {
            transfer_id: text,
            customer_id: customerId,
            amount_usd: money('The wire’s USD.'),
            value_date: ref('Date'),
            status: status(['unmatched_funding'], 'Always `unmatched_funding`.'),
          },
          'A completed funding wire no remittance adds up to.',
        ),
        'Wires carrying no remittance (the customer’s own funding, or a mistake).',
      ),
    },
    'The LRS-to-broker tie-out: paid remittances against the funding wires completed into each customer’s broker account, matched by customer, sums of amounts and a day window, by the matcher of `lrs_usbroker_tie_out` (docs/india-live-reports.md).',
  ),
  FirmCompliance: object(
    {
      totals: counts(COMPLIANCE_STATUSES, 'Customers per status.'),
      customers: list(
        object(
          {
            customer_id: customerId,
            account_no: accountNo,
            pan: textOrNull,
            status: status(
              COMPLIANCE_STATUSES,
              'The broker account’s status, read live; `no_link`: no broker account; `error`: the broker could not be read.',
            ),
            error: errorText,
            lrs: {
              anyOf: [
                object(
                  {
                    fy: text,
                    remitted_usd: money('USD of the PAN’s paid remittances in the FY through this book.'),
                    declared_prior_usd: money(
                      'USD the PAN declared it remitted elsewhere in the FY (PUT /v1/india/lrs/prior-usage/{pan}).',
                    ),
                    lrs_used_share: { ...ref('Amount'), description: '(remitted + declared) / the LRS limit.' },
                    lrs_headroom_usd: money('What is left of the LRS limit.'),
                    status: status(['ok', 'warn', 'breach'], '`warn` from 80 % of the limit, `breach` from 100 %.'),
                  },
                  'The customer’s PAN’s LRS use in the current FY (IST), every bank counted as declared.',
                ),
                { type: 'null' },
              ],
              description: 'Null when the customer has no PAN.',
            },
          },
          'One customer’s broker account status and LRS use.',
        ),
        'Every India customer, by id.',
      ),
    },
    'Each India customer’s broker account status.',
  ),
  RemittanceExceptionSummary: object(
    {
      warning: {
        ...textOrNull,
        description: 'Why the snapshot is empty (remit not configured or unreachable, the UAE book); null when read.',
      },
      fetched_at: instantOrNull,
      total: count,
      by_category: counts(EXCEPTION_CATEGORIES, 'Orders per category.'),
      by_customer: list(
        object(
          {
            customer_id: {
              ...textOrNull,
              description: 'The book’s customer; null when remit’s customer is not linked.',
            },
            remit_customer_id: text,
            total: count,
            by_category: counts(EXCEPTION_CATEGORIES, 'Per category.'),
          },
          'One remit customer’s exceptions.',
        ),
        'Per remit customer.',
      ),
      items: list(
        object(
          {
            order_id: text,
            category: status(
              EXCEPTION_CATEGORIES,
              'Actionable first: failed, action_required, under_review; then pending (remit `active`), expired, cancelled.',
            ),
            status: status(NON_PAID_STATUSES, 'remit’s order status.'),
            customer_id: {
              ...textOrNull,
              description: 'The book’s customer; null when remit’s customer is not linked.',
            },
            remit_customer_id: text,
            amount_inr: money('INR.'),
            purpose_code: textOrNull,
            reference_number: textOrNull,
            created_at: instant,
            updated_at: instant,
            age_days: count,
          },
          'A non-paid order.',
        ),
        'Every non-paid order, by category then oldest first.',
      ),
    },
    'Every remit order that is not paid, read live.',
  ),
};

const report = (
  operationId: string,
  summary: string,
  schema: string,
  description: string,
  parameters: Parameter[] = [],
) => ({
  get: {
    operationId,
    summary,
    description: `${description} Available on both books: on the UAE book the same shape, zero-valued.`,
    tags: [TAG],
    security: READ,
    parameters,
    responses: { '200': { description: summary, content: json(ref(schema)) }, ...errorResponses(...READ_ERRORS) },
  },
});

const LIVE = `Read live from usbroker, read-only, \`INDIA_LIVE_CONCURRENCY\` customers at a time (default 8); a customer whose broker read fails is status \`error\` with the message, and the others are answered.`;

export const paths: Paths = {
  '/v1/india/usbroker': report(
    'getIndiaUsbroker',
    'India: the broker leg overview',
    'UsbrokerOverview',
    'From the ledger (no upstream call).',
  ),
  '/v1/india/remit': report(
    'getIndiaRemit',
    'India: the remittance leg overview',
    'RemitOverview',
    'From the stored remittances and the ledger (no upstream call).',
    [
      {
        name: 'fy',
        in: 'query',
        description: 'The financial year of the per-PAN figures. Default: the FY of today’s date in India (IST).',
        schema: {
          type: 'string',
          pattern: FY_PATTERN_SOURCE,
          description: `The financial year (1 April – 31 March): ${FY_RULE}.`,
          examples: ['2024-25'],
        },
      },
    ],
  ),
  '/v1/india/treasury': report(
    'getIndiaTreasury',
    'India: remit’s merchant balance and live mid rate',
    'RemitTreasury',
    'Read live from remit, read-only; remit not configured or unreachable: `configured` false with a warning.',
  ),
  '/v1/india/nav': report('getIndiaNav', 'India: NAV per customer and firm, marked to market', 'NavSummary', LIVE),
  '/v1/india/holdings-recon': report(
    'getIndiaHoldingsRecon',
    'India: share counts, ledger against broker',
    'HoldingsReconSummary',
    LIVE,
  ),
  '/v1/india/ledger-recon': report(
    'getIndiaLedgerRecon',
    'India: ledger cash and shares against the broker',
    'FirmLedgerRecon',
    LIVE,
  ),
  '/v1/india/reconciliation': report(
    'getIndiaReconciliation',
    'India: remittances against broker funding wires',
    'IndiaReconResponse',
    `${LIVE} Wires are matched by customer, sums of amounts and a day window (\`RECON_TIE_OUT_DAY_WINDOW\`, default 3), by the matcher of \`lrs_usbroker_tie_out\`.`,
  ),
  '/v1/india/compliance': report(
    'getIndiaCompliance',
    'India: broker account status and LRS use per customer',
    'FirmCompliance',
    `${LIVE} Each customer's PAN's LRS use in the current FY comes from the stored remittances and the declared use elsewhere.`,
  ),
  '/v1/india/remittance-exceptions': report(
    'getIndiaRemittanceExceptions',
    'India: every non-paid remittance order',
    'RemittanceExceptionSummary',
    'Read live from remit, read-only; remit not configured or unreachable: the empty snapshot with a warning.',
  ),
};
