import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const queues: Feature = {
  tag: {
    name: 'queues',
    description: 'The job queues board of the console (`/console/queues/`, Bull Board): its session.',
  },
  paths,
  schemas,
  handlers,
};
