export {
  createUpstreamHttp,
  UPSTREAM_HTTP_DEFAULTS,
  UpstreamError,
  type SearchParams,
  type UpstreamFailure,
  type UpstreamHttp,
  type UpstreamHttpOptions,
} from './http.js';
