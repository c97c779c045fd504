import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const firm: Feature = {
  tag: {
    name: 'firm',
    description: 'The book’s accounts and trial balance (now or as of a day), the firm summary and earnings.',
  },
  paths,
  schemas,
  handlers,
};
