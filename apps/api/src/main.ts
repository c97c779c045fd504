import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { closeServer, startProcess } from '@ledger/core/runtime';
import { createJobProducer } from '@ledger/job-runtime';
import { JOBS } from '@ledger/jobs';
import { createApp, onDemandRuns } from './app.js';
import { createQueueBoard } from './features/queues/board.js';
import { loadConfig } from './config.js';
import { createServer } from './http/server.js';

/** The api process: migrates the book's database to head, then serves HTTP until SIGTERM. */
await startProcess({
  name: 'api',
  loadConfig,
  start: async ({ config, db, logger, resources, metrics }) => {
    const { book, redisUrl, queuePrefix, jobSyncWaitMs } = config;
    // Redis need not be up at start: job endpoints answer 503 until it is, the rest is unaffected.
    const jobs = createJobProducer({
      book,
      redisUrl,
      queuePrefix,
      catalog: JOBS,
      syncWaitMs: jobSyncWaitMs,
      logger,
      db,
    });
    resources.add(() => jobs.close());
    const queueBoard = createQueueBoard({ book, redisUrl, queuePrefix, logger });
    resources.add(() => queueBoard.close());
    const recon = onDemandRuns({ config, db, logger, metrics });
    const server = createServer(
      createApp({ config, db, logger, jobs, metrics, queueBoard, recon }),
      { requestTimeoutMs: config.requestTimeoutMs },
      logger,
    );
    server.listen(config.port);
    await once(server, 'listening');
    // Closed before the pool: stops accepting, lets in-flight requests finish (idle keep-alive sockets are closed).
    resources.add(() => closeServer(server));
    // Closed before the server (resources close in reverse): a reconciliation run in flight would
    // hold the drain for minutes; its statement is cancelled, so no query outlives the process.
    resources.add(() => recon.close());
    const { port } = server.address() as AddressInfo;
    // The one line a person starting the service looks for: where it is and where its docs are.
    logger.info(
      `ledger api of ${config.book} listening on http://localhost:${port} (API docs: http://localhost:${port}/docs)`,
      {
        port,
        read_credential_configured: config.ledgerToken !== undefined,
        admin_credential_configured: config.adminToken !== undefined,
      },
    );
  },
});
