import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const indiaLive: Feature = {
  tag: {
    name: 'india-live',
    description:
      'India reports read live from the upstreams (usbroker, remit) beside the ledger, and the broker and remittance overviews; on the UAE book the same shapes, zero-valued.',
  },
  paths,
  schemas,
  handlers,
};
