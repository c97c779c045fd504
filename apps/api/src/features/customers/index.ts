import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const customers: Feature = {
  tag: { name: 'customers', description: 'The book’s customers.' },
  paths,
  schemas,
  handlers,
};
