/**
 * The customer registry (ours: docs/upstreams/registry.md): the platform's list of India
 * customers and where each is found upstream. `provision-india` reads it. Every field but the
 * id may be null: the registry may not know it yet, and null never blanks what the ledger knows.
 */
export interface RegistryIndiaCustomer {
  customer_id: string;
  name: string | null;
  email: string | null;
  /** As sent; its format is checked where it is used (provision-india). */
  pan: string | null;
  remit_customer_id: string | null;
  usbroker_account_no: string | null;
  partner_id: string | null;
  created_at: string | null;
}
