import { ACTOR_NAME_PATTERN_SOURCE, ACTOR_NAME_RULE } from '@ledger/core/posting';
import {
  CATEGORIES,
  SIGHTINGS_SHOWN,
  STATUSES,
  TRIAGE_EVENT_ACTIONS,
  TRIAGE_STATE_FILTERS,
  TRIAGE_STATES,
} from '@ledger/reconciliation';
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
const TIME: JsonSchema = { type: 'string', format: 'date-time' };

const VARIANCE_ID: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: 9_007_199_254_740_991,
  description: 'A variance id: one variance across every run that found it.',
};
const TRIAGE_STATE: JsonSchema = {
  type: 'string',
  enum: TRIAGE_STATES,
  description:
    '`open` (found, not yet looked at), `acknowledged`, `assigned` (to `assignee`), `resolved` (by an operator, or by the first run that no longer found it).',
};
const ASSIGNEE: JsonSchema = {
  type: 'string',
  pattern: ACTOR_NAME_PATTERN_SOURCE,
  description: `Who works it: an operator's name or e-mail (${ACTOR_NAME_RULE}).`,
};
const NOTE: JsonSchema = { type: 'string', minLength: 1, maxLength: 2000, pattern: '\\S' };
const triageInput = (required: string[], properties: Record<string, JsonSchema>, example: unknown): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
  examples: [example],
});
const identityFields = {
  check_name: CHECK_NAME,
  txn_id: { type: ['string', 'null'], format: 'uuid' },
  source_txn_id: nullableText,
  customer_id: nullableText,
  account_code: nullableText,
  symbol: nullableText,
} satisfies Record<string, JsonSchema>;

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

const trackedFields = {
  variance_id: VARIANCE_ID,
  ...identityFields,
  kind: { ...nullableText, description: 'What broke (`detail.problem`); null when the check names none.' },
  state: TRIAGE_STATE,
  assignee: { ...nullableText, description: 'Who it was last assigned to.' },
  present: {
    type: 'boolean',
    description: 'The latest run of its check that could judge it found it (false: gone since).',
  },
  first_seen_run_id: RUN_ID,
  first_seen_at: TIME,
  last_seen_run_id: RUN_ID,
  last_seen_at: TIME,
  times_seen: { type: 'integer', minimum: 1, description: 'How many runs found it.' },
  expected: { ...FIGURE, description: 'As last found: the figure the ledger implies.' },
  actual: { ...FIGURE, description: 'As last found: the figure found.' },
  difference: { ...FIGURE, description: 'As last found: actual − expected.' },
  detail: { type: 'object', additionalProperties: true, description: 'As last found.' },
  state_changed_at: TIME,
  state_changed_by: {
    ...ref('Actor'),
    description: 'Who last changed its state (as `Actor`; a run’s actor for a run).',
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
      ...identityFields,
      expected: { ...FIGURE, description: 'The figure the ledger implies.' },
      actual: { ...FIGURE, description: 'The figure found.' },
      difference: { ...FIGURE, description: 'actual − expected.' },
      detail: {
        type: 'object',
        additionalProperties: true,
        description: 'The check’s own facts, with `problem` naming what broke.',
      },
      variance_id: {
        ...VARIANCE_ID,
        type: ['integer', 'null'],
        description:
          'The variance this is across runs (`/v1/reconciliation/variances/{variance_id}`); null for a run stored before triage.',
      },
      state: {
        ...TRIAGE_STATE,
        type: ['string', 'null'],
        enum: [...TRIAGE_STATES, null],
        description: 'That variance’s triage state now.',
      },
    },
    'A row that broke a check: what it names, the expected and actual figures and their difference, and the variance it is across runs.',
  ),
  TrackedVariance: object(
    trackedFields,
    'One variance across runs (docs/reconciliation.md#variance-triage): its identity (the check, what it names, its kind), its triage state, its first and last sighting and its figures as last found.',
  ),
  TrackedVariancePage: listEnvelope(ref('TrackedVariance'), 'A page of variances, the most recently found first.'),
  VarianceTriageEvent: object(
    {
      event_id: { type: 'integer', minimum: 1 },
      action: {
        type: 'string',
        enum: TRIAGE_EVENT_ACTIONS,
        description:
          '`opened`, `reopened`, `resolved` by a run (`run_id`), or `acknowledged`, `assigned`, `noted`, `resolved` by an operator.',
      },
      state: { ...TRIAGE_STATE, description: 'The state after it.' },
      assignee: nullableText,
      note: nullableText,
      run_id: { ...RUN_ID, type: ['string', 'null'], description: 'The run that opened, reopened or resolved it.' },
      actor: ref('Actor'),
      at: TIME,
    },
    'One change of a variance’s triage: history, never changed.',
  ),
  VarianceSighting: object(
    {
      run_id: RUN_ID,
      started_at: TIME,
      status: STATUS,
      seen_at: TIME,
      expected: FIGURE,
      actual: FIGURE,
      difference: FIGURE,
    },
    'A run that found the variance, with what it found.',
  ),
  TrackedVarianceDetail: object(
    {
      ...trackedFields,
      history: { type: 'array', items: ref('VarianceTriageEvent'), description: 'Every change, oldest first.' },
      runs: {
        type: 'array',
        items: ref('VarianceSighting'),
        maxItems: SIGHTINGS_SHOWN,
        description: `The latest ${SIGHTINGS_SHOWN} runs that found it, newest first (\`times_seen\` counts them all).`,
      },
    },
    'One variance with its triage history and the runs that found it.',
  ),
  VarianceCounts: object(
    {
      unresolved: {
        type: 'integer',
        minimum: 0,
        description: 'Variances not resolved (open, acknowledged or assigned).',
      },
      by_state: object(
        Object.fromEntries(TRIAGE_STATES.map((s) => [s, { type: 'integer', minimum: 0 }])),
        'How many stand in each state.',
      ),
      by_check: {
        type: 'array',
        description: 'Unresolved variances per check, most first.',
        items: object(
          { check_name: CHECK_NAME, unresolved: { type: 'integer', minimum: 1 } },
          'A check’s unresolved variances.',
        ),
      },
    },
    'How many variances stand in each state (of one customer, when asked).',
  ),
  VarianceAcknowledgeInput: triageInput([], { note: NOTE }, { note: 'looking into it' }),
  VarianceAssignInput: triageInput(['assignee'], { assignee: ASSIGNEE, note: NOTE }, { assignee: 'ana@example.com' }),
  VarianceNoteInput: triageInput(['note'], { note: NOTE }, { note: 'the broker confirms 12 shares' }),
  VarianceResolveInput: triageInput(
    ['note'],
    { note: { ...NOTE, description: 'Why it is resolved.' } },
    { note: 'the corporate action was booked late; it ties out now' },
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

const varianceIdPath: Parameter = {
  name: 'variance_id',
  in: 'path',
  required: true,
  description: 'A variance id.',
  schema: VARIANCE_ID,
};

/** One operator action on a variance: admin, answering the variance with its history. */
function triageAction(
  action: string,
  operationId: string,
  summary: string,
  description: string,
  input: string,
  bodyRequired: boolean,
): Paths {
  return {
    [`/v1/reconciliation/variances/{variance_id}/${action}`]: {
      post: {
        operationId,
        summary,
        description: `${description} Recorded on its history with the actor (\`X-Ledger-Actor\`) and the time.`,
        tags: TAG,
        security: ADMIN,
        parameters: [varianceIdPath],
        requestBody: { description: 'What to record.', required: bodyRequired, content: json(ref(input)) },
        responses: {
          '200': { description: 'The variance, with its history.', content: json(ref('TrackedVarianceDetail')) },
          ...errorResponses(...WRITE_ERRORS, 'NotFound', 'Conflict'),
        },
      },
    },
  };
}

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
  '/v1/reconciliation/variances': {
    get: {
      operationId: 'listReconciliationVariances',
      summary: 'Variances across runs, the most recently found first',
      description:
        'Each variance once, however many runs found it, with its triage state (docs/reconciliation.md#variance-triage).',
      tags: TAG,
      security: READ,
      parameters: [
        query('state', 'Only variances in this state; `unresolved`: open, acknowledged or assigned.', {
          type: 'string',
          enum: TRIAGE_STATE_FILTERS,
        }),
        query('check_name', 'Only this check’s.', CHECK_NAME),
        paramRef('CustomerIdFilter'),
        query('run_id', 'Only those this run found.', RUN_ID),
        paramRef('Limit'),
        paramRef('Offset'),
      ],
      responses: {
        '200': { description: 'A page of variances.', content: json(ref('TrackedVariancePage')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
  '/v1/reconciliation/variance-counts': {
    get: {
      operationId: 'countReconciliationVariances',
      summary: 'How many variances stand in each state (the Firm page’s and a customer’s open variances)',
      tags: TAG,
      security: READ,
      parameters: [paramRef('CustomerIdFilter')],
      responses: {
        '200': { description: 'The counts.', content: json(ref('VarianceCounts')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
  '/v1/reconciliation/variances/{variance_id}': {
    get: {
      operationId: 'getReconciliationVariance',
      summary: 'One variance, with its triage history and the runs that found it',
      tags: TAG,
      security: READ,
      parameters: [varianceIdPath],
      responses: {
        '200': { description: 'The variance.', content: json(ref('TrackedVarianceDetail')) },
        ...errorResponses(...READ_ERRORS, 'NotFound'),
      },
    },
  },
  ...triageAction(
    'acknowledge',
    'acknowledgeReconciliationVariance',
    'Acknowledge a variance (admin)',
    '`open` → `acknowledged`; already acknowledged or assigned: answered unchanged. A resolved one is 409 `invalid_state_transition`. An optional note goes on the history.',
    'VarianceAcknowledgeInput',
    false,
  ),
  ...triageAction(
    'assign',
    'assignReconciliationVariance',
    'Assign a variance to someone (admin)',
    '→ `assigned` to `assignee` (again to the same one: unchanged). A resolved one is 409 `invalid_state_transition`.',
    'VarianceAssignInput',
    true,
  ),
  ...triageAction(
    'note',
    'noteReconciliationVariance',
    'Add a note to a variance’s history (admin)',
    'The state stays as it is (a resolved variance may be noted too).',
    'VarianceNoteInput',
    true,
  ),
  ...triageAction(
    'resolve',
    'resolveReconciliationVariance',
    'Resolve a variance, saying why (admin)',
    '→ `resolved`; already resolved: unchanged. It stays resolved while runs keep finding it as it is; once a run no longer finds it, a later run that finds it again reopens it.',
    'VarianceResolveInput',
    true,
  ),
};
