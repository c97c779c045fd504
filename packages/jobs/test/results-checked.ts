import { JOBS } from '../src/testing.js';

/**
 * A root hook (.mocharc.json): every result a test gets from a job's `run` is first checked
 * against the job's declared schema, as the job runtime checks it before storing it, so a
 * result the api would document wrongly fails the test that met it. (The runners the tests call
 * directly, runSyncRemit and the like, are checked where their results are.)
 */
export const mochaHooks = {
  beforeAll() {
    for (const job of Object.values(JOBS)) {
      const run = job.run.bind(job);
      job.run = async (input, deps) => {
        const result = await run(input, deps);
        job.result.parse(result);
        return result;
      };
    }
  },
};
