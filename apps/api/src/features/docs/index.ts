import type { Feature } from '../feature.js';
import { paths } from './contract.js';
import { mountDocs } from './mount.js';

export const docs: Feature = {
  tag: { name: 'docs', description: 'This documentation.' },
  paths,
  mount: mountDocs,
};
