import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const health: Feature = {
  tag: { name: 'health', description: 'Liveness, readiness, ping, and the service index.' },
  paths,
  schemas,
  handlers,
};
