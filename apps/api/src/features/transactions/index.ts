import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const transactions: Feature = {
  tag: { name: 'transactions', description: 'Entry, preview, reversal and views of transactions.' },
  paths,
  schemas,
  handlers,
};
