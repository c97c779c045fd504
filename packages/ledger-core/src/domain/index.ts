export * from './accounts.js';
export * from './errors.js';
export * from './money.js';
export * from './posting-rules/index.js';
export * from './sources.js';
export * from './transaction.js';
export * from './limits.js';
