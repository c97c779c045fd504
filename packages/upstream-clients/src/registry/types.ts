/**
 * The customer registry (ours: docs/upstreams/registry.md): the platform's lists of India and
 * UAE customers and where each is found upstream. `provision-india` and `provision-uae` read it.
 * Every field but the id may be null: the registry may not know it yet, and null never blanks
 * what the ledger knows.
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

/** A UAE customer of the registry: where uaefeed and the custodian know them. */
export interface RegistryUaeCustomer {
  customer_id: string;
  name: string | null;
  uaefeed_customer_number: string | null;
  uaefeed_account_number: string | null;
  /** `<customer number>-AED`, `-USD`: the suffix names the currency (the ledger keeps none: uaefeed's records name theirs). */
  uaefeed_cash_accounts: string[];
  custodian_account: string | null;
}
