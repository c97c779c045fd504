import {
  ACTOR_NAME_PATTERN_SOURCE,
  ACTOR_NAME_RULE,
  assert,
  CUSTOMER_ID_LENGTH_MAX,
  DECIMAL_RULE,
  MONEY_RULE,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PAGE_OFFSET_MAX,
  ENTERABLE_SOURCES,
  ENTERABLE_TXN_TYPES,
  SOURCES,
  TXN_TYPES,
} from '@ledger/core/posting';
import { JOURNAL_GROUP_BY, SORT_ORDERS, TRANSACTION_GROUP_BY, TRANSACTION_SORTS } from '@ledger/core/store';
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
export function groupedEnvelope(items: JsonSchema, groupBy: readonly string[], description: string): JsonSchema {
  const envelope = listEnvelope(items, description);
  return {
    ...envelope,
    required: ['group_by', ...(envelope.required ?? [])],
    properties: { group_by: { type: 'string', enum: groupBy }, ...envelope.properties },
  };
}

for (const { pattern } of Object.values(PATTERNS))
  assert(pattern.startsWith('^') && pattern.endsWith('$'), `pattern ${pattern} is anchored`);

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
  TxnId: {
    type: 'string',
    format: 'uuid',
    pattern: PATTERNS.uuid.pattern,
    description: 'A UUID in its plain 36-character form.',
  },
  CustomerId: {
    type: 'string',
    minLength: 1,
    maxLength: CUSTOMER_ID_LENGTH_MAX,
    pattern: PATTERNS.customerId.pattern,
    description: `${CUSTOMER_ID_LENGTH_MAX} characters at most of letters, digits, "-", "_" and "."; not "." or ".." alone (so never a path). Anything else is 400 validation_error.`,
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

export const timestamps = (...names: string[]) =>
  Object.fromEntries(names.map((name) => [name, { type: 'string', format: 'date-time' } satisfies JsonSchema]));

export const object = (
  properties: Record<string, JsonSchema>,
  description: string,
  optional: string[] = [],
): JsonSchema => ({
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
      request_id: {
        type: 'string',
        description: 'Also in the `X-Request-Id` header; quote it when reporting a problem.',
      },
    },
  };
}

export const schemas: Record<string, JsonSchema> = {
  Error: errorSchema('^[a-z][a-z_]*$'),
  ...scalars,
  TxnType: { type: 'string', enum: TXN_TYPES },
  EnterableTxnType: {
    type: 'string',
    enum: ENTERABLE_TXN_TYPES,
    description: 'Every type but `reversal`, which only reversing posts.',
  },
  Source: { type: 'string', enum: SOURCES },
  EnterableSource: {
    type: 'string',
    enum: ENTERABLE_SOURCES,
    description:
      'Every source but `ledger`, the ledger’s own entries. A manual entry uses `manual`; the upstreams’ sources are ' +
      'their syncs’ alone (422 `source_reserved`).',
  },
  Actor: {
    type: 'string',
    description:
      'Who wrote it: `api` or `api:<operator>` (an admin write, the operator from `X-Ledger-Actor`), `job:<kind>:<job_id>`, ' +
      '`webhook:<upstream>:<event>:<job_id>` (the sync a webhook triggered), `system` (outside any request or job), `legacy` ' +
      '(written before this was recorded), `sql` (written by hand in SQL).',
    examples: ['api:ana@example.com', 'job:sync-usbroker:0190c2d4-6c1e-7a2b-9f00-000000000000'],
  },
};

const query = (name: string, description: string, schema: JsonSchema): Parameter => ({
  name,
  in: 'query',
  description,
  schema,
});

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
  PostedByFilter: query(
    'posted_by',
    'Only what this actor posted (`api:ana@example.com`); ending in `:`, every actor under it (`job:recost:`, `api:`).',
    {
      type: 'string',
      minLength: 1,
      maxLength: 300,
    },
  ),
  Sort: query('sort', 'Sort key; ties break on txn_id.', {
    type: 'string',
    enum: TRANSACTION_SORTS,
    default: 'txn_date',
  }),
  Order: query('order', 'Sort direction.', { type: 'string', enum: SORT_ORDERS, default: 'desc' }),
  TxnGroupBy: {
    ...query('group_by', 'What to group by.', { type: 'string', enum: TRANSACTION_GROUP_BY }),
    required: true,
  },
  JournalGroupBy: {
    ...query('group_by', 'What to group by.', { type: 'string', enum: JOURNAL_GROUP_BY }),
    required: true,
  },
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
  CustomerIdPath: {
    name: 'customer_id',
    in: 'path',
    required: true,
    description: 'A customer id.',
    schema: ref('CustomerId'),
  },
  LedgerActor: {
    name: 'X-Ledger-Actor',
    in: 'header',
    description: `Optional: the operator making this admin write (${ACTOR_NAME_RULE}); recorded as \`api:<operator>\` (\`api\` without it) and logged.`,
    schema: { type: 'string', pattern: ACTOR_NAME_PATTERN_SOURCE },
  },
  AsOf: query(
    'as_of',
    'Balances as they stood at the end of this day (YYYY-MM-DD); absent: every posting.',
    ref('Date'),
  ),
};

/** An error response whose `code` is one of `codes`. */
function errorResponse(description: string, codes: ErrorCode[]): ResponseObject {
  return {
    description: `${description} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    content: json(errorSchema(codes), {
      error: { code: codes[0], message: description },
      request_id: '0190c2d4-6c1e-7a2b-9f00-000000000000',
    }),
  };
}

/** Every error response an operation may list: its status, what it means, the codes it answers. */
const ERROR_RESPONSES = {
  BadRequest: [
    400,
    'The request does not match this contract (query, path or body), or the body is not JSON.',
    codesForStatus(400),
  ],
  Unauthorized: [401, 'The credential is missing or unknown.', codesForStatus(401)],
  Forbidden: [
    403,
    'The credential is valid but does not grant this endpoint (the ledger token on a write).',
    codesForStatus(403),
  ],
  NotFound: [404, 'No such resource.', codesForStatus(404)],
  Conflict: [409, 'The state of the ledger refuses the request.', codesForStatus(409)],
  PayloadTooLarge: [413, 'The body is larger than the server accepts (1 MiB unless configured).', codesForStatus(413)],
  UnsupportedMediaType: [415, 'The body is not `application/json`.', codesForStatus(415)],
  Unprocessable: [422, 'Well-formed, but it breaks a ledger rule; nothing was stored.', codesForStatus(422)],
  InternalError: [
    500,
    'A fault of the server; nothing about it is in the body, the log has it under the request_id.',
    codesForStatus(500),
  ],
  NotConfigured: [
    503,
    'The credential this endpoint needs is not configured on the server (fail closed).',
    ['not_configured'],
  ],
  NotReady: [
    503,
    'A dependency is down: the database (or its schema is not at head), or the job queue.',
    ['not_ready'],
  ],
  EnqueueUnconfirmed: [
    503,
    'A dependency is down: `not_ready`, nothing was queued. Or `enqueue_unconfirmed`: the job was sent to the queue and no answer came; it may have been queued (and then runs): `details[0].job_id` is its id, to poll before starting it again.',
    ['not_ready', 'enqueue_unconfirmed'],
  ],
  Overloaded: [503, 'Too many entries are waiting on this process: retry after `Retry-After` seconds.', ['overloaded']],
  UpstreamUnavailable: [
    503,
    'The upstream this view reads live is not configured on this book or did not answer.',
    ['upstream_unavailable'],
  ],
} as const satisfies Record<string, readonly [number, string, readonly ErrorCode[]]>;
export type ErrorResponseName = keyof typeof ERROR_RESPONSES;

export const responses: Record<string, ResponseObject> = Object.fromEntries(
  Object.entries(ERROR_RESPONSES).map(([name, [, description, codes]]) => [
    name,
    errorResponse(description, [...codes]),
  ]),
);

/**
 * Error responses by status, for an operation's `responses`: a named component where one
 * response has the status, and their union (every code of each) where several share it, e.g.
 * 503 `not_configured` or `not_ready` for an endpoint that needs a token and the job queue.
 */
export function errorResponses(...names: ErrorResponseName[]): Record<string, Reference | ResponseObject> {
  const byStatus = new Map<number, ErrorResponseName[]>();
  for (const name of new Set(names)) {
    const status = ERROR_RESPONSES[name][0];
    byStatus.set(status, [...(byStatus.get(status) ?? []), name]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, shared]) => {
      if (shared.length === 1) return [String(status), responseRef(shared[0] as ErrorResponseName)];
      const description = shared.map((name) => ERROR_RESPONSES[name][1]).join(' Or: ');
      return [
        String(status),
        errorResponse(
          description,
          shared.flatMap((name) => [...ERROR_RESPONSES[name][2]]),
        ),
      ];
    }),
  );
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
