import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { paths as upstreamPaths, schemas as upstreamSchemas } from './upstream-contract.js';
import { paths as viewPaths, schemas as viewSchemas } from './views-contract.js';
import { handlers } from './handlers.js';

export const customers: Feature = {
  tag: {
    name: 'customers',
    description:
      'The book’s customers and their views: balances, positions, statement, holdings, and (India) the broker’s live views.',
  },
  paths: { ...paths, ...viewPaths, ...upstreamPaths },
  schemas: { ...schemas, ...viewSchemas, ...upstreamSchemas },
  handlers,
};
