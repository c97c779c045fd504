export { UpstreamError } from './http.js';
export { UpstreamPayloadError } from './payload-error.js';
export * from './uaefeed/index.js';
export * from './custodian/index.js';
export * from './usbroker/index.js';
export * from './remit/index.js';
export * from './registry/index.js';
export {
  createUpstreamClients,
  NO_UPSTREAMS,
  upstreamConfigSchema,
  type UpstreamClients,
  type UpstreamEnv,
} from './config.js';
