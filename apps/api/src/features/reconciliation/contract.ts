import { CATEGORIES, STATUSES } from '@ledger/reconciliation';
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
import { PATTERNS } from '../../openapi/patterns.js';
import { ADMIN, READ } from '../../openapi/security.js';
import type { JsonSchema, Parameter, Paths } from '../../openapi/types.js';

const TAG = ['reconciliation'];

const RUN_ID: JsonSchema = {
  type: 'string',
  format: 'uuid',
  pattern: PATTERNS.uuid.pattern,
  description: 'A run id (a UUID).',
};
const CATEGORY: JsonSchema = {
  type: 'string',
  enum: CATEGORIES,
  description: '`A` internal integrity, `B` derivation, `C` external (live upstream calls), `D` lifecycle (aging).',
};
const STATUS: JsonSchema = {
  type: 'string',
  enum: STATUSES,
  description: '`ok`, `warn` or `fail`; a run’s is the worst of its results.',
};
const CHECK_NAME: JsonSchema = { type: 'string', pattern: '^[a-z][a-z0-9_]{0,63}$', examples: ['trial_balance_zero'] };
/** Expected, actual and difference: decimal strings (money, or a count), null where the check has none. */
const FIGURE: JsonSchema = { type: ['string', 'null'], pattern: '^-?[0-9]+(\\.[0-9]+)?$' };
const nullableText: JsonSchema = { type: ['string', 'null'] };

const runFields = {
  run_id: RUN_ID,
  started_at: { type: 'string', format: 'date-time' },
  finished_at: { type: 'string', format: 'date-time' },
  category: {
    ...CATEGORY,
    type: ['string', 'null'],
    enum: [...CATEGORIES, null],
    description: 'The category run; null: every category.',
  },
  status: STATUS,
  results: {
    type: 'array',
    items: ref('ReconciliationCheckResult'),
    description: 'One per check run, in the registry’s order.',
  },
} satisfies Record<string, JsonSchema>;

/** The schemas only reconciliation uses. */
export const schemas: Record<string, JsonSchema> = {
  ReconciliationCheckResult: object(
    {
      check_name: CHECK_NAME,
      category: CATEGORY,
      status: STATUS,
      metrics: {
        type: 'object',
        additionalProperties: true,
        description:
          'What the check measured (docs/reconciliation.md, per check); `error` when it threw (then `fail`).',
      },
      ran_at: { type: 'string', format: 'date-time' },
    },
    'One check’s result in a run.',
  ),
  ReconciliationVariance: object(
    {
      check_name: CHECK_NAME,
      txn_id: { type: ['string', 'null'], format: 'uuid' },
      source_txn_id: nullableText,
      customer_id: nullableText,
      account_code: nullableText,
      symbol: nullableText,
      expected: { ...FIGURE, description: 'The figure the ledger implies.' },
      actual: { ...FIGURE, description: 'The figure found.' },
      difference: { ...FIGURE, description: 'actual − expected.' },
      detail: {
        type: 'object',
        additionalProperties: true,
        description: 'The check’s own facts, with `problem` naming what broke.',
      },
    },
    'A row that broke a check: what it names, the expected and actual figures and their difference.',
  ),
  ReconciliationSkippedCheck: object(
    { check_name: CHECK_NAME, category: CATEGORY, reason: { type: 'string' } },
    'A check this run left alone: another instance held its cluster-wide lock and ran it.',
  ),
  ReconciliationRun: object(
    {
      ...runFields,
      metadata: object(
        {
          variances: {
            type: 'array',
            items: ref('ReconciliationVariance'),
            description: 'Every variance of the run (at most `RECON_VARIANCES_PER_CHECK_MAX` per check).',
          },
          skipped: { type: 'array', items: ref('ReconciliationSkippedCheck') },
        },
        'The variances of the `warn` and `fail` results, and the checks skipped.',
      ),
    },
    'A reconciliation run: each check’s result, the worst status, and the variances (docs/reconciliation.md).',
  ),
  ReconciliationRunSummary: object(
    {
      ...runFields,
      variance_count: {
        type: 'integer',
        minimum: 0,
        description: 'How many variances the run holds (`GET /v1/reconciliation/runs/{run_id}` lists them).',
      },
    },
    'A run in the history: its results, without its variances.',
  ),
  ReconciliationRunPage: listEnvelope(ref('ReconciliationRunSummary'), 'A page of runs, newest first.'),
  ReconciliationRunInput: {
    type: 'object',
    description:
      'Which category to run; without one, every category. Any other category is a 400. `full`: every incremental check sweeps the whole book, whatever its high-water mark.',
    additionalProperties: false,
    properties: {
      category: CATEGORY,
      full: {
        type: 'boolean',
        description:
          'Sweep the whole book in every check that otherwise looks only at what was posted since its last clean run (docs/reconciliation.md#incremental-runs); absent: false.',
      },
    },
    examples: [{ category: 'A' }, {}, { category: 'A', full: true }],
  },
};

const query = (name: string, description: string, schema: JsonSchema): Parameter => ({
  name,
  in: 'query',
  description,
  schema,
});

export const paths: Paths = {
  '/v1/reconciliation/runs': {
    get: {
      operationId: 'listReconciliationRuns',
      summary: 'Reconciliation run history, newest first',
      tags: TAG,
      security: READ,
      parameters: [
        query('status', 'Only runs whose (worst) status is this.', STATUS),
        query('category', 'Only runs of this category.', CATEGORY),
        query('check_name', 'Only runs that ran this check.', CHECK_NAME),
        query('from', 'Earliest start date (UTC), inclusive (YYYY-MM-DD).', ref('Date')),
        query('to', 'Latest start date (UTC), inclusive (YYYY-MM-DD).', ref('Date')),
        paramRef('Limit'),
        paramRef('Offset'),
      ],
      responses: {
        '200': { description: 'A page of runs.', content: json(ref('ReconciliationRunPage')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
  '/v1/reconciliation/runs/{run_id}': {
    get: {
      operationId: 'getReconciliationRun',
      summary: 'One run, with its variances',
      tags: TAG,
      security: READ,
      parameters: [{ name: 'run_id', in: 'path', required: true, description: 'A run id.', schema: RUN_ID }],
      responses: {
        '200': { description: 'The run.', content: json(ref('ReconciliationRun')) },
        ...errorResponses(...READ_ERRORS, 'NotFound'),
      },
    },
  },
  '/v1/reconciliation/run': {
    post: {
      operationId: 'runReconciliation',
      summary: 'Run the checks now (admin)',
      description:
        'Runs the book’s checks of `category` (every category without one) now, each under its cluster-wide lock (a ' +
        'check another instance is running is waited for, then run), stores the run and answers it. A request for ' +
        'what a run in flight on this process already runs (same `category` and `full`) joins it and answers that run; ' +
        'other requests run one after another. A shutdown stops a run (503, nothing stored). ' +
        'A check that throws is a `fail` with `metrics.error`; the others still run. A `warn` or `fail` sends the drift ' +
        'alert when `ALERT_WEBHOOK_URL` is set.',
      tags: TAG,
      security: ADMIN,
      requestBody: {
        description: 'Optional: the category.',
        required: false,
        content: json(ref('ReconciliationRunInput')),
      },
      responses: {
        '200': { description: 'The run, stored.', content: json(ref('ReconciliationRun')) },
        ...errorResponses(...WRITE_ERRORS, 'NotReady'),
      },
    },
  },
};
