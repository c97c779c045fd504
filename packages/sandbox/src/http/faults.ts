import { UPSTREAM_NAMES, type UpstreamName } from './common.js';

export type FaultKind = 'latency' | 'timeout' | '500' | 'malformed' | 'expired_token';
export const FAULT_KINDS: readonly FaultKind[] = ['latency', 'timeout', '500', 'malformed', 'expired_token'];

/** What `POST /__sandbox/faults` takes. */
export interface FaultSpec {
  upstream: UpstreamName;
  /** Any identifier of a customer (customer_id, uaefeed customer number, custodian account, remit customer id, usbroker account); absent: every request. */
  customer?: string;
  fault: FaultKind;
  /** latency: the delay; timeout: how long the request is held before its connection is cut. */
  ms?: number;
  /** Requests it applies to; absent: until cleared. */
  count?: number;
}

export interface Fault {
  id: string;
  upstream: UpstreamName;
  /** The customer_id it is scoped to, or null (every request of the upstream). */
  customer: string | null;
  fault: FaultKind;
  ms: number;
  /** Requests left; null: until cleared. */
  remaining: number | null;
  /** Requests it has been applied to. */
  hits: number;
}

export const FAULT_DEFAULT_MS: Readonly<Record<FaultKind, number>> = {
  latency: 1_000,
  // Longer than any client's timeout: the answer never comes, the connection is cut after it.
  timeout: 600_000,
  '500': 0,
  malformed: 0,
  expired_token: 0,
};
const FAULT_MS_MAX = 3_600_000;
const FAULTS_MAX = 1_000;

export class FaultSpecError extends Error {}

/**
 * The injected faults, shared by every server of a sandbox. A request takes the first fault, in
 * the order they were added, of its upstream that is upstream-wide or scoped to the customer
 * the request names and that applies to the request; `count` runs down with each use.
 */
export class FaultStore {
  #faults: Fault[] = [];
  #nextId = 1;

  constructor(private readonly dataset: { find(identifier: string): { customer_id: string } | undefined }) {}

  add(spec: FaultSpec): Fault {
    if (typeof spec !== 'object' || spec === null) throw new FaultSpecError('a fault is an object');
    if (!UPSTREAM_NAMES.includes(spec.upstream))
      throw new FaultSpecError(`upstream is one of ${UPSTREAM_NAMES.join(', ')}`);
    if (!FAULT_KINDS.includes(spec.fault)) throw new FaultSpecError(`fault is one of ${FAULT_KINDS.join(', ')}`);
    let customer: string | null = null;
    if (spec.customer !== undefined && spec.customer !== null) {
      const found = typeof spec.customer === 'string' ? this.dataset.find(spec.customer) : undefined;
      if (found === undefined) throw new FaultSpecError('customer names no customer of the data set');
      customer = found.customer_id;
    }
    const ms = spec.ms ?? FAULT_DEFAULT_MS[spec.fault];
    if (!Number.isInteger(ms) || ms < 0 || ms > FAULT_MS_MAX)
      throw new FaultSpecError(`ms is an integer from 0 to ${FAULT_MS_MAX}`);
    const count = spec.count ?? null;
    if (count !== null && (!Number.isInteger(count) || count < 1))
      throw new FaultSpecError('count is a positive integer');
    if (this.#faults.length >= FAULTS_MAX) throw new FaultSpecError(`at most ${FAULTS_MAX} faults at once`);
    const fault: Fault = {
      id: `fault-${this.#nextId++}`,
      upstream: spec.upstream,
      customer,
      fault: spec.fault,
      ms,
      remaining: count,
      hits: 0,
    };
    this.#faults.push(fault);
    return { ...fault };
  }

  list(): Fault[] {
    return this.#faults.map((f) => ({ ...f }));
  }

  /** Clears the faults that match (all of them without a filter); answers how many. */
  clear(filter: { id?: string; upstream?: string; customer?: string } = {}): number {
    const customerId =
      filter.customer === undefined ? undefined : (this.dataset.find(filter.customer)?.customer_id ?? filter.customer);
    const before = this.#faults.length;
    this.#faults = this.#faults.filter(
      (f) =>
        !(
          (filter.id === undefined || f.id === filter.id) &&
          (filter.upstream === undefined || f.upstream === filter.upstream) &&
          (customerId === undefined || f.customer === customerId)
        ),
    );
    return before - this.#faults.length;
  }

  /** The fault for a request of `upstream` naming `customerId` (or none), used up by one. */
  take(upstream: UpstreamName, customerId: string | null, applies: (kind: FaultKind) => boolean): Fault | null {
    const index = this.#faults.findIndex(
      (f) => f.upstream === upstream && (f.customer === null || f.customer === customerId) && applies(f.fault),
    );
    if (index < 0) return null;
    const fault = this.#faults[index]!;
    fault.hits++;
    if (fault.remaining !== null && --fault.remaining === 0) this.#faults.splice(index, 1);
    return { ...fault };
  }
}
