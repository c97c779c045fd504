export { createApp, type AppOptions } from './app.js';
export { apiConfigSchema, loadConfig, type ApiConfig } from './config.js';
export { apiDocument } from './openapi/index.js';
