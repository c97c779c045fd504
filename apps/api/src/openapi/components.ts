import {
  assert,
  DECIMAL_RULE,
  ENTRY_LINES_MAX,
  MEMO_LENGTH_MAX,
  METADATA_PROPERTIES_MAX,
  MONEY_RULE,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PAGE_OFFSET_MAX,
  ENTERABLE_SOURCES,
  ENTERABLE_TXN_TYPES,
  SOURCES,
  TXN_TYPES,
  ACCOUNT_TYPES,
  CURRENCIES,
  JOURNAL_GROUP_BY,
  SORT_ORDERS,
  TRANSACTION_GROUP_BY,
  TRANSACTION_SORTS,
} from '@ledger/core';
import { codesForStatus, type ErrorCode } from '../http/errors.js';
import { PATTERNS } from './patterns.js';
import type { JsonSchema, MediaType, Parameter, Reference, ResponseObject } from './types.js';


export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const paramRef = (name: string): Reference => ({ $ref: `#/components/parameters/${name}` });
export const responseRef = (name: string): Reference => ({ $ref: `#/components/responses/${name}` });

export function json(schema: JsonSchema, example?: unknown): Record<string, MediaType> {
  return { 'application/json': { schema, ...(example !== undefined && { example }) } };
}

/** `{items, total, limit, offset}`: the one shape of every paged list. */
export function listEnvelope(items: JsonSchema, description: string): JsonSchema {
  return {
    type: 'object',
    description,
    additionalProperties: false,
    required: ['items', 'total', 'limit', 'offset'],
    properties: {
      items: { type: 'array', items },
      total: { type: 'integer', minimum: 0, description: 'How many match the filters, over all pages.' },
      limit: { type: 'integer', minimum: 1, maximum: PAGE_LIMIT_MAX },
      offset: { type: 'integer', minimum: 0 },
    },
  };
}

/** A grouped view: the list envelope plus the grouping it was asked for. */
function groupedEnvelope(items: JsonSchema, groupBy: readonly string[], description: string): JsonSchema {
  const envelope = listEnvelope(items, description);
  return {
    ...envelope,
    required: ['group_by', ...(envelope.required ?? [])],
    properties: { group_by: { type: 'string', enum: groupBy }, ...envelope.properties },
  };
}

for (const { pattern } of Object.values(PATTERNS)) assert(pattern.startsWith('^') && pattern.endsWith('$'), `pattern ${pattern} is anchored`);

/** Plain string schemas, named in components and inlined where a field may also be null. */
const scalars = {
  Decimal: {
    type: 'string',
    pattern: PATTERNS.decimal.pattern,
    description: `A non-negative decimal as a string: ${DECIMAL_RULE}. Never a JSON number.`,
    examples: ['100.00'],
  },
  Money: {
    type: 'string',
    pattern: PATTERNS.money.pattern,
    description: `An amount of money as a string: ${MONEY_RULE}. Never a JSON number.`,
    examples: ['100.00'],
  },
  PositiveDecimal: {
    type: 'string',
    pattern: PATTERNS.positiveDecimal.pattern,
    description: `A decimal string greater than zero: ${DECIMAL_RULE}.`,
    examples: ['2'],
  },
  Amount: {
    type: 'string',
    pattern: PATTERNS.amount.pattern,
    description: 'A non-negative decimal string as stored or computed (may carry more places than an input).',
    examples: ['100.00'],
  },
  SignedAmount: {
    type: 'string',
    pattern: PATTERNS.signedAmount.pattern,
    description: 'A decimal string that may be negative (a net or a balance).',
    examples: ['-100.00'],
  },
  Date: {
    type: 'string',
    format: 'date',
    pattern: PATTERNS.date.pattern,
    description: 'A calendar date, YYYY-MM-DD.',
    examples: ['2026-01-15'],
  },
  TxnId: { type: 'string', format: 'uuid', pattern: PATTERNS.uuid.pattern, description: 'A UUID in its plain 36-character form.' },
  CustomerId: {
    type: 'string',
    minLength: 1,
    maxLength: 128,
    pattern: PATTERNS.printable.pattern,
    description: 'Printable ASCII without spaces.',
    examples: ['C-1'],
  },
  AccountCode: { type: 'string', pattern: PATTERNS.accountCode.pattern, examples: ['1010'] },
  PostingKind: { type: 'string', pattern: PATTERNS.postingKind.pattern, examples: ['fx_spread'] },
  Symbol: { type: 'string', pattern: PATTERNS.symbol.pattern, examples: ['AAPL'] },
  Category: { type: 'string', pattern: PATTERNS.category.pattern, examples: ['funding'] },
} satisfies Record<string, JsonSchema>;

/** A scalar that may also be null (inlined: JSON Schema applies `pattern` to strings only). */
export function nullable(name: keyof typeof scalars, description?: string): JsonSchema {
  return { ...scalars[name], type: ['string', 'null'], ...(description !== undefined && { description }) };
}

const timestamps = (...names: string[]) =>
  Object.fromEntries(names.map((name) => [name, { type: 'string', format: 'date-time' } satisfies JsonSchema]));


const transactionFacts: Record<string, JsonSchema> = {
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
  recosted_at: { type: ['string', 'null'], format: 'date-time', description: 'Null while the transaction is pending recost.' },
  reverses_txn_id: { type: ['string', 'null'], format: 'uuid', description: 'Set on a reversal: the transaction it reverses.' },
  reversed_by_txn_id: { type: ['string', 'null'], format: 'uuid', description: 'Set once reversed: the reversing transaction.' },
  memo: { type: ['string', 'null'] },
  metadata: { type: 'object' },
};

const journalLineProperties: Record<string, JsonSchema> = {
  line_id: { type: 'string', pattern: PATTERNS.lineId.pattern, description: 'Position in the journal: later lines have larger ids.' },
  txn_id: ref('TxnId'),
  account_code: ref('AccountCode'),
  account_name: { type: 'string' },
  debit: { ...ref('Amount'), description: 'Zero when the line is a credit.' },
  credit: { ...ref('Amount'), description: 'Zero when the line is a debit.' },
  customer_id: nullable('CustomerId'),
  posting_kind: { type: ['string', 'null'] },
  txn_date: ref('Date'),
  created_at: { type: 'string', format: 'date-time' },
};

const object = (properties: Record<string, JsonSchema>, description: string, optional: string[] = []): JsonSchema => ({
  type: 'object',
  description,
  additionalProperties: false,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
  properties,
});

/** The one shape of every error response; `code` either matches a pattern or is one of a list. */
function errorSchema(codes: string | ErrorCode[]): JsonSchema {
  return {
    type: 'object',
    description: 'The one shape of every error response.',
    additionalProperties: false,
    required: ['error', 'request_id'],
    properties: {
      error: {
        type: 'object',
        additionalProperties: false,
        required: ['code', 'message'],
        properties: {
          code:
            typeof codes === 'string'
              ? { type: 'string', pattern: codes, description: 'Stable, snake_case; see the table in the description.' }
              : { type: 'string', enum: codes },
          message: { type: 'string', description: 'A human sentence; wording may change.' },
          details: { type: 'array', items: {}, description: 'Specifics, e.g. `{path, message}` per failed rule.' },
        },
      },
      request_id: { type: 'string', description: 'Also in the `X-Request-Id` header; quote it when reporting a problem.' },
    },
  };
}

export const schemas: Record<string, JsonSchema> = {
  Error: errorSchema('^[a-z][a-z_]*$'),
  ...scalars,
  TxnType: { type: 'string', enum: TXN_TYPES },
  EnterableTxnType: { type: 'string', enum: ENTERABLE_TXN_TYPES, description: 'Every type but `reversal`, which only reversing posts.' },
  Source: { type: 'string', enum: SOURCES },
  EnterableSource: { type: 'string', enum: ENTERABLE_SOURCES, description: 'Every source but `ledger`, the ledger’s own entries.' },
  Status: object({ status: { type: 'string', const: 'ok' } }, 'The process (or its dependencies) is fine.'),
  ServiceIndex: object(
    {
      service: { type: 'string', const: 'ledger' },
      book: { type: 'string', enum: ['ENTITY_UAE', 'ENTITY_IND_IFSC'] },
      docs: { type: 'string', const: '/docs', description: 'Interactive API documentation.' },
      openapi: { type: 'string', const: '/docs/openapi.json', description: 'The OpenAPI 3.1 document.' },
      health: { type: 'string', const: '/health/ready' },
    },
    'Where to go from here: every business endpoint is under /v1 and needs a token (see the docs).',
  ),

  JournalLine: object(journalLineProperties, 'One debit or credit of a transaction; exactly one of debit and credit is non-zero.'),
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
        key: { type: ['string', 'null'], description: 'The group’s value (null: transactions without one, e.g. no symbol).' },
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
    },
  },
  EntryRequest: {
    type: 'object',
    description:
      'A manual entry. Without `lines`, the posting rule of `txn_type` derives the journal lines; `lines` are given only ' +
      'for `adjustment`, and must balance. `source` + `source_txn_id` is the idempotency key.',
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
      metadata: { type: 'object', maxProperties: METADATA_PROPERTIES_MAX },
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
    },
    'A journal line the entry would post.',
  ),
  Preview: object(
    { balanced: { type: 'boolean', const: true }, journal_lines: { type: 'array', items: ref('PreviewLine'), minItems: 2 } },
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

  JournalLinePage: listEnvelope(ref('JournalLine'), 'A page of journal lines, newest first.'),
  JournalGroups: groupedEnvelope(
    object(
      {
        key: { type: ['string', 'null'] },
        line_count: { type: 'integer', minimum: 0 },
        debit: ref('Amount'),
        credit: ref('Amount'),
        net: { ...ref('SignedAmount'), description: 'debit − credit.' },
      },
      'One group of journal lines.',
    ),
    JOURNAL_GROUP_BY,
    'Debit, credit and net per group, by key (`day`: newest first).',
  ),
  Posting: object(
    {
      ...journalLineProperties,
      account_type: { type: 'string', enum: ACCOUNT_TYPES },
      txn_type: ref('TxnType'),
      source: ref('Source'),
      source_txn_id: { type: 'string' },
      category: { type: 'string' },
      symbol: { type: ['string', 'null'] },
      posted_at: { type: 'string', format: 'date-time' },
      reverses_txn_id: { type: ['string', 'null'], format: 'uuid' },
    },
    'A journal line flattened with its transaction’s facts.',
  ),
  PostingPage: listEnvelope(ref('Posting'), 'A page of postings, newest first.'),

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
  AccountTotals: object({ items: { type: 'array', items: ref('AccountTotal') } }, 'The chart of accounts with running totals.'),
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

  Customer: object(
    {
      customer_id: ref('CustomerId'),
      name: { type: ['string', 'null'] },
      email: { type: ['string', 'null'] },
      metadata: { type: 'object' },
      ...timestamps('created_at', 'updated_at'),
    },
    'A customer of the book.',
  ),
  CustomerPage: listEnvelope(ref('Customer'), 'A page of customers, by customer_id.'),
  CustomerInput: {
    type: 'object',
    description: 'Fields left out keep their value (or their default when the customer is created).',
    additionalProperties: false,
    properties: {
      name: { type: ['string', 'null'], minLength: 1, maxLength: 200 },
      email: { type: ['string', 'null'], format: 'email', maxLength: 254 },
      metadata: { type: 'object', maxProperties: METADATA_PROPERTIES_MAX },
    },
  },
};

const query = (name: string, description: string, schema: JsonSchema): Parameter => ({ name, in: 'query', description, schema });

export const parameters: Record<string, Parameter> = {
  // The validator coerces "1e309" to Infinity and lets it through: pageOf refuses it (http/query.ts).
  Limit: query('limit', `Page size, 1 to ${PAGE_LIMIT_MAX} (more is a 400).`, {
    type: 'integer',
    minimum: 1,
    maximum: PAGE_LIMIT_MAX,
    default: PAGE_LIMIT_DEFAULT,
  }),
  Offset: query('offset', 'How many to skip.', { type: 'integer', minimum: 0, maximum: PAGE_OFFSET_MAX, default: 0 }),
  From: query('from', 'Earliest txn_date, inclusive (YYYY-MM-DD).', ref('Date')),
  To: query('to', 'Latest txn_date, inclusive (YYYY-MM-DD).', ref('Date')),
  CustomerIdFilter: query('customer_id', 'Only this customer’s.', ref('CustomerId')),
  TxnTypeFilter: query('txn_type', 'Only this transaction type.', ref('TxnType')),
  SourceFilter: query('source', 'Only this source.', ref('Source')),
  CategoryFilter: query('category', 'Only this category.', ref('Category')),
  SymbolFilter: query('symbol', 'Only this symbol.', ref('Symbol')),
  AmountMin: query('amount_min', 'Smallest amount_usd, inclusive.', ref('Decimal')),
  AmountMax: query('amount_max', 'Largest amount_usd, inclusive.', ref('Decimal')),
  Sort: query('sort', 'Sort key; ties break on txn_id.', { type: 'string', enum: TRANSACTION_SORTS, default: 'txn_date' }),
  Order: query('order', 'Sort direction.', { type: 'string', enum: SORT_ORDERS, default: 'desc' }),
  TxnGroupBy: { ...query('group_by', 'What to group by.', { type: 'string', enum: TRANSACTION_GROUP_BY }), required: true },
  JournalGroupBy: { ...query('group_by', 'What to group by.', { type: 'string', enum: JOURNAL_GROUP_BY }), required: true },
  TxnIdFilter: query('txn_id', 'Only this transaction’s lines.', ref('TxnId')),
  AccountCodeFilter: query('account_code', 'Only this account’s lines.', ref('AccountCode')),
  PostingKindFilter: query('posting_kind', 'Only lines of this posting kind.', ref('PostingKind')),
  CustomerSearch: query('q', 'Case-insensitive substring of customer_id, name or email.', {
    type: 'string',
    minLength: 1,
    maxLength: 128,
    pattern: PATTERNS.searchText.pattern,
  }),
  TxnIdPath: { name: 'txn_id', in: 'path', required: true, description: 'A transaction id.', schema: ref('TxnId') },
  CustomerIdPath: { name: 'customer_id', in: 'path', required: true, description: 'A customer id.', schema: ref('CustomerId') },
};

/** An error response whose `code` is one of `codes`. */
function errorResponse(description: string, codes: ErrorCode[]): ResponseObject {
  return {
    description: `${description} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    content: json(
      errorSchema(codes),
      { error: { code: codes[0], message: description }, request_id: '0190c2d4-6c1e-7a2b-9f00-000000000000' },
    ),
  };
}

export const responses: Record<string, ResponseObject> = {
  BadRequest: errorResponse('The request does not match this contract (query, path or body), or the body is not JSON.', codesForStatus(400)),
  Unauthorized: errorResponse('The credential is missing or unknown.', codesForStatus(401)),
  Forbidden: errorResponse('The credential is valid but does not grant this endpoint (the ledger token on a write).', codesForStatus(403)),
  NotFound: errorResponse('No such resource.', codesForStatus(404)),
  Conflict: errorResponse('The state of the ledger refuses the request.', codesForStatus(409)),
  PayloadTooLarge: errorResponse('The body is larger than the server accepts (1 MiB unless configured).', codesForStatus(413)),
  UnsupportedMediaType: errorResponse('The body is not `application/json`.', codesForStatus(415)),
  Unprocessable: errorResponse('Well-formed, but it breaks a ledger rule; nothing was stored.', codesForStatus(422)),
  InternalError: errorResponse('A fault of the server; nothing about it is in the body, the log has it under the request_id.', codesForStatus(500)),
  NotConfigured: errorResponse('The credential this endpoint needs is not configured on the server (fail closed).', ['not_configured']),
  NotReady: errorResponse('The database is unreachable or its schema is not at head.', ['not_ready']),
  // Where entries queue for the group commit, 503 also means "overloaded": it replaces NotConfigured there.
  NotConfiguredOrOverloaded: errorResponse(
    'The credential is not configured (fail closed), or too many entries are waiting on this process: retry after `Retry-After` seconds.',
    ['not_configured', 'overloaded'],
  ),
};

const RESPONSE_STATUS = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  Unprocessable: 422,
  InternalError: 500,
  NotConfigured: 503,
  NotReady: 503,
  NotConfiguredOrOverloaded: 503,
} as const;
export type ErrorResponseName = keyof typeof RESPONSE_STATUS;
for (const name of Object.keys(RESPONSE_STATUS)) assert(name in responses, `response ${name} is defined`);

/** Error responses by status, for an operation's `responses`. */
export function errorResponses(...names: ErrorResponseName[]): Record<string, Reference> {
  return Object.fromEntries(names.map((name) => [String(RESPONSE_STATUS[name]), responseRef(name)]));
}

/** The errors any read of the ledger can answer. */
export const READ_ERRORS: ErrorResponseName[] = ['BadRequest', 'Unauthorized', 'InternalError', 'NotConfigured'];
/** The errors any write can answer. */
export const WRITE_ERRORS: ErrorResponseName[] = [
  'BadRequest',
  'Unauthorized',
  'Forbidden',
  'PayloadTooLarge',
  'UnsupportedMediaType',
  'InternalError',
  'NotConfigured',
];
