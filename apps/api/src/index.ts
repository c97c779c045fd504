export { createApp, type AppOptions } from './app.js';
export { loadConfig, type ApiConfig } from './config.js';
export { apiDocument } from './openapi/index.js';
