export { createRemitClient, type RemitClient, type RemitClientOptions } from './client.js';
export { RemitApiError, RemitNotFoundError, RemitPageCapError } from './errors.js';
export type {
  RemitBalances,
  RemitMidRate,
  RemitMoney,
  RemitOrder,
  RemitOrderStatus,
  RemitPayment,
  RemitQuote,
  RemitSettlement,
} from './types.js';
