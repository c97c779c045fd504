export {
  createUaefeedClient,
  createUaefeedClientIfConfigured,
  UAEFEED_PAGE_SIZE,
  UAEFEED_PAGE_SIZE_MAX,
  UAEFEED_PAGES_MAX,
  UAEFEED_PATHS,
} from './client.js';
export {
  UAEFEED_ASSERTION_LIFETIME_S,
  UAEFEED_REFRESH_MARGIN_MS,
  UAEFEED_REFRESH_PATH,
  UAEFEED_TOKEN_PATH,
} from './auth.js';
export { UaefeedRejectedError } from './errors.js';
export { jsonNumberToDecimal, parseLossless } from './lossless.js';
export type {
  UaefeedClientConfig,
  UaefeedTransferType,
  UaefeedTransferStatus,
  UaefeedCashTransfer,
  UaefeedSide,
  UaefeedOrderStatus,
  UaefeedOrder,
  UaefeedCashSummary,
  UaefeedCashStatementLine,
  UaefeedCashStatementAccount,
  UaefeedCashStatement,
  UaefeedSecurityType,
  UaefeedHoldingMovement,
  UaefeedHoldingSymbol,
  UaefeedHoldingExchange,
  UaefeedHoldingAccount,
  UaefeedHoldingsStatement,
  UaefeedReceived,
  UaefeedListQuery,
  UaefeedMonthQuery,
  UaefeedClient,
} from './types.js';
