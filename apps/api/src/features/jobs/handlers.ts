import { fieldsOfRun, JobRunStore, type JobRun, type JobRunFilter } from '@ledger/job-runtime';
import { JOBS } from '@ledger/jobs';
import { ApiError } from '../../http/errors.js';
import { pageOf, pick } from '../../http/query.js';
import type { FeatureContext, Handler } from '../feature.js';
import { runOperationId } from './contract.js';

const FILTER_KEYS = ['kind', 'status', 'from', 'to'] as const satisfies ReadonlyArray<keyof JobRunFilter>;

const presentRun = (run: JobRun) => ({ ...fieldsOfRun(run), input: run.input });

export function handlers({ jobs, config, db }: FeatureContext): Record<string, Handler> {
  const runs = new JobRunStore(db);
  /** Enqueues the job (the validator has checked the body against its schema) and answers its status. */
  const run =
    (kind: string): Handler =>
    async (req, res) => {
      const { books } = JOBS[kind]!;
      // Every job's endpoint exists on both books (one document); a job of the other book is refused before anything is queued.
      if (!books.includes(config.book))
        throw new ApiError('wrong_book', `${kind} runs on ${books.join(', ')}; this is ${config.book}`, [
          { book: config.book, books },
        ]);
      const status = await jobs.enqueue(kind, req.body ?? {});
      res.status(status.status === 'running' ? 202 : 200).json(status);
    };

  return {
    listJobs: async (req, res) => {
      const page = await runs.list(pick(req.query, FILTER_KEYS) as JobRunFilter, pageOf(req.query));
      res.json({ ...page, items: page.items.map(presentRun) });
    },
    getJobStatus: async (req, res) => {
      const jobId = String(req.params.job_id);
      const status = await jobs.status(jobId);
      if (!status) throw new ApiError('not_found', `no job ${jobId} (or its status is older than its retention)`);
      res.json(status);
    },
    ...Object.fromEntries(Object.keys(JOBS).map((kind) => [runOperationId(kind), run(kind)])),
  };
}
