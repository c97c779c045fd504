// What producers (the api) need to enqueue work for this worker; importing it starts nothing.
export { DEFAULT_JOB_OPTIONS, DEFAULT_QUEUE_PREFIX, jobsQueueName, type JobName, type JobPayloads } from './queues.js';
