import { ENTRY_EXAMPLES } from './examples.js';
import { ADMIN, READ } from '../../openapi/security.js';
import { CURRENCIES, ENTRY_LINES_MAX, MEMO_LENGTH_MAX, METADATA_PROPERTIES_MAX } from '@ledger/core/posting';
import { TRANSACTION_GROUP_BY } from '@ledger/core/store';
import {
  errorResponses,
  groupedEnvelope,
  json,
  listEnvelope,
  nullable,
  object,
  paramRef,
  READ_ERRORS,
  ref,
  WRITE_ERRORS,
} from '../../openapi/components.js';
import { PATTERNS } from '../../openapi/patterns.js';
import type { JsonSchema, Paths } from '../../openapi/types.js';

const FILTERS = [
  'CustomerIdFilter',
  'TxnTypeFilter',
  'SourceFilter',
  'CategoryFilter',
  'SymbolFilter',
  'From',
  'To',
  'AmountMin',
  'AmountMax',
  'PostedByFilter',
].map(paramRef);
const PAGE = ['Limit', 'Offset'].map(paramRef);

const location = {
  Location: { description: 'The new transaction: `/v1/transactions/{txn_id}`.', schema: { type: 'string' } },
} as const;

const entryBody = {
  description: 'The manual entry.',
  required: true,
  // Named examples (one per txn_type) on the media type: Swagger UI offers them in a list.
  content: { 'application/json': { schema: ref('EntryRequest'), examples: ENTRY_EXAMPLES } },
};

/** A transaction's own facts, as every view of it shows them (postings show a subset). */
export const transactionFacts: Record<string, JsonSchema> = {
  txn_id: ref('TxnId'),
  customer_id: nullable('CustomerId'),
  txn_type: ref('TxnType'),
  source: ref('Source'),
  source_txn_id: { type: 'string', description: 'The upstream identifier or idempotency key; unique per source.' },
  category: { type: 'string' },
  symbol: { type: ['string', 'null'] },
  quantity: nullable('Amount'),
  txn_date: ref('Date'),
  posted_at: { type: 'string', format: 'date-time' },
  amount_usd: ref('Amount'),
  original_currency: { type: ['string', 'null'], pattern: PATTERNS.currencyCode.pattern },
  original_amount: nullable('Amount'),
  fx_rate: nullable('Amount', 'original_amount per USD, when converted.'),
  recosted_at: {
    type: ['string', 'null'],
    format: 'date-time',
    description: 'Null while the transaction is pending recost.',
  },
  reverses_txn_id: {
    type: ['string', 'null'],
    format: 'uuid',
    description: 'Set on a reversal: the transaction it reverses.',
  },
  reversed_by_txn_id: {
    type: ['string', 'null'],
    format: 'uuid',
    description: 'Set once reversed: the reversing transaction.',
  },
  memo: { type: ['string', 'null'] },
  metadata: { type: 'object' },
  posted_by: { ...ref('Actor'), description: 'Who posted it (see Actor); the list filters on it (`posted_by`).' },
};

/** The schemas only transactions use. */
export const schemas: Record<string, JsonSchema> = {
  TransactionSummary: object(transactionFacts, 'A transaction as listed (without its journal lines).'),
  Transaction: object(
    { ...transactionFacts, journal_lines: { type: 'array', items: ref('JournalLine'), minItems: 2 } },
    'A transaction with its journal lines, which balance.',
  ),
  TransactionPage: listEnvelope(ref('TransactionSummary'), 'A page of transactions.'),
  CategoryFacets: object(
    {
      items: {
        type: 'array',
        items: object(
          { category: { type: 'string' }, count: { type: 'integer', minimum: 0 }, total_usd: ref('Amount') },
          'Transactions of one category under the filters.',
        ),
      },
    },
    'How many transactions (and how much) fall in each category, most first.',
  ),
  TransactionGroups: groupedEnvelope(
    object(
      {
        key: {
          type: ['string', 'null'],
          description: 'The group’s value (null: transactions without one, e.g. no symbol).',
        },
        count: { type: 'integer', minimum: 0 },
        total_usd: ref('Amount'),
      },
      'One group of transactions.',
    ),
    TRANSACTION_GROUP_BY,
    'Count and total per group, largest total first (`day`: newest first).',
  ),

  EntryLine: {
    type: 'object',
    additionalProperties: false,
    required: ['account_code', 'debit', 'credit'],
    properties: {
      account_code: ref('AccountCode'),
      debit: ref('Money'),
      credit: ref('Money'),
      posting_kind: nullable('PostingKind'),
      native_amount: nullable(
        'Money',
        'The line’s amount in AED: required on a line of an AED account (1020, 2020), refused on any other.',
      ),
    },
  },
  EntryRequest: {
    type: 'object',
    description:
      'A manual entry. Without `lines`, the posting rule of `txn_type` derives the journal lines; `lines` are given only ' +
      'for `adjustment`, and must balance. `source` + `source_txn_id` is the idempotency key. `source` is `manual`: ' +
      'an upstream’s source is its sync’s alone (422 `source_reserved`). An AED line’s USD is its AED at the peg ' +
      '(`AED_PER_USD`) within 0.01, and a stated `fx_rate` is the peg (422 `aed_off_peg`).',
    additionalProperties: false,
    required: ['txn_type', 'source', 'txn_date', 'amount_usd'],
    properties: {
      txn_type: ref('EnterableTxnType'),
      customer_id: nullable('CustomerId', 'Must name a known customer; firm-level types may omit it.'),
      source: ref('EnterableSource'),
      source_txn_id: {
        type: 'string',
        minLength: 1,
        maxLength: 256,
        pattern: PATTERNS.printable.pattern,
        description: 'Upstream identifier or idempotency key. Omitted: every call posts a new transaction.',
      },
      txn_date: ref('Date'),
      amount_usd: ref('Money'),
      symbol: nullable('Symbol'),
      quantity: nullable('PositiveDecimal'),
      category: nullable('Category'),
      memo: { type: ['string', 'null'], maxLength: MEMO_LENGTH_MAX },
      fee_usd: nullable('Money', 'The customer’s fee on a trade, when the source states it.'),
      original_currency: { type: ['string', 'null'], enum: [...CURRENCIES, null] },
      original_amount: nullable('Money', 'With `original_currency`: the amount before conversion to USD.'),
      fx_rate: nullable(
        'PositiveDecimal',
        'With `original_amount`: the rate it was converted at (AED per USD, e.g. the peg 3.6725), kept as the transaction’s `fx_rate`. Omitted: `original_amount / amount_usd`.',
      ),
      original_fee: nullable(
        'Money',
        'With `original_amount`, on a trade: the fee in the original currency when the source states it (its AED wallet line carries it). Omitted: `fee_usd` at the rate.',
      ),
      metadata: { type: 'object', maxProperties: METADATA_PROPERTIES_MAX },
      credits_operating_bank: {
        type: ['boolean', 'null'],
        description:
          'The operator’s word that the entry credits 1010 (operating bank, USD): money leaving the firm’s bank. An entry ' +
          'with a credit on 1010 (an adjustment’s line, an `fx_spread_settle` whose fees exceed its amount) is refused ' +
          'without `true`: 422 `operating_bank_credit_unconfirmed`. Not part of the idempotency fingerprint.',
      },
      lines: { type: 'array', minItems: 1, maxItems: ENTRY_LINES_MAX, items: ref('EntryLine') },
    },
    examples: [
      {
        txn_type: 'deposit',
        customer_id: 'C-1',
        source: 'manual',
        source_txn_id: 'ops-2026-01-15-001',
        txn_date: '2026-01-15',
        amount_usd: '100.00',
      },
    ],
  },
  PreviewLine: object(
    {
      account_code: ref('AccountCode'),
      account_name: { type: 'string' },
      debit: ref('Amount'),
      credit: ref('Amount'),
      posting_kind: { type: ['string', 'null'] },
      customer_id: nullable('CustomerId'),
      native_amount: nullable('Amount', 'On a line of an AED account (1020, 2020): its amount in AED.'),
    },
    'A journal line the entry would post.',
  ),
  Preview: object(
    {
      balanced: { type: 'boolean', const: true },
      journal_lines: { type: 'array', items: ref('PreviewLine'), minItems: 2 },
    },
    'What posting the entry would store; nothing is stored.',
  ),
  ReverseRequest: {
    type: 'object',
    additionalProperties: false,
    properties: {
      memo: { type: ['string', 'null'], maxLength: MEMO_LENGTH_MAX },
      txn_date: { ...ref('Date'), description: 'Date of the reversing entry; default today (UTC).' },
    },
  },
};

export const paths: Paths = {
  '/v1/transactions': {
    get: {
      operationId: 'listTransactions',
      summary: 'Transactions, filtered, sorted and paged',
      tags: ['transactions'],
      security: READ,
      parameters: [...FILTERS, paramRef('Sort'), paramRef('Order'), ...PAGE],
      responses: {
        '200': { description: 'A page of transactions.', content: json(ref('TransactionPage')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
    post: {
      operationId: 'postTransaction',
      summary: 'Manual entry (admin)',
      description:
        'Posts a balanced transaction. 201 with the stored transaction and its journal lines. The same `source` + ' +
        '`source_txn_id` again: 200 with the existing transaction when the payload is the same (key order and decimal ' +
        'spelling do not matter), 409 `idempotency_conflict` when it differs. Concurrent identical requests post once. ' +
        'An unknown customer or account, or lines that do not balance: 422, and nothing is stored. Preventive controls ' +
        '(each a 422, nothing stored): an entry debiting a customer wallet (2010, 2020: a withdrawal, `wire_out`, buy, ' +
        '`broker_fee`, `wht_tax` or adjustment, net of what it credits the wallet) more than the wallet holds less the ' +
        'customer’s pending withdrawal requests: `insufficient_funds` (the cash requests’ funds check, under the same ' +
        'per-customer lock; AED in AED); a `source` other than `manual`: `source_reserved`; an AED line off the peg: ' +
        '`aed_off_peg`; a credit to 1010 without `credits_operating_bank`: `operating_bank_credit_unconfirmed`; an ' +
        'adjustment moving 2010, 2020 or 2100 without `customer_id`: `customer_required`. An entry that leaves an AED ' +
        'wallet at AED 0.00 also clears its USD rounding residue to 5090 (two `fx_rounding` lines).',
      tags: ['transactions'],
      security: ADMIN,
      requestBody: entryBody,
      responses: {
        '201': { description: 'Posted.', headers: location, content: json(ref('Transaction')) },
        '200': {
          description: 'Already posted with this payload: the existing transaction.',
          content: json(ref('Transaction')),
        },
        ...errorResponses(...WRITE_ERRORS, 'Conflict', 'Unprocessable', 'Overloaded'),
      },
    },
  },
  '/v1/transactions/categories': {
    get: {
      operationId: 'getTransactionCategories',
      summary: 'Facet counts per category, under the list’s filters',
      tags: ['transactions'],
      security: READ,
      parameters: FILTERS,
      responses: {
        '200': { description: 'Counts per category.', content: json(ref('CategoryFacets')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
  '/v1/transactions/grouped': {
    get: {
      operationId: 'getTransactionGroups',
      summary: 'Grouped totals, under the list’s filters',
      tags: ['transactions'],
      security: READ,
      parameters: [paramRef('TxnGroupBy'), ...FILTERS, ...PAGE],
      responses: {
        '200': { description: 'Groups.', content: json(ref('TransactionGroups')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
  '/v1/transactions/preview': {
    post: {
      operationId: 'previewTransaction',
      summary: 'The journal lines an entry would post, without storing anything (admin)',
      description:
        'Runs the very statement posting runs, with the commit-time checks forced, then rolls it back: it answers ' +
        'exactly as posting would (422 unbalanced, unknown customer or account, and every preventive control of ' +
        'manual entry: funds, source, peg, 1010; 409 for a `source_txn_id` already ' +
        'posted with another payload; the existing lines for one posted with this payload), and stores nothing.',
      tags: ['transactions'],
      security: ADMIN,
      requestBody: entryBody,
      responses: {
        '200': { description: 'The would-be journal lines.', content: json(ref('Preview')) },
        ...errorResponses(...WRITE_ERRORS, 'Conflict', 'Unprocessable'),
      },
    },
  },
  '/v1/transactions/{txn_id}': {
    get: {
      operationId: 'getTransaction',
      summary: 'One transaction with its journal lines',
      tags: ['transactions'],
      security: READ,
      parameters: [paramRef('TxnIdPath')],
      responses: {
        '200': { description: 'The transaction.', content: json(ref('Transaction')) },
        ...errorResponses(...READ_ERRORS, 'NotFound'),
      },
    },
  },
  '/v1/transactions/{txn_id}/reverse': {
    post: {
      operationId: 'reverseTransaction',
      summary: 'Post the reversing entry (admin)',
      description:
        'The reversal mirrors every line of the original and names it in `reverses_txn_id`. 201 when posted; any later ' +
        'or concurrent call answers 200 with the same reversal. Reversing a reversal: 409 `conflict`. Reversing a `recost` ' +
        'entry: 409 `derived_entry`, naming the trade to reverse instead (recost then supersedes its derivation). Dated ' +
        'today unless `txn_date` says otherwise; a date in a closed period is 422 `period_closed`. A reversal of a ' +
        'transaction dated in a closed period names its date in `metadata.original_txn_date` (docs/period-close.md).',
      tags: ['transactions'],
      security: ADMIN,
      parameters: [paramRef('TxnIdPath')],
      requestBody: {
        description: 'Optional memo and date of the reversal.',
        required: false,
        content: json(ref('ReverseRequest')),
      },
      responses: {
        '201': { description: 'Reversed.', headers: location, content: json(ref('Transaction')) },
        '200': { description: 'Already reversed: the existing reversal.', content: json(ref('Transaction')) },
        ...errorResponses(...WRITE_ERRORS, 'NotFound', 'Conflict', 'Unprocessable'),
      },
    },
  },
};
