import type { Book } from '@ledger/core/runtime';
import { readPerCustomer, upstreamFailureReasonOf } from '@ledger/reconciliation';
import type { RemitClient, UsbrokerClient } from '@ledger/upstream-clients';
import type { BrokerAccountRead } from './ledger-recon.js';
import type { FirmRead, IndiaCustomer, LiveRead } from './live.js';

/*
 * The upstreams' side of the live India reports: thin reads through @ledger/upstream-clients,
 * read-only (every call a GET), each failure turned into words for the report to show.
 */

/**
 * Reads each broker-linked customer's account with `read`, `concurrency` customers at a time,
 * each on its own: a customer whose broker read fails is that customer's error and the others
 * carry on. A customer without a broker account is null (`no_link`). usbroker not configured
 * on the India book: every linked customer's error says so.
 */
export async function readBrokerPerCustomer<C extends IndiaCustomer, T>(
  customers: readonly C[],
  client: UsbrokerClient | null,
  concurrency: number,
  read: (client: UsbrokerClient, customer: C & { account_no: string }) => Promise<T>,
): Promise<Map<string, LiveRead<T> | null>> {
  const reads = new Map<string, LiveRead<T> | null>(customers.map((c) => [c.customer_id, null]));
  const linked = customers.filter((c): c is C & { account_no: string } => c.account_no !== null);
  if (client === null) {
    for (const c of linked) reads.set(c.customer_id, { error: USBROKER_NOT_CONFIGURED });
    return reads;
  }
  for (const r of await readPerCustomer(linked, (c) => read(client, c), concurrency)) {
    reads.set(r.customer.customer_id, r.error === undefined ? { value: r.value } : { error: brokerNotRead(r.error) });
  }
  return reads;
}

/**
 * A broker read that names no account (the last prices), made once for every customer who
 * needs it: its value, or why there is none (usbroker not configured, the read failed).
 */
export async function readBroker<T>(
  client: UsbrokerClient | null,
  read: (client: UsbrokerClient) => Promise<T>,
): Promise<LiveRead<T>> {
  if (client === null) return { error: USBROKER_NOT_CONFIGURED };
  try {
    return { value: await read(client) };
  } catch (error) {
    return { error: brokerNotRead(upstreamFailureReasonOf(error)) };
  }
}

/**
 * The account's balance and positions, asked at once: what ledger-recon compares with the ledger
 * and the holdings show. Answers once both reads have ended, even when one fails first: the other,
 * left retrying after the answer, would outlive its request (a test's next request found its
 * mocked reply taken by it).
 */
export async function readBrokerAccount(client: UsbrokerClient, accountNo: string): Promise<BrokerAccountRead> {
  const [balance, positions] = await Promise.allSettled([
    client.getBalance(accountNo),
    client.listPositions(accountNo),
  ]);
  if (balance.status === 'rejected') throw balance.reason;
  if (positions.status === 'rejected') throw positions.reason;
  return { balance: balance.value, positions: positions.value };
}

const USBROKER_NOT_CONFIGURED = 'usbroker is not configured on this book (USBROKER_BASE_URL unset)';
const brokerNotRead = (reason: string) => `usbroker could not be read: ${reason}`;

/** A firm-wide remit read, or why there is none: the UAE book, remit not configured, or unreachable. */
export async function readRemit<T>(
  book: Book,
  client: RemitClient | null,
  read: (client: RemitClient) => Promise<T>,
): Promise<FirmRead<T>> {
  if (book !== 'ENTITY_IND_IFSC')
    return { unavailable: 'the UAE book has no remittance provider: remit is India-only' };
  if (client === null) return { unavailable: 'remit is not configured on this book (REMIT_BASE_URL unset)' };
  try {
    return { value: await read(client), fetchedAt: new Date().toISOString() };
  } catch (error) {
    return { unavailable: `remit could not be read: ${upstreamFailureReasonOf(error)}` };
  }
}
