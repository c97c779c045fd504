export { createRegistryClient, RegistryNotFoundError, type RegistryClient } from './client.js';
export type { RegistryIndiaCustomer, RegistryUaeCustomer } from './types.js';
