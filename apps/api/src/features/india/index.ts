import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const india: Feature = {
  tag: {
    name: 'india-reports',
    description:
      'India tax and compliance reports on stored data (LRS/TCS, capital gains, dividends, Schedule FA, settlement audit, broker fees, FX margin): docs/india-reports.md. Every one answers on both books; the UAE book’s are zero-valued.',
  },
  paths,
  schemas,
  handlers,
};
