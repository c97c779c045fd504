export {
  createRegistryClient,
  createRegistryClientIfConfigured,
  REGISTRY_PAGE_CAP,
  REGISTRY_PER_PAGE_MAX,
  RegistryNotFoundError,
  type RegistryClient,
  type RegistryClientOptions,
} from './client.js';
export type { RegistryIndiaCustomer, RegistryUaeCustomer } from './types.js';
