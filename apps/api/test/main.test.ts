import { fileURLToPath } from 'node:url';
import { describeProcessStartup } from '@ledger/core/testing';
import { expect } from 'chai';

describeProcessStartup({
  name: 'api',
  appDir: fileURLToPath(new URL('..', import.meta.url)),
  env: { PORT: '0', DB_POOL_MAX: '2' },
  metrics: ['ledger_http_request_duration_seconds'],
  // The one line a person starting the service looks for.
  ready: / listening on http:\/\/localhost:/,
  whenReady: async (_proc, listening) => {
    const ready = await fetch(`http://127.0.0.1:${String(listening.port)}/health/ready`);
    expect(ready.status).to.equal(200);
    // No tokens configured: fail closed.
    const read = await fetch(`http://127.0.0.1:${String(listening.port)}/v1/transactions`, {
      headers: { 'X-Ledger-Token': 'x'.repeat(20) },
    });
    expect(read.status).to.equal(503);
  },
  badSettings: [
    ['PORT is out of range', { PORT: '70000' }, 'PORT'],
    ['LEDGER_TOKEN is too short', { LEDGER_TOKEN: 'short' }, 'LEDGER_TOKEN'],
    ['a source’s customer fee is not basis points', { CUSTOMER_FEE_BPS_USBROKER: '-1' }, 'CUSTOMER_FEE_BPS_USBROKER'],
  ],
});
