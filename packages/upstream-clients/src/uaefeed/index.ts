export { createUaefeedClient } from './client.js';
export { UaefeedRejectedError } from './errors.js';
export type {
  UaefeedClientConfig,
  UaefeedCashTransfer,
  UaefeedOrder,
  UaefeedCashSummary,
  UaefeedHoldingsStatement,
  UaefeedClient,
} from './types.js';
