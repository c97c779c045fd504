export {
  defineJob,
  jobCatalog,
  type AnyJob,
  type DefineJob,
  type JobCatalog,
  type JobDefinition,
  type JobDeps,
  type ProgressReporter,
} from './catalog.js';
export {
  createJobProducer,
  JobEnqueueUnconfirmed,
  JobQueueUnavailable,
  type JobProducer,
  type JobProducerOptions,
} from './producer.js';
export { JobRunStore, type Claim, type JobRun, type JobRunFilter, type NewRun } from './runs.js';
export {
  DEFAULT_JOB_OPTIONS,
  JOB_FAMILIES,
  JOB_RETENTION,
  JOB_STATUS_RETENTION_SECONDS,
  jobIdOf,
  queueName,
  type JobFamily,
} from './queues.js';
export { createJobProcessor, type RunnerContext } from './runner.js';
export {
  fieldsOfRun,
  JobStatusStore,
  statusKeyPrefix,
  statusOf,
  type JobProgress,
  type JobState,
  type JobStatus,
} from './status.js';
export { createJobWorkers, type JobWorkers, type JobWorkersOptions } from './worker.js';
