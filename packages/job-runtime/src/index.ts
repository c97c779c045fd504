export { defineJob, jobCatalog, type AnyJob, type DefineJob, type JobDefinition, type JobDeps } from './catalog.js';
export { createJobProducer, JobEnqueueUnconfirmed, JobQueueUnavailable, type JobProducer } from './producer.js';
export { JobRunStore, type JobRun, type JobRunFilter } from './runs.js';
export { JOB_FAMILIES, JOB_STATUS_RETENTION_SECONDS, queueName, type JobFamily } from './queues.js';
export { fieldsOfRun, JobStatusStore, statusKeyPrefix, type JobProgress } from './status.js';
export { createJobWorkers, type JobWorkers } from './worker.js';
