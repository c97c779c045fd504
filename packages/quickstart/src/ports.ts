// The quickstart's fixed ports, from ports.json (next to src/ and dist/): scripts/check-ports.mjs
// reads the same file before the build, and infra's test holds the Prometheus configuration to it.
import { readFileSync } from 'node:fs';

/** The three processes of a book, each with an operations listener (metrics and health) of its own. */
export const PROCESSES = ['api', 'worker', 'recon'] as const;
export type ProcessName = (typeof PROCESSES)[number];
export type OpsPorts = Record<ProcessName, number>;

export interface BookPorts {
  api: number;
  ops: OpsPorts;
}

export interface StackPorts {
  ENTITY_UAE: BookPorts;
  ENTITY_IND_IFSC: BookPorts;
  sandbox: { registry: number; uaefeed: number; custodian: number; usbroker: number; remit: number };
}

/** The quickstart's ports: docs/quickstart.md tables them. */
export const QUICKSTART_PORTS = JSON.parse(
  readFileSync(new URL('../ports.json', import.meta.url), 'utf8'),
) as StackPorts;

/** The environment that gives each process of a book its own operations port (scripts/start-book.mjs). */
export function opsPortEnv(ops: OpsPorts): Record<string, string> {
  return Object.fromEntries(PROCESSES.map((name) => [`OPS_PORT_${name.toUpperCase()}`, String(ops[name])]));
}

/** A book's operations URLs, as the start prints them: one line per process. */
export function opsUrls(ops: OpsPorts): { process: ProcessName; metrics: string; ready: string }[] {
  return PROCESSES.map((name) => ({
    process: name,
    metrics: `http://127.0.0.1:${ops[name]}/metrics`,
    ready: `http://127.0.0.1:${ops[name]}/health/ready`,
  }));
}
