export * from './test-database.js';
export * from './app-process.js';
export * from './process-startup.js';
