#!/usr/bin/env node
// Runs one book's three processes (api, worker, recon) from their builds, in the foreground,
// with the environment it was given (see README: environment). SIGTERM or SIGINT is forwarded
// to all three; if one of them exits on its own, the others are stopped too and this exits
// non-zero. Used by scripts/run.sh and `pnpm start`; build first (`pnpm build`).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const PROCESSES = ['api', 'worker', 'recon'];
/** After this long a child that ignored SIGTERM is killed. */
const STOP_GRACE_MS = 30_000;

const entries = PROCESSES.map((name) => ({ name, main: `${root}apps/${name}/dist/main.js` }));
const missing = entries.filter((e) => !existsSync(e.main));
if (missing.length > 0) {
  console.error(`start-book: not built: ${missing.map((e) => e.main).join(', ')}; run pnpm build`);
  process.exit(1);
}
if (!process.env.ENTITY_ID) {
  console.error('start-book: ENTITY_ID is not set (ENTITY_UAE or ENTITY_IND_IFSC)');
  process.exit(1);
}

let stopping = false;
let failed = false;
const children = entries.map(({ name, main }) => {
  // One OPS_PORT cannot serve three processes on one host: OPS_PORT_API, OPS_PORT_WORKER and
  // OPS_PORT_RECON (the quickstart sets them) give each its own; unset, OPS_PORT passes as given.
  const ownOpsPort = process.env[`OPS_PORT_${name.toUpperCase()}`];
  // Logs are JSON lines tagged with their service: passed through untouched.
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: ownOpsPort ? { ...process.env, OPS_PORT: ownOpsPort } : process.env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (code !== 0) failed = true;
    if (!stopping) {
      failed = true;
      console.error(`start-book: ${name} exited (${signal ?? code}); stopping the others`);
      stopAll('SIGTERM');
    }
  });
  return { name, child };
});

function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  setTimeout(() => {
    for (const { name, child } of children) {
      if (child.exitCode === null && child.signalCode === null) {
        console.error(`start-book: ${name} did not stop within ${STOP_GRACE_MS} ms; killing it`);
        child.kill('SIGKILL');
      }
    }
  }, STOP_GRACE_MS).unref();
}

for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => stopAll(signal));

await Promise.all(children.map(({ child }) => new Promise((resolve) => child.once('exit', resolve))));
process.exit(failed ? 1 : 0);
