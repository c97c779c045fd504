import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const reconciliation: Feature = {
  tag: {
    name: 'reconciliation',
    description: 'The book proving itself: check runs (categories A–D), their results and variances; run now (admin).',
  },
  paths,
  schemas,
  handlers,
};
