import type { Feature } from '../feature.js';
import { paths } from './contract.js';
import { mountConsole } from './mount.js';

export const consoleFeature: Feature = {
  tag: { name: 'console', description: 'The ops console.' },
  paths,
  mount: (app) => mountConsole(app),
};
