import { expect } from 'chai';
import { JOBS } from '../src/index.js';

/** Every date a job's body takes, with a body the job accepts around it. */
const DATED_BODIES: Array<[kind: string, field: string, body: Record<string, unknown>]> = [
  ['sync-uaefeed', 'from', {}],
  ['sync-uaefeed', 'to', {}],
  ['sync-holdings', 'as_of', {}],
  ['sync-usbroker-ledger', 'start', {}],
  ['sync-usbroker-ledger', 'end', { start: '2026-01-01' }],
];

describe('job bodies', () => {
  for (const [kind, field, body] of DATED_BODIES) {
    it(`${kind}: when ${field} is a day not on the calendar › the body is refused`, () => {
      const input = JOBS[kind]!.input;
      expect(input.safeParse({ ...body, [field]: '2026-02-27' }).success, 'a real day').to.equal(true);
      for (const day of ['2026-02-30', '2026-13-01', '1900-01-00', '0000-01-01', '2026-2-3']) {
        expect(input.safeParse({ ...body, [field]: day }).success, day).to.equal(false);
      }
    });
  }

  for (const kind of ['sync-cash-statements', 'sync-uaefeed-statements']) {
    it(`${kind}: when month is not a month of the calendar › the body is refused`, () => {
      const input = JOBS[kind]!.input;
      expect(input.safeParse({ month: '2026-02' }).success).to.equal(true);
      for (const month of ['2026-13', '2026-00', '0000-01', '26-01'])
        expect(input.safeParse({ month }).success, month).to.equal(false);
    });
  }
});
