export {
  createRemitClient,
  createRemitClientIfConfigured,
  REMIT_PAGE_CAP,
  REMIT_PER_PAGE_MAX,
  type RemitClient,
  type RemitClientOptions,
  type RemitCreatedWindow,
  type RemitOrdersQuery,
  type RemitPageRequest,
  type RemitPaymentsQuery,
} from './client.js';
export { RemitApiError, RemitAuthError, RemitNotFoundError, RemitPageCapError, type RemitResource } from './errors.js';
export { minorToDecimal, REMIT_CURRENCY_EXPONENTS } from './minor-units.js';
export type {
  RemitBalances,
  RemitCustomer,
  RemitMidRate,
  RemitMoney,
  RemitOrder,
  RemitOrderStatus,
  RemitPage,
  RemitPageMeta,
  RemitPayinType,
  RemitPayment,
  RemitPaymentStatus,
  RemitQuote,
  RemitRefund,
  RemitSettlement,
} from './types.js';
