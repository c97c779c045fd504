export { createTestDatabase, TEST_SERVER_URL, type TestDatabase } from './test-database.js';
export { AppProcess, type Exit, type LogLine } from './app-process.js';
export { describeProcessStartup, type BadSetting, type ProcessStartupSuite } from './process-startup.js';
