import { expect } from 'chai';
import { newId } from '../src/domain/ids.js';

describe('newId', () => {
  it('makes UUIDv7s in the order it is called, within a millisecond and across the pool refills', () => {
    // 1,000 ids: several refills of the 256-id pool, most of them within one millisecond.
    const ids = Array.from({ length: 1_000 }, () => newId());
    for (const id of ids) expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).to.deep.equal(ids);
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('stamps the current millisecond', () => {
    const before = Date.now();
    const stamped = parseInt(newId().replace(/-/g, '').slice(0, 12), 16);
    expect(stamped)
      .to.be.at.least(before)
      .and.at.most(Date.now() + 1);
  });
});
