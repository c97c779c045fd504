import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const journal: Feature = {
  tag: { name: 'journal', description: 'Journal lines and postings.' },
  paths,
  schemas,
  handlers,
};
