import {
  CASH_REQUEST_DIRECTIONS,
  CASH_REQUEST_STATUSES,
  CURRENCIES,
  IDEMPOTENCY_KEY_LENGTH_MAX,
  MEMO_LENGTH_MAX,
} from '@ledger/core/posting';
import {
  errorResponses,
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
import { ADMIN, READ } from '../../openapi/security.js';
import type { JsonSchema, Parameter, Paths } from '../../openapi/types.js';

const TAG = ['cash-requests'];

const CASH_REQUEST_ID: JsonSchema = {
  type: 'string',
  format: 'uuid',
  pattern: PATTERNS.uuid.pattern,
  description: 'A cash request id (a UUID in its plain 36-character form).',
};
const STATUS: JsonSchema = { type: 'string', enum: CASH_REQUEST_STATUSES };
const DIRECTION: JsonSchema = { type: 'string', enum: CASH_REQUEST_DIRECTIONS };

const idPath: Parameter = {
  name: 'cash_request_id',
  in: 'path',
  required: true,
  description: 'A cash request id.',
  schema: CASH_REQUEST_ID,
};
const query = (name: string, description: string, schema: JsonSchema): Parameter => ({
  name,
  in: 'query',
  description,
  schema,
});

const TRANSITIONS_IN_WORDS =
  '`pending` → `completed` (confirm: posts), `failed` (fail) or `cancelled` (cancel). From a final state every ' +
  'transition is 409 `invalid_state_transition`, except repeating the one that led there, which answers 200 with the ' +
  'request unchanged (docs/cash-requests.md has the table).';

/** The schemas only cash requests use. */
export const schemas: Record<string, JsonSchema> = {
  CashRequest: object(
    {
      cash_request_id: CASH_REQUEST_ID,
      customer_id: ref('CustomerId'),
      direction: DIRECTION,
      amount: ref('Amount'),
      currency: { type: 'string', enum: CURRENCIES },
      amount_usd: {
        ...ref('Amount'),
        description: 'What is posted, in USD: `amount` for USD; for AED, amount / fx_rate rounded half-up to cents.',
      },
      fx_rate: nullable(
        'Amount',
        'AED per USD the request was converted at (the configured peg, `AED_PER_USD`); null for USD.',
      ),
      status: STATUS,
      reference: { type: ['string', 'null'] },
      memo: { type: ['string', 'null'] },
      failure_reason: { type: ['string', 'null'], description: 'Set by `fail` when a reason was given.' },
      txn_id: {
        type: ['string', 'null'],
        format: 'uuid',
        description: 'The posted transaction: set exactly when `completed`.',
      },
      created_at: { type: 'string', format: 'date-time' },
      updated_at: { type: 'string', format: 'date-time' },
      created_by: { ...ref('Actor'), description: 'Who made the request.' },
      updated_by: { ...ref('Actor'), description: 'Who made its last transition (its creator until one).' },
    },
    `A customer’s deposit or withdrawal, posted when confirmed. ${TRANSITIONS_IN_WORDS}`,
  ),
  CashRequestPage: listEnvelope(ref('CashRequest'), 'A page of cash requests, newest first.'),
  CashRequestInput: {
    type: 'object',
    description:
      'A new cash request. AED converts to USD at the configured peg (`AED_PER_USD`, default 3.6725 AED per USD), ' +
      'rounded half-up to cents; the original amount and the rate are kept.',
    additionalProperties: false,
    required: ['customer_id', 'direction', 'amount', 'currency'],
    properties: {
      customer_id: {
        ...ref('CustomerId'),
        description: 'Must name a customer the book knows (422 `unknown_customer`).',
      },
      direction: DIRECTION,
      amount: {
        type: 'string',
        pattern: PATTERNS.positiveMoney.pattern,
        description: `In \`currency\`: ${PATTERNS.positiveMoney.rule}.`,
        examples: ['25.00'],
      },
      currency: { type: 'string', enum: CURRENCIES },
      reference: {
        type: ['string', 'null'],
        minLength: 1,
        maxLength: 256,
        description: 'The payment’s reference (bank or operator).',
      },
      memo: { type: ['string', 'null'], maxLength: MEMO_LENGTH_MAX },
    },
    examples: [
      { customer_id: 'C-1', direction: 'deposit', amount: '25.00', currency: 'USD', reference: 'wire-2026-01-15-001' },
    ],
  },
  CashRequestFailInput: {
    type: 'object',
    description: 'Why the request failed (optional).',
    additionalProperties: false,
    properties: { reason: { type: ['string', 'null'], minLength: 1, maxLength: MEMO_LENGTH_MAX } },
    examples: [{ reason: 'the bank returned the wire' }],
  },
  CashRequestActionInput: {
    type: 'object',
    description: 'No fields: the body may be omitted or `{}`.',
    additionalProperties: false,
    properties: {},
  },
};

const location = {
  Location: { description: 'The new request: `/v1/cash-requests/{cash_request_id}`.', schema: { type: 'string' } },
} as const;

function transition(
  operationId: string,
  verb: string,
  summary: string,
  description: string,
  body: string,
  bodyDescription: string,
) {
  return {
    post: {
      operationId,
      summary,
      description: `${description} ${TRANSITIONS_IN_WORDS}`,
      tags: TAG,
      security: ADMIN,
      parameters: [idPath],
      requestBody: { description: bodyDescription, required: false, content: json(ref(body)) },
      responses: {
        '200': {
          description: `The request, ${verb} (or unchanged, when it already was).`,
          content: json(ref('CashRequest')),
        },
        ...errorResponses(
          ...WRITE_ERRORS,
          'NotFound',
          'Conflict',
          ...(operationId === 'confirmCashRequest' ? (['Unprocessable'] as const) : []),
        ),
      },
    },
  };
}

export const paths: Paths = {
  '/v1/cash-requests': {
    get: {
      operationId: 'listCashRequests',
      summary: 'Cash requests, filtered and paged, newest first',
      tags: TAG,
      security: READ,
      parameters: [
        paramRef('CustomerIdFilter'),
        query('status', 'Only requests in this state.', STATUS),
        query('direction', 'Only deposits or only withdrawals.', DIRECTION),
        query('from', 'Earliest created date (UTC), inclusive (YYYY-MM-DD).', ref('Date')),
        query('to', 'Latest created date (UTC), inclusive (YYYY-MM-DD).', ref('Date')),
        paramRef('Limit'),
        paramRef('Offset'),
      ],
      responses: {
        '200': { description: 'A page of cash requests.', content: json(ref('CashRequestPage')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
    post: {
      operationId: 'createCashRequest',
      summary: 'Make a cash request (admin)',
      description:
        '201 with the request, `pending`; nothing is posted until it is confirmed. An unknown customer: 422 ' +
        '`unknown_customer`. A withdrawal larger than the customer’s wallet balance (2010 for USD; 2020, in USD, for ' +
        'AED) less their other pending withdrawals from it: 422 `insufficient_funds`. An AED amount under one US cent: 400. ' +
        'With `Idempotency-Key`: a retry of the same request (same customer, direction, amount by value, currency, ' +
        'reference and memo) answers 200 with the request it made, never a second one; the key used for another ' +
        'request: 409 `idempotency_conflict`, nothing made.',
      tags: TAG,
      security: ADMIN,
      parameters: [
        {
          name: 'Idempotency-Key',
          in: 'header',
          description:
            'Optional, recommended: a key of the caller’s own (a UUID, say), unique per request it means to make, so that a ' +
            'retry after a lost answer cannot make a second request. Kept with the request for good.',
          schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_LENGTH_MAX },
        },
      ],
      requestBody: { description: 'The request.', required: true, content: json(ref('CashRequestInput')) },
      responses: {
        '200': {
          description: 'Made before under this Idempotency-Key: the request as it stands.',
          content: json(ref('CashRequest')),
        },
        '201': { description: 'Made, pending.', headers: location, content: json(ref('CashRequest')) },
        ...errorResponses(...WRITE_ERRORS, 'Conflict', 'Unprocessable'),
      },
    },
  },
  '/v1/cash-requests/{cash_request_id}': {
    get: {
      operationId: 'getCashRequest',
      summary: 'One cash request',
      tags: TAG,
      security: READ,
      parameters: [idPath],
      responses: {
        '200': { description: 'The request.', content: json(ref('CashRequest')) },
        ...errorResponses(...READ_ERRORS, 'NotFound'),
      },
    },
  },
  '/v1/cash-requests/{cash_request_id}/confirm': transition(
    'confirmCashRequest',
    'completed',
    'Mark a cash request complete: posts it (admin)',
    'Posts the deposit (Dr 1100 / Cr 2010; AED: Dr 1020 / Cr 2020) or withdrawal (the mirror) at `amount_usd`, with the ' +
      'original amount and rate kept on the transaction (source `ledger`, source_txn_id `cash-request:<id>`), in the ' +
      'same database transaction that marks the request `completed` and sets `txn_id`. A withdrawal is checked again ' +
      'against the wallet under a lock (422 `insufficient_funds`, nothing changes). Concurrent confirms post once.',
    'CashRequestActionInput',
    'Optional, empty.',
  ),
  '/v1/cash-requests/{cash_request_id}/fail': transition(
    'failCashRequest',
    'failed',
    'Mark a cash request failed (admin)',
    'Nothing is posted; `reason`, when given, is kept as `failure_reason`.',
    'CashRequestFailInput',
    'Optional reason.',
  ),
  '/v1/cash-requests/{cash_request_id}/cancel': transition(
    'cancelCashRequest',
    'cancelled',
    'Cancel a cash request (admin)',
    'Nothing is posted.',
    'CashRequestActionInput',
    'Optional, empty.',
  ),
};
