export { Scheduler, type ScheduledTask, type SchedulerOptions } from './scheduler.js';
