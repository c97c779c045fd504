import {
  createRemitClient,
  createUsbrokerClient,
  type RemitClientOptions,
  type UsbrokerClientOptions,
} from '@ledger/upstream-clients';
import {
  formatMinor,
  type RemitOrderWire,
  type RemitPaymentWire,
  type RemitQuoteWire,
  type RemitSettlementWire,
  type Sandbox,
} from '../src/index.js';

export function usbrokerClient(sandbox: Sandbox, overrides: Partial<UsbrokerClientOptions> = {}) {
  return createUsbrokerClient({
    baseUrl: sandbox.urls.usbroker,
    apiKey: sandbox.credentials.usbroker.apiKey,
    apiSecret: sandbox.credentials.usbroker.apiSecret,
    timeoutMs: 2_000,
    retryLimit: 2,
    backoffMs: 5,
    ...overrides,
  });
}

export function remitClient(sandbox: Sandbox, overrides: Partial<RemitClientOptions> = {}) {
  return createRemitClient({
    baseUrl: sandbox.urls.remit,
    apiKey: sandbox.credentials.remit.apiKey,
    timeoutMs: 2_000,
    retryLimit: 2,
    backoffMs: 5,
    ...overrides,
  });
}

/** What the remit client returns for a wire object: integer minor units → major decimal strings. */
const major = (minor: number) => formatMinor(BigInt(minor));
export const asClientOrder = (o: RemitOrderWire) => ({ ...o, amount: major(o.amount) });
export const asClientPayment = (p: RemitPaymentWire) => ({ ...p, amount: major(p.amount) });
export const asClientQuote = (q: RemitQuoteWire) => ({
  ...q,
  from: { ...q.from, amount: major(q.from.amount) },
  to: { ...q.to, amount: major(q.to.amount) },
});
export const asClientSettlement = (s: RemitSettlementWire) => ({
  ...s,
  amount: major(s.amount),
  fees: {
    fx_fee: { ...s.fees.fx_fee, amount: major(s.fees.fx_fee.amount) },
    txn_fee: { ...s.fees.txn_fee, amount: major(s.fees.txn_fee.amount) },
  },
});

/** A daily-ledger row as the client types it: empty cells null. */
export function asClientRow(row: Record<string, string>) {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === '' ? null : v]));
}

/** Decimal text → integer units of 10^-places (exact). */
export function scaled(text: string, places: number): bigint {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const value = BigInt(whole) * 10n ** BigInt(places) + BigInt(fraction.padEnd(places, '0') || '0');
  return negative ? -value : value;
}
