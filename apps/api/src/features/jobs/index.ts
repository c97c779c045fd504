import { JOBS } from '@ledger/jobs';
import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const jobs: Feature = {
  tag: {
    name: 'jobs',
    description:
      'Background and synchronous jobs and their status. A `sync` job answers 200 with its finished status record (or 202 ' +
      'past `JOB_SYNC_WAIT_MS`, to poll); a `background` job answers 202 at once.\n\n| job | mode | books |\n|---|---|---|\n' +
      Object.values(JOBS)
        .map(({ kind, mode, books }) => `| \`${kind}\` | ${mode} | ${books.join(', ')} |`)
        .join('\n'),
  },
  paths,
  schemas,
  handlers,
};
