export {
  createUpstreamHttp,
  UPSTREAM_HTTP_DEFAULTS,
  UpstreamError,
  type SearchParams,
  type UpstreamFailure,
  type UpstreamHttp,
  type UpstreamHttpOptions,
  type UpstreamErrorDetail,
  type UpstreamRequestOptions,
} from './http.js';
export { UpstreamPayloadError, fieldPath, parsePayload, type PayloadSource } from './payload-error.js';
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
