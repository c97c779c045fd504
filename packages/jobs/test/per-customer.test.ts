import { LedgerError } from '@ledger/core/posting';
import {
  RemitApiError,
  RemitPageCapError,
  UaefeedRejectedError,
  UpstreamError,
  UpstreamPayloadError,
  UsbrokerPageCapError,
} from '@ledger/upstream-clients';
import { expect } from 'chai';
import { forEachCustomer, upstreamFailure, upstreamFailureReason, withCallsAtOnce } from '../src/kit/per-customer.js';
import { customerFailureReason } from '../src/kit/results.js';

/** A client whose calls end only when the test says, recording how many were in flight at most. */
function heldClient() {
  const held: Array<{ name: string; end: (fail?: boolean) => void }> = [];
  const started: string[] = [];
  let inFlight = 0;
  let most = 0;
  const client = {
    get(name: string): Promise<string> {
      started.push(name);
      inFlight += 1;
      most = Math.max(most, inFlight);
      return new Promise((resolve, reject) =>
        held.push({
          name,
          end: (fail = false) => {
            inFlight -= 1;
            if (fail) reject(new Error(`${name} failed`));
            else resolve(name);
          },
        }),
      );
    },
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { client, held, started, most: () => most, settle };
}

describe('withCallsAtOnce (a run’s bound on calls to an upstream)', () => {
  it('keeps at most the bound in flight, whoever calls, and starts the waiting calls in the order they were made', async () => {
    const { client, held, started, most, settle } = heldClient();
    const bounded = withCallsAtOnce(client, 2);
    const answers = ['a', 'b', 'c', 'd', 'e'].map((name) => bounded.get(name));
    await settle();
    expect(started).to.deep.equal(['a', 'b']);
    held.find((h) => h.name === 'b')!.end();
    await settle();
    expect(started).to.deep.equal(['a', 'b', 'c']);
    while (held.length > 0) {
      for (const h of held.splice(0)) h.end();
      await settle();
    }
    expect(await Promise.all(answers)).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    expect(started).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    expect(most()).to.equal(2);
  });

  it('a failed call is its caller’s failure and passes its turn on: the calls behind it still run', async () => {
    const { client, held, started, settle } = heldClient();
    const bounded = withCallsAtOnce(client, 1);
    const first = bounded.get('first');
    const second = bounded.get('second');
    await settle();
    held.shift()!.end(true);
    expect(await first.then(null, (error: Error) => error.message)).to.equal('first failed');
    await settle();
    expect(started).to.deep.equal(['first', 'second']);
    held.shift()!.end();
    expect(await second).to.equal('second');
  });
});

describe('a customer failure’s reason: a code of the closed set and the facts, never a secret', () => {
  const refused = () => {
    const cause = new UpstreamError('remit', 'http_status', 401, 'GET', 'api/v1/orders', 1, 'ERR_NON_2XX_3XX_RESPONSE');
    cause.detail = { error: 'unauthorized', message: 'bad key [redacted]' };
    return new RemitApiError(cause);
  };

  it('an upstream call that failed: its upstream, method, path, status and attempts, the upstream’s own words, the message', () => {
    const down = new UpstreamError('uaefeed', 'network', null, 'GET', 'v1.2/customers/77/orders', 3, 'ECONNREFUSED');
    expect(upstreamFailure(down)).to.deep.equal({
      code: 'upstream_unavailable',
      detail: {
        upstream: 'uaefeed',
        method: 'GET',
        path: '/v1.2/customers/77/orders',
        status: null,
        failure: 'network',
        attempts: 3,
        error_code: 'ECONNREFUSED',
        message: down.message,
      },
    });
    expect(upstreamFailure(refused())).to.deep.equal({
      code: 'upstream_refused',
      detail: {
        upstream: 'remit',
        method: 'GET',
        path: '/api/v1/orders',
        status: 401,
        failure: 'http_status',
        attempts: 1,
        upstream_error: { error: 'unauthorized', message: 'bad key [redacted]' },
        message: 'remit GET /api/v1/orders answered 401 after 1 attempt: unauthorized: bad key [redacted]',
      },
    });
  });

  it('a refusal in uaefeed’s envelope, a payload its format refuses, a page cap: each its code and its own facts', () => {
    const rejected = new UaefeedRejectedError('GET', 'v1.2/customers/9', 'CUSTOMER_NOT_FOUND', 'no such customer');
    expect(upstreamFailure(rejected)).to.deep.equal({
      code: 'upstream_refused',
      detail: {
        upstream: 'uaefeed',
        method: 'GET',
        path: '/v1.2/customers/9',
        reject_code: 'CUSTOMER_NOT_FOUND',
        reject_reason: 'no such customer',
        message: rejected.message,
      },
    });
    const payload = new UpstreamPayloadError('custodian', 'GET', 'holdings', 'positions[0].qty', 'expected a string');
    expect(upstreamFailure(payload)).to.deep.equal({
      code: 'upstream_bad_payload',
      detail: {
        upstream: 'custodian',
        method: 'GET',
        path: '/holdings',
        field: 'positions[0].qty',
        problem: 'expected a string',
        message: payload.message,
      },
    });
    expect(upstreamFailure(new RemitPageCapError('api/v1/orders', 500))).to.deep.include({ code: 'upstream_page_cap' });
    expect(upstreamFailure(new UsbrokerPageCapError('v1/funding/wires', 200, 'W-9'))!.detail).to.deep.include({
      upstream: 'usbroker',
      path: '/v1/funding/wires',
      page_cap: 200,
      last_id: 'W-9',
    });
    for (const error of [rejected, payload, refused()]) customerFailureReason.parse(upstreamFailure(error));
    expect(upstreamFailure(new Error('not an upstream’s'))).to.equal(null);
  });

  it('as prose where prose is reported (held quotes, a daily ledger’s dates): `<code>: <message>`, as before', () => {
    expect(upstreamFailureReason(refused())).to.equal(
      'upstream_refused: remit GET /api/v1/orders answered 401 after 1 attempt: unauthorized: bad key [redacted]',
    );
    expect(upstreamFailureReason(new Error('no'))).to.equal(null);
  });

  it('the ledger’s refusal of a customer is its failure; a code no customer can meet is a bug, failing the run', async () => {
    const { failed } = await forEachCustomer(['A', 'B'], String, async (id) => {
      if (id === 'A')
        throw new LedgerError('conflict', 'remit_customer_id is already another customer’s', [
          { field: 'remit_customer_id' },
        ]);
    });
    expect(failed).to.deep.equal([
      {
        customer_id: 'A',
        reason: {
          code: 'conflict',
          detail: {
            message: 'remit_customer_id is already another customer’s',
            details: [{ field: 'remit_customer_id' }],
          },
        },
      },
    ]);
    const bug = await forEachCustomer(['A'], String, async () => {
      throw new LedgerError('unknown_account', 'account_code names no account of the chart');
    }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(bug).to.be.instanceOf(Error).and.not.be.instanceOf(LedgerError);
    expect((bug as Error).message).to.match(/unknown_account is no customer failure code/);
  });
});
