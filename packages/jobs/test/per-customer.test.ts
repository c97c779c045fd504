import { expect } from 'chai';
import { withCallsAtOnce } from '../src/kit/per-customer.js';

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
