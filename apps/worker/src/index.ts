// The worker is a process, not a library: producers (the api) take what they need from @ledger/jobs.
export { loadConfig, workerConfigSchema, type WorkerConfig } from './config.js';
