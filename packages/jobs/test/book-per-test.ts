import type { Db } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import nock from 'nock';

/**
 * Mocha hooks of a job suite against mocked upstreams: the network closed but to nock and this
 * machine, and each test on a book of its own (as the runtime role), seeded by `seed`, handed to
 * `use`.
 */
export function nockedBookPerTest(
  use: (db: Db) => void,
  seed: (db: Db) => Promise<unknown> = async () => undefined,
): void {
  let database: TestDatabase | undefined;
  beforeEach(async () => {
    nock.disableNetConnect();
    nock.enableNetConnect(/127\.0\.0\.1|localhost/);
    database = await createTestDatabase({ runtimeRole: true });
    use(database.runtime!.db);
    await seed(database.runtime!.db);
  });
  afterEach(async () => {
    nock.cleanAll();
    nock.enableNetConnect();
    await database?.drop();
  });
}
