import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const importFeature: Feature = {
  tag: {
    name: 'import',
    description: 'Hand-collected upstream records posted as the sync would post them (UAE: uaefeed).',
  },
  paths,
  schemas,
  handlers,
};
