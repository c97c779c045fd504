/**
 * What this package's own tests reach beyond its public index (index.ts): internals they test
 * directly. No other package imports it (it is not in package.json's exports).
 */
export * from './index.js';
export { createUpstreamHttp, type UpstreamHttpOptions } from './http.js';
export { createUaefeedClientIfConfigured, UAEFEED_PAGES_MAX } from './uaefeed/client.js';
export { jsonNumberToDecimal } from './uaefeed/lossless.js';
export { createCustodianClientIfConfigured, CUSTODIAN_PAGES_MAX } from './custodian/client.js';
export { createUsbrokerClientIfConfigured, USBROKER_QUOTE_SYMBOLS_MAX } from './usbroker/client.js';
export { parseDailyLedger } from './usbroker/daily-ledger.js';
export { createRemitClientIfConfigured } from './remit/client.js';
export { RemitAuthError } from './remit/errors.js';
export { minorToDecimal } from './remit/minor-units.js';
export { createRegistryClientIfConfigured } from './registry/client.js';
