import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const webhooks: Feature = {
  tag: {
    name: 'webhooks',
    description: 'Events the upstreams send: the remittance provider’s signed order and payment events (India).',
  },
  paths,
  schemas,
  handlers,
};
