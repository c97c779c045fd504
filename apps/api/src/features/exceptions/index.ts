import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const exceptions: Feature = {
  tag: {
    name: 'exceptions',
    description:
      'Upstream records the syncs could not post: open until a later run posts them or an operator dismisses them.',
  },
  paths,
  schemas,
  handlers,
};
