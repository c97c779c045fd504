export {
  createUsbrokerClient,
  USBROKER_PAGE_LIMIT_MAX,
  type UsbrokerClient,
  type UsbrokerClientOptions,
} from './client.js';
export { USBROKER_DAILY_LEDGER_COLUMNS } from './daily-ledger.js';
export { UsbrokerAuthError, UsbrokerNotFoundError, UsbrokerPageCapError } from './errors.js';
export type {
  UsbrokerAccount,
  UsbrokerBalance,
  UsbrokerCostType,
  UsbrokerCashInLieuRow,
  UsbrokerDailyLedgerRow,
  UsbrokerDividendRow,
  UsbrokerFeeRow,
  UsbrokerOrder,
  UsbrokerPosition,
  UsbrokerQuote,
  UsbrokerRowCode,
  UsbrokerSplitRow,
  UsbrokerTradeRow,
  UsbrokerUnknownRow,
  UsbrokerWire,
  UsbrokerWithholdingRow,
} from './types.js';
