export {
  BOOKS,
  DEMO,
  DEMO_FX_SPREAD_BPS,
  demoPeriod,
  readSecrets,
  startStack,
  type BookId,
  type RunningBook,
  type Secrets,
  type Stack,
  type StackOptions,
} from './stack.js';
export { bookApi, demoSteps, hasTransactions, type BookApi, type DemoStep, type Period } from './demo.js';
export { EMBEDDED_PORT_DEFAULT } from './postgres.js';
export {
  opsPortEnv,
  opsUrls,
  PROCESSES,
  QUICKSTART_PORTS,
  type BookPorts,
  type OpsPorts,
  type StackPorts,
} from './ports.js';
export { DEMO_CASH_REQUEST_KEY, deskCloses, leaveDeskWork } from './desk.js';
