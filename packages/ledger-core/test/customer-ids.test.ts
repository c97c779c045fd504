import { expect } from 'chai';
import { isCustomerId } from '../src/domain/customer-ids.js';
import { CUSTOMER_ID_LENGTH_MAX } from '../src/entry-points/posting.js';

describe('customer ids (domain)', () => {
  it('the registries’ and the tests’ ids are in the alphabet', () => {
    for (const id of [
      'IND-000003',
      'UAE-000001',
      'C-1',
      'cust_1',
      'K-1',
      'a.b',
      '...',
      'x'.repeat(CUSTOMER_ID_LENGTH_MAX),
    ])
      expect(isCustomerId(id), id).to.equal(true);
  });

  it('when an id is a path, "." or ".." alone, empty, too long or has any other character › it is not a customer id', () => {
    for (const id of [
      '../../etc/passwd',
      'a/b',
      '.',
      '..',
      '',
      'x'.repeat(CUSTOMER_ID_LENGTH_MAX + 1),
      'C 1',
      'C;1',
      "O'Brien",
      'C+1',
      'C~1',
      'été',
      'C-1\n',
    ]) {
      expect(isCustomerId(id), JSON.stringify(id)).to.equal(false);
    }
  });
});
