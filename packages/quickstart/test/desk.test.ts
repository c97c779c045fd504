import { expect } from 'chai';
import { deskCloses } from '../src/index.js';

describe('the desk work the demo leaves: which days it closes', () => {
  const period = { from: '2024-11-01', to: '2026-10-31' };

  it('closes the last financial year of each book with a month after it inside the period', () => {
    expect(deskCloses('ENTITY_UAE', period)).to.deep.equal({ yearEnd: '2025-12-31', monthAfter: '2026-01-31' });
    expect(deskCloses('ENTITY_IND_IFSC', period)).to.deep.equal({ yearEnd: '2026-03-31', monthAfter: '2026-04-30' });
  });

  it('goes back a year when the month after the latest year end is not over yet', () => {
    expect(deskCloses('ENTITY_UAE', { from: '2025-01-01', to: '2026-12-31' })).to.deep.equal({
      yearEnd: '2025-12-31',
      monthAfter: '2026-01-31',
    });
    expect(deskCloses('ENTITY_UAE', { from: '2025-01-01', to: '2027-01-31' }).yearEnd).to.equal('2026-12-31');
    expect(deskCloses('ENTITY_IND_IFSC', { from: '2024-05-01', to: '2026-04-29' }).yearEnd).to.equal('2025-03-31');
  });
});
