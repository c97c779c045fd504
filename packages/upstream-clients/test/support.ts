import { inspect } from 'node:util';
import { expect } from 'chai';
import nock from 'nock';

/** What `promise` rejected with; fails the test if it resolved, or rejected with something not a `type`. */
export async function rejectionOf<E extends Error = Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E = Error as never,
): Promise<E> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).to.be.instanceOf(type);
  return outcome.error as E;
}

/** No rendering of `error` (message, stack, inspect, JSON) holds any of `secrets`. */
export function expectNoSecret(error: Error, secrets: readonly string[]): void {
  for (const rendering of [error.message, error.stack ?? '', inspect(error, { depth: 10 }), JSON.stringify(error)]) {
    for (const secret of secrets) expect(rendering).to.not.include(secret);
  }
}

/**
 * Mocha hooks for a client's suite: no real network, and every answer mocked by a test must have
 * been asked for (an unused mock is a request the client did not make).
 */
export function onlyMockedNetwork(): void {
  before(() => nock.disableNetConnect());
  beforeEach(() => nock.disableNetConnect());
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending, 'every mocked answer was requested').to.deep.equal([]);
  });
  after(() => nock.enableNetConnect());
}
