import { UnrecoverableError, type Job } from 'bullmq';
import type { JobContext, JobHandler } from './jobs/index.js';

/**
 * The BullMQ processor: dispatches each job by its name to the registered handler. A name no
 * handler knows fails at once with UnrecoverableError: retrying cannot teach this worker a job.
 */
export function createProcessor(
  handlers: Readonly<Record<string, JobHandler>>,
  context: JobContext,
) {
  const known = Object.keys(handlers).sort();
  return async (job: Job<unknown, unknown, string>): Promise<unknown> => {
    const handler = Object.hasOwn(handlers, job.name) ? handlers[job.name] : undefined;
    if (!handler) {
      throw new UnrecoverableError(
        `unknown job name "${job.name}"; this worker handles ${known.length > 0 ? known.join(', ') : 'no job kinds yet'}`,
      );
    }
    const logger = context.logger.child({ job_id: job.id, job_name: job.name });
    return handler(job, { ...context, logger });
  };
}
