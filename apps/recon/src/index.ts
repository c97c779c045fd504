export { loadConfig, reconConfigSchema, type ReconConfig } from './config.js';
export { Scheduler, type ScheduledTask, type SchedulerOptions } from './scheduler.js';
export { reconTasks } from './tasks.js';
