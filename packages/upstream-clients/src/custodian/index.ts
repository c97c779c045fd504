export { createCustodianClient } from './client.js';
export type { CustodianClientConfig, CustodianHoldings, CustodianCashStatement, CustodianClient } from './types.js';
