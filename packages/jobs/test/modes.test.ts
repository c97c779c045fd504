import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { JOBS } from '../src/index.js';

const page = readFileSync(new URL('../../../docs/jobs.md', import.meta.url), 'utf8');

describe('the job mode table', () => {
  it('in docs/jobs.md is the catalog, row for row', () => {
    const rows = page
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    const expected = Object.entries(JOBS).map(([kind, m]) => [
      `\`${kind}\``,
      m.mode,
      m.family,
      m.books.join(', '),
      m.why,
    ]);
    expect(rows).to.deep.equal(expected);
  });

  it('gives every job of the spec a mode', function () {
    // The spec sits beside the checkout (../shared), as on CI; a bare clone has none to compare with.
    const specUrl = new URL('../../../../shared/spec/ledger-service-spec.md', import.meta.url);
    if (!existsSync(specUrl)) this.skip();
    const spec = readFileSync(specUrl, 'utf8');
    const specJobs = [...spec.matchAll(/^\| \/v1\/jobs\/([a-z-]+) \|/gm)].map((m) => m[1]);
    expect(specJobs.length).to.be.at.least(12);
    for (const kind of specJobs) expect(JOBS, kind).to.have.property(kind as string);
  });
});
