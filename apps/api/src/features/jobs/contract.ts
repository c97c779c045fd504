import { JOB_STATUS_RETENTION_SECONDS, type JobDefinition } from '@ledger/job-runtime';
import { JOBS, RESULT_SCHEMAS } from '@ledger/jobs';
import { z } from 'zod';
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
import type { JsonSchema, Operation, Parameter, Paths } from '../../openapi/types.js';

/** `sync-uaefeed` → `runSyncUaefeed`: the operationId of a job's endpoint. */
export const runOperationId = (kind: string) =>
  `run${kind.replace(/(^|-)([a-z])/g, (_m, _dash, letter: string) => letter.toUpperCase())}`;

const JOB_ID_PATTERN = '^[A-Za-z0-9._%~-]{1,200}$';
const RETENTION_DAYS = JOB_STATUS_RETENTION_SECONDS / 86_400;

const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const timestamp = (description: string): JsonSchema => ({ type: ['string', 'null'], format: 'date-time', description });

const STATUS: JsonSchema = { type: 'string', enum: ['running', 'done', 'error'] };

/** The OpenAPI name of a job's result: the id its schema registered under (RESULT_SCHEMAS). */
function resultName(definition: JobDefinition): string {
  const id = RESULT_SCHEMAS.get(definition.result)?.id;
  if (id === undefined) throw new Error(`job ${definition.kind}'s result schema is not registered in RESULT_SCHEMAS`);
  return id;
}

/**
 * Any job's result, or null: anyOf, not oneOf, because jobs may share a result's shape (the
 * reference loads do), and a result matching two alike branches would fail a oneOf.
 */
const ANY_RESULT: JsonSchema = {
  anyOf: [...new Set(Object.values(JOBS).map(resultName))].map(ref).concat({ type: 'null' }),
};

/**
 * The batch results' schemas, generated from their one definition (RESULT_SCHEMAS in
 * @ledger/jobs: the jobs' results, the import's, the outcome vocabulary), each by its id.
 */
function resultSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(RESULT_SCHEMAS, {
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'throw',
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _schema, $id: _id, ...schema }]) => [id, schema as JsonSchema]),
  );
}
const STARTED_BY =
  'Who queued the job (docs/actors.md): `api:<operator>` (the `X-Ledger-Actor` header) or `api`, `system` when the worker was not told; `legacy` for runs from before it was recorded.';
const query = (name: string, description: string, schema: JsonSchema): Parameter => ({
  name,
  in: 'query',
  description,
  schema,
});

export const schemas: Record<string, JsonSchema> = {
  ...resultSchemas(),
  JobStatus: object(
    {
      job_id: { type: 'string', pattern: JOB_ID_PATTERN },
      kind: { type: 'string', description: 'The job’s name, e.g. `recost`.' },
      started_by: {
        type: ['string', 'null'],
        description: `${STARTED_BY} Null only in a record the queue kept from before it was recorded.`,
      },
      status: STATUS,
      queued_at: timestamp(
        'When the job was queued (the book’s database clock, as every time of the record); null only when the queue lost its record of a job that ran.',
      ),
      started_at: {
        type: 'string',
        format: 'date-time',
        description:
          'Never null, never before `queued_at`: when its first attempt started; while it waits in the queue (`attempts` 0), its `queued_at`.',
      },
      finished_at: timestamp('Null while running.'),
      duration_ms: {
        type: ['integer', 'null'],
        minimum: 0,
        description:
          'From the first attempt’s start to the end: every attempt, and the waits between them; null while running.',
      },
      attempts: {
        type: 'integer',
        minimum: 0,
        description:
          'Attempts started, by any worker: a transient failure is retried with backoff, and the job of a worker that died is taken over by another.',
      },
      progress: nullable(
        object(
          {
            done: { type: 'integer', minimum: 0 },
            total: { type: ['integer', 'null'], minimum: 0 },
            unit: { type: 'string' },
          },
          'How far it is.',
        ),
      ),
      result: { ...ANY_RESULT, description: 'What the job reports when done: its job’s result (see its endpoint).' },
      error: {
        type: ['string', 'null'],
        description: 'Why it failed (`error`), or why the last attempt failed while it is retried.',
      },
    },
    `The job status record. A queued job not yet started is \`running\` with \`attempts\` 0 and \`started_at\` its \`queued_at\`. Kept in Redis ${RETENTION_DAYS} days after its last change, longer than the queue keeps the job; a job that started is also kept in the book’s database (\`job_runs\`), which decides its outcome and answers for it after that.`,
  ),
  JobRun: object(
    {
      job_id: { type: 'string', pattern: JOB_ID_PATTERN },
      kind: { type: 'string', description: 'The job’s name, e.g. `recost`.' },
      started_by: { type: 'string', description: STARTED_BY },
      status: STATUS,
      started_at: { type: 'string', format: 'date-time', description: 'When its first attempt started.' },
      finished_at: timestamp('Null while running.'),
      duration_ms: {
        type: ['integer', 'null'],
        minimum: 0,
        description: 'From the first attempt’s start to the end; null while running.',
      },
      attempts: { type: 'integer', minimum: 1, description: 'Attempts started, by any worker.' },
      input: { description: 'The job’s validated parameters, as it was started with them.' },
      result: { ...ANY_RESULT, description: 'What the job reported, when done: its job’s result.' },
      error: {
        type: ['string', 'null'],
        description: 'Why it failed (`error`), or why the last attempt failed while it is retried.',
      },
    },
    'A job run as the book’s database keeps it (`job_runs`): every job that started, kept for good. Its progress and queueing time are in its status record (`GET /v1/jobs/status/{job_id}`).',
  ),
  JobRunPage: listEnvelope(ref('JobRun'), 'A page of job runs, the latest started first.'),
};

/** A status record; of one job's, its `result` is that job's (or null). */
const statusResponse = (description: string, definition?: JobDefinition) => ({
  description,
  content: json(
    definition === undefined
      ? ref('JobStatus')
      : {
          allOf: [
            ref('JobStatus'),
            { type: 'object', properties: { result: { anyOf: [ref(resultName(definition)), { type: 'null' }] } } },
          ],
        },
  ),
});

/** The endpoint of one job of the catalog: its body is the job's own payload schema. */
function jobOperation(definition: JobDefinition): Operation {
  const body = z.toJSONSchema(definition.input, { unrepresentable: 'throw' }) as JsonSchema & { $schema?: string };
  delete body.$schema;
  const sync = definition.mode === 'sync';
  return {
    operationId: runOperationId(definition.kind),
    summary: `Run ${definition.kind} (${sync ? 'synchronous' : 'background'}; admin)`,
    description:
      (sync
        ? 'Synchronous: waits for the result (up to `JOB_SYNC_WAIT_MS`) and answers 200 with the status record, `done` or `error`; past the wait, 202 with the record still `running`, to poll. '
        : 'Background: answers 202 at once with the status record (`running`); poll `GET /v1/jobs/status/{job_id}`. ') +
      `Books: ${definition.books.join(', ')}; on another book it answers 409 \`wrong_book\` and queues nothing.`,
    tags: ['jobs'],
    security: ADMIN,
    requestBody: { description: `The ${definition.kind} job's parameters.`, required: false, content: json(body) },
    responses: {
      ...(sync && { '200': statusResponse('Finished: `done` with its result, or `error` with why.', definition) }),
      '202': statusResponse('Accepted and running: poll its status.', definition),
      ...errorResponses(...WRITE_ERRORS, 'Conflict', 'EnqueueUnconfirmed'),
    },
  };
}

export const paths: Paths = {
  '/v1/jobs': {
    get: {
      operationId: 'listJobs',
      summary: 'The job runs of the book, filtered and paged, the latest started first',
      description:
        'Every job that started on this book, from its database (`job_runs`): a job still waiting in the queue is not listed until an attempt starts (its status record answers for it).',
      tags: ['jobs'],
      security: READ,
      parameters: [
        query('kind', 'Only runs of this job.', { type: 'string', enum: Object.keys(JOBS) }),
        query('status', 'Only runs in this state.', STATUS),
        query('from', 'Earliest first-attempt start date (UTC), inclusive (YYYY-MM-DD).', ref('Date')),
        query('to', 'Latest first-attempt start date (UTC), inclusive (YYYY-MM-DD).', ref('Date')),
        paramRef('Limit'),
        paramRef('Offset'),
      ],
      responses: {
        '200': { description: 'A page of job runs.', content: json(ref('JobRunPage')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
  '/v1/jobs/status/{job_id}': {
    get: {
      operationId: 'getJobStatus',
      summary: 'The status record of a job, background or not',
      tags: ['jobs'],
      security: READ,
      parameters: [
        {
          name: 'job_id',
          in: 'path',
          required: true,
          description: 'As a job endpoint answered it.',
          schema: { type: 'string', pattern: JOB_ID_PATTERN },
        },
      ],
      responses: {
        '200': statusResponse('The job’s status record.'),
        ...errorResponses(...READ_ERRORS, 'NotFound', 'NotReady'),
      },
    },
  },
  ...Object.fromEntries(
    Object.values(JOBS).map((definition) => [`/v1/jobs/${definition.kind}`, { post: jobOperation(definition) }]),
  ),
};
