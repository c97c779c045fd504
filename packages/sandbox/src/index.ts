export { formatEnvFile, parseEnvFile, writeEnvFile } from './env-file.js';
export {
  clientEnv,
  startSandbox,
  SANDBOX_DEFAULT_CREDENTIALS,
  SANDBOX_TOKEN_TTL_MS,
  USBROKER_TOKEN_TTL_SECONDS,
  type Sandbox,
  type SandboxCredentials,
  type SandboxOptions,
} from './sandbox.js';
export {
  dataConfig,
  DATA_LIMITS,
  DEFAULT_DATA_CONFIG,
  isPlantedException,
  isPlantedMismatch,
  periodOf,
  PLANTED_EXCEPTION_CUSTOMER,
  PLANTED_MISMATCH_CUSTOMER,
  type SandboxDataConfig,
} from './data/config.js';
export {
  createDataset,
  customerNumberOf,
  generateCustomerData,
  registryCustomer,
  type CustomerData,
  type RegistryCustomer,
  type SandboxDataset,
  type SandboxMovement,
  type SandboxOrder,
  type SandboxTransfer,
} from './data/generate.js';
export * from './data/views.js';
export {
  FEE_BPS,
  priceOn,
  SECURITIES,
  securityOf,
  SPLITS,
  splitEffectiveOn,
  usPriceOn,
  type Currency,
  type DataPeriod,
  type Security,
  type Split,
} from './data/catalog.js';
export { formatMinor, parseMinor } from './data/money.js';
export {
  FAULT_DEFAULT_MS,
  FAULT_KINDS,
  FaultStore,
  type Fault,
  type FaultKind,
  type FaultSpec,
} from './http/faults.js';
export { UPSTREAM_NAMES, type UpstreamName } from './http/common.js';
export { ADMIN_PREFIX } from './http/server.js';
export { CUSTODIAN_PER_PAGE_MAX } from './http/custodian.js';
export { UAEFEED_PAGE_SIZE_MAX } from './http/uaefeed.js';
export { REGISTRY_PER_PAGE_MAX } from './http/registry.js';
export * from './data/india.js';
export * from './data/india-views.js';
export { RemitWebhooks, signRemitBody, type RemitWebhookConfig, type WebhookDelivery } from './webhooks.js';
export { USBROKER_LIMIT_MAX } from './http/usbroker.js';
export { REMIT_PER_PAGE_MAX, remitCustomer } from './http/remit.js';
