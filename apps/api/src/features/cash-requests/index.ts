import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const cashRequests: Feature = {
  tag: {
    name: 'cash-requests',
    description: 'Customers’ deposits and withdrawals: made, then confirmed (posted), failed or cancelled.',
  },
  paths,
  schemas,
  handlers,
};
