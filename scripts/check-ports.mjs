#!/usr/bin/env node
// The quickstart's ports (packages/quickstart/ports.json, and the embedded Postgres's unless
// LEDGER_DB_URL names a server): exits 1 with one line naming the first taken port, what it is for
// and how to see who holds it. scripts/run.sh runs it before anything else (so a taken port is the
// first line a user reads, not an error minutes later after the install and the build) and again
// after the build.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const table = JSON.parse(readFileSync(new URL('../packages/quickstart/ports.json', import.meta.url), 'utf8'));
const BOOKS = { ENTITY_UAE: 'UAE', ENTITY_IND_IFSC: 'India' };
const wanted = [];
for (const [book, label] of Object.entries(BOOKS)) {
  wanted.push({ port: table[book].api, what: `the ${label} api` });
  for (const [process, port] of Object.entries(table[book].ops)) {
    wanted.push({ port, what: `the ${label} ${process}'s operations listener` });
  }
}
for (const [upstream, port] of Object.entries(table.sandbox)) wanted.push({ port, what: `the sandbox's ${upstream}` });
if (!process.env.LEDGER_DB_URL) {
  wanted.push({ port: Number(process.env.LEDGER_EMBEDDED_PG_PORT || 5442), what: 'the embedded Postgres' });
}

/** On every interface, as the api listens: a port held on any one address is taken. */
const taken = (port) =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error) => resolve(error.code === 'EADDRINUSE'));
    server.listen(port, () => server.close(() => resolve(false)));
  });

for (const { port, what } of wanted) {
  if (await taken(port)) {
    console.error(
      `run: port ${port} (${what}) is already in use: another quickstart or program holds it (see: ss -ltnp 'sport = :${port}'); stop it and start again`,
    );
    process.exit(1);
  }
}
