import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const jobs: Feature = {
  tag: { name: 'jobs', description: 'Background and synchronous jobs (recost, upstream syncs) and their status.' },
  paths,
  schemas,
  handlers,
};
