import type { Feature } from '../feature.js';
import { paths, schemas } from './contract.js';
import { handlers } from './handlers.js';

export const periods: Feature = {
  tag: {
    name: 'periods',
    description:
      'Closed periods: close the books through a day, reopen with a reason; nothing posts into a closed day.',
  },
  paths,
  schemas,
  handlers,
};
