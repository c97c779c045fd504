import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, exitOnStartupError, onShutdown, openLedgerDatabase } from '@ledger/core';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { createServer } from './http/server.js';

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, service: 'api', book: config.book });
  const { db, applied } = await openLedgerDatabase(
    { url: config.dbUrl, migrationUrl: config.migrationDbUrl, poolMax: config.dbPoolMax, applicationName: 'ledger-api' },
    logger,
  );
  logger.info('migrations at head', { applied });

  const app = createApp({ config, db, logger });
  const server = createServer(app, { requestTimeoutMs: config.requestTimeoutMs }, logger);
  server.listen(config.port);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  // The one line a person starting the service looks for: where it is and where its docs are.
  logger.info(`ledger api of ${config.book} listening on http://localhost:${port} (API docs: http://localhost:${port}/docs)`, {
    port,
    read_credential_configured: config.ledgerToken !== undefined,
    admin_credential_configured: config.adminToken !== undefined,
  });

  onShutdown(logger, async () => {
    // Stops accepting, lets in-flight requests finish (idle keep-alive sockets are closed), then the pool.
    await closeServer(server);
    await db.destroy();
  });
}

main().catch(exitOnStartupError);
