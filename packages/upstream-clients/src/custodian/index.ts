export {
  createCustodianClient,
  createCustodianClientIfConfigured,
  CUSTODIAN_PAGES_MAX,
  CUSTODIAN_PATHS,
  CUSTODIAN_PER_PAGE,
  CUSTODIAN_PER_PAGE_MAX,
} from './client.js';
export type {
  CustodianClientConfig,
  CustodianAccount,
  CustodianPosition,
  CustodianHoldings,
  CustodianTransactionType,
  CustodianFee,
  CustodianTransaction,
  CustodianCashStatementLine,
  CustodianCashStatement,
  CustodianTransactionQuery,
  CustodianClient,
} from './types.js';
