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
import type { JsonSchema, Operation, Paths } from '../../openapi/types.js';

const TAG = ['periods'];

const CLOSE_IN_WORDS =
  'Once the books are closed through a day, nothing may be dated on or before it, by any path: the database refuses it. ' +
  'A manual entry or reversal dated there is 422 `period_closed`, naming the close; a late upstream record, and a recost ' +
  'restatement of a closed day, post on the first open day with `metadata.original_txn_date` (docs/period-close.md).';

/** Who made a close or reopening (of the books or of a year). */
const CLOSED_BY: JsonSchema = {
  ...ref('Actor'),
  description: 'Who closed or reopened: `api`, or `api:<operator>` from `X-Ledger-Actor`.',
};

const REASON: JsonSchema = { type: 'string', minLength: 1, maxLength: 1000, description: 'Why (kept on the record).' };

/** A close's body: the one day `through`, as `description` says. */
const closeInput = (description: string, example: string): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: ['through'],
  properties: { through: { ...ref('Date'), description } },
  examples: [{ through: example }],
});

const YEAR_CLOSE_IN_WORDS =
  'Closing a financial year posts one entry (`txn_type` `year_close`), dated its last day, that brings every revenue and ' +
  'expense balance to zero against 3000 (retained earnings); the year must be closed as a period first. The income ' +
  "reports (`GET /v1/firm/earnings`, the summary's `fees_revenue_usd`) leave closing entries out, so net income reads " +
  "the same before and after; the balance sheet shows it in 3000. Reopening the period before the year's last day " +
  'reverses the entry on that day (docs/period-close.md#closing-a-financial-year).';

export const schemas: Record<string, JsonSchema> = {
  PeriodClose: object(
    {
      close_id: { type: 'integer', minimum: 1, description: 'Numbered in the order closes took effect.' },
      action: { type: 'string', enum: ['close', 'reopen'] },
      through: {
        type: ['string', 'null'],
        format: 'date',
        description: 'The books are closed through this day after this record; null: nothing is closed.',
      },
      reason: { type: ['string', 'null'], description: 'Why (always given for a reopening).' },
      actor: CLOSED_BY,
      created_at: { type: 'string', format: 'date-time' },
    },
    `A close or reopening of the books. ${CLOSE_IN_WORDS}`,
  ),
  PeriodClosePage: listEnvelope(
    ref('PeriodClose'),
    'Closes and reopenings, newest first: the first item is the state in force.',
  ),
  PeriodCloseInput: closeInput('Close every day up to and including this one; a day before today (UTC).', '2026-01-31'),
  YearClose: object(
    {
      year_close_id: {
        type: 'integer',
        minimum: 1,
        description: 'Numbered in the order years were closed and reopened.',
      },
      action: { type: 'string', enum: ['close', 'reopen'] },
      fy_start: { ...ref('Date'), description: "The financial year's first day." },
      fy_end: {
        ...ref('Date'),
        description: "The financial year's last day: the closing entry's (and its reversal's) date.",
      },
      txn_id: {
        type: ['string', 'null'],
        format: 'uuid',
        description:
          'close: the closing entry (`GET /v1/transactions/{txn_id}`; null: no revenue or expense balance to carry); reopen: its reversal.',
      },
      net_income_usd: {
        ...ref('SignedAmount'),
        description: 'Revenue less expenses of the year carried to 3000 (negative: a loss).',
      },
      reason: { type: ['string', 'null'], description: "Why (the reopening's reason; null for a close)." },
      actor: CLOSED_BY,
      created_at: { type: 'string', format: 'date-time' },
    },
    `A close of a financial year to retained earnings, or its reopening. ${YEAR_CLOSE_IN_WORDS}`,
  ),
  YearClosePage: listEnvelope(
    ref('YearClose'),
    'Closes and reopenings of financial years, newest first: the latest of a year is its state.',
  ),
  YearCloseInput: closeInput(
    "The last day of the financial year to close (the book's year starts in `FISCAL_YEAR_START_MONTH`: April on the India book, January on the UAE book, by default). The books must be closed through it.",
    '2026-03-31',
  ),
  PeriodReopenInput: {
    type: 'object',
    additionalProperties: false,
    required: ['reason'],
    properties: {
      through: {
        ...ref('Date'),
        description: 'The books stay closed through this day (before the current close); absent: nothing stays closed.',
      },
      reason: REASON,
    },
    examples: [{ through: '2026-01-31', reason: 'the February custodian statement arrived restated' }],
  },
};

/** A read of the closes' history, a page at a time (`limit`, `offset`): `page` names its envelope. */
function listOperation(operationId: string, summary: string, page: string, items: string): Operation {
  return {
    operationId,
    summary,
    tags: TAG,
    security: READ,
    parameters: [paramRef('Limit'), paramRef('Offset')],
    responses: {
      '200': { description: `A page of ${items}.`, content: json(ref(page)) },
      ...errorResponses(...READ_ERRORS),
    },
  };
}

export const paths: Paths = {
  '/v1/periods': {
    get: listOperation(
      'listPeriodCloses',
      'Closes and reopenings of the books, newest first',
      'PeriodClosePage',
      'closes',
    ),
  },
  '/v1/periods/close': {
    post: {
      operationId: 'closePeriod',
      summary: 'Close the books through a day (admin)',
      description:
        `${CLOSE_IN_WORDS} Closing the day already closed answers that close (200); a new close answers 201. A day earlier ` +
        'than the current close is 409 `conflict` (only a reopening moves back), and so is a close while trades dated in ' +
        'it are pending recost (run recost first). A close waits for postings in flight and postings wait for it.',
      tags: TAG,
      security: ADMIN,
      requestBody: { description: 'The last day to close.', required: true, content: json(ref('PeriodCloseInput')) },
      responses: {
        '201': { description: 'Closed.', content: json(ref('PeriodClose')) },
        '200': {
          description: 'Already closed through that day: the close in force.',
          content: json(ref('PeriodClose')),
        },
        ...errorResponses(...WRITE_ERRORS, 'Conflict'),
      },
    },
  },
  '/v1/periods/close-year': {
    post: {
      operationId: 'closeYear',
      summary: 'Close a financial year to retained earnings (admin)',
      description:
        `${YEAR_CLOSE_IN_WORDS} Closing a year already closed answers its close (200) and posts nothing; a new close ` +
        'answers 201. A day that ends no financial year of the book is 400; a year whose last day is not closed yet, or ' +
        'earlier than a year already closed, is 409 `conflict`.',
      tags: TAG,
      security: ADMIN,
      requestBody: { description: 'The year to close.', required: true, content: json(ref('YearCloseInput')) },
      responses: {
        '201': { description: 'Closed: the closing entry is posted.', content: json(ref('YearClose')) },
        '200': { description: 'Already closed: that close.', content: json(ref('YearClose')) },
        ...errorResponses(...WRITE_ERRORS, 'Conflict'),
      },
    },
  },
  '/v1/periods/years': {
    get: listOperation(
      'listYearCloses',
      'Closes and reopenings of financial years, newest first',
      'YearClosePage',
      'year closes',
    ),
  },
  '/v1/periods/reopen': {
    post: {
      operationId: 'reopenPeriod',
      summary: 'Reopen closed days, with a reason (admin, audited)',
      description:
        'Moves the close back to `through` (absent: nothing stays closed), recorded with its reason and actor. With nothing ' +
        'closed, or a `through` not before the current close, 409 `conflict`. A financial year closed to retained earnings ' +
        'whose last day opens again is reopened with it: its closing entry is reversed on that day (`GET /v1/periods/years`).',
      tags: TAG,
      security: ADMIN,
      requestBody: {
        description: 'Back to which day, and why.',
        required: true,
        content: json(ref('PeriodReopenInput')),
      },
      responses: {
        '201': { description: 'Reopened.', content: json(ref('PeriodClose')) },
        ...errorResponses(...WRITE_ERRORS, 'Conflict'),
      },
    },
  },
};
