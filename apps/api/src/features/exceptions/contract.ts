import { EXCEPTION_STATES } from '@ledger/core/store';
import {
  errorResponses,
  json,
  listEnvelope,
  object,
  paramRef,
  READ_ERRORS,
  ref,
  WRITE_ERRORS,
} from '../../openapi/components.js';
import { ADMIN, READ } from '../../openapi/security.js';
import type { JsonSchema, Parameter, Paths } from '../../openapi/types.js';

const TAG = ['exceptions'];

const STATE: JsonSchema = {
  type: 'string',
  enum: EXCEPTION_STATES,
  description: '`open`; `resolved` (a later run posted the record); `dismissed` (an operator, with a reason).',
};
const UPSTREAM: JsonSchema = { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,63}$', examples: ['usbroker'] };
// The batch's reason codes (docs/outcomes.md): only the batches' runs open exceptions.
const REASON_CODE: JsonSchema = ref('RecordReasonCode');
const EXCEPTION_ID: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: 9_007_199_254_740_991,
  description: 'An exception id.',
};
const nullableText: JsonSchema = { type: ['string', 'null'] };
const nullableTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };

export const schemas: Record<string, JsonSchema> = {
  Exception: object(
    {
      exception_id: EXCEPTION_ID,
      upstream: UPSTREAM,
      record_key: { type: 'string', description: 'The record’s key upstream (the source_txn_id it posts under).' },
      customer_id: { type: ['string', 'null'], description: 'The ledger customer the record belongs to, when known.' },
      reason_code: REASON_CODE,
      reason: { type: 'string', description: 'Why, as the last run that saw it said.' },
      record: { type: 'object', description: 'The record’s fields as that run saw them (never a credential).' },
      job: { ...ref('Actor'), description: 'The run that last saw it.' },
      first_seen_at: { type: 'string', format: 'date-time' },
      last_seen_at: { type: 'string', format: 'date-time' },
      times_seen: {
        type: 'integer',
        minimum: 1,
        description: 'How many runs found it: a re-run updates the row, it never adds one.',
      },
      state: STATE,
      state_reason: { ...nullableText, description: 'Why it was dismissed, or what resolved it.' },
      state_changed_at: nullableTime,
      state_changed_by: {
        type: ['string', 'null'],
        description: 'Who resolved (the run) or dismissed it (as `Actor`).',
      },
    },
    'An upstream record a sync could not post (refused, or conflicting with what is posted under its key), until a later run posts it or an operator dismisses it (docs/exceptions.md).',
  ),
  ExceptionPage: listEnvelope(ref('Exception'), 'A page of exceptions, newest first.'),
  ExceptionDismissInput: {
    type: 'object',
    additionalProperties: false,
    required: ['reason'],
    properties: { reason: { type: 'string', minLength: 1, maxLength: 1000 } },
    examples: [{ reason: 'the broker cancelled the order; nothing to post' }],
  },
};

const query = (name: string, description: string, schema: JsonSchema): Parameter => ({
  name,
  in: 'query',
  description,
  schema,
});
const idPath: Parameter = {
  name: 'exception_id',
  in: 'path',
  required: true,
  description: 'An exception id.',
  schema: EXCEPTION_ID,
};

export const paths: Paths = {
  '/v1/exceptions': {
    get: {
      operationId: 'listExceptions',
      summary: 'Upstream records the syncs could not post, newest first',
      tags: TAG,
      security: READ,
      parameters: [
        query('state', 'Only exceptions in this state.', STATE),
        query('upstream', 'Only this upstream’s.', UPSTREAM),
        query('reason', 'Only this reason code.', REASON_CODE),
        paramRef('CustomerIdFilter'),
        query('from', 'Earliest first sighting (UTC date), inclusive (YYYY-MM-DD).', ref('Date')),
        query('to', 'Latest first sighting (UTC date), inclusive (YYYY-MM-DD).', ref('Date')),
        paramRef('Limit'),
        paramRef('Offset'),
      ],
      responses: {
        '200': { description: 'A page of exceptions.', content: json(ref('ExceptionPage')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
  '/v1/exceptions/{exception_id}': {
    get: {
      operationId: 'getException',
      summary: 'One exception',
      tags: TAG,
      security: READ,
      parameters: [idPath],
      responses: {
        '200': { description: 'The exception.', content: json(ref('Exception')) },
        ...errorResponses(...READ_ERRORS, 'NotFound'),
      },
    },
  },
  '/v1/exceptions/{exception_id}/dismiss': {
    post: {
      operationId: 'dismissException',
      summary: 'Dismiss an open exception, with a reason (admin)',
      description:
        'Marks it `dismissed` with the reason and the actor. Dismissing a dismissed one answers it unchanged; a resolved ' +
        'one (a run posted the record) is 409 `invalid_state_transition`. A later run that still fails the record only ' +
        'updates its sightings; one that posts it leaves the dismissal as it is.',
      tags: TAG,
      security: ADMIN,
      parameters: [idPath],
      requestBody: { description: 'Why.', required: true, content: json(ref('ExceptionDismissInput')) },
      responses: {
        '200': { description: 'The exception, dismissed.', content: json(ref('Exception')) },
        ...errorResponses(...WRITE_ERRORS, 'NotFound', 'Conflict'),
      },
    },
  },
};
