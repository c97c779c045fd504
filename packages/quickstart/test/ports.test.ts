// The quickstart's fixed ports (ports.json): distinct, handed to each process, and a taken one
// named by the first line scripts/run.sh prints.
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { opsPortEnv, opsUrls, QUICKSTART_PORTS } from '../src/index.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('quickstart ports', () => {
  it('gives every api, operations listener and sandbox upstream a port of its own', () => {
    const { ENTITY_UAE, ENTITY_IND_IFSC, sandbox } = QUICKSTART_PORTS;
    const all = [
      ...[ENTITY_UAE, ENTITY_IND_IFSC].flatMap((b) => [b.api, b.ops.api, b.ops.worker, b.ops.recon]),
      ...Object.values(sandbox),
    ];
    expect(all).to.have.length(13);
    expect(new Set(all).size, 'distinct').to.equal(all.length);
  });

  it('hands each process its own OPS_PORT variable and prints its URLs', () => {
    const ops = QUICKSTART_PORTS.ENTITY_IND_IFSC.ops;
    expect(opsPortEnv(ops)).to.deep.equal({
      OPS_PORT_API: String(ops.api),
      OPS_PORT_WORKER: String(ops.worker),
      OPS_PORT_RECON: String(ops.recon),
    });
    expect(opsUrls(ops)[1]).to.deep.equal({
      process: 'worker',
      metrics: `http://127.0.0.1:${ops.worker}/metrics`,
      ready: `http://127.0.0.1:${ops.worker}/health/ready`,
    });
  });

  describe('scripts/check-ports.mjs', () => {
    let held: Server;
    const port = QUICKSTART_PORTS.ENTITY_UAE.ops.recon;
    before((done) => {
      held = createServer();
      held.once('error', done);
      held.listen(port, '127.0.0.1', () => done());
    });
    after((done) => {
      held.close(() => done());
    });

    it('stops with one first line naming a taken port and what it is for', () => {
      const run = spawnSync(process.execPath, ['scripts/check-ports.mjs'], { cwd: ROOT, encoding: 'utf8' });
      expect(run.status).to.equal(1);
      expect(run.stderr.split('\n')[0]).to.contain(
        `port ${port} (the UAE recon's operations listener) is already in use`,
      );
    });
  });
});
