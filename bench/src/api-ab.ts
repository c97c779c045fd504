import http from 'node:http';
import pg from 'pg';
import { TEST_SERVER_URL, type TestDatabase } from '@ledger/core/testing';
import { backendsOf, benchDeposit, load, post, withApis, type Leg } from './anchor.js';
import type { ApiVariant, RunningApi } from './http.js';
import { seedBook } from './seed.js';

/** One side of the comparison: a variant of the api, run as `processes` processes. */
export interface AbSide {
  variant: ApiVariant;
  processes: number;
}

export interface AbResult {
  seedSeconds: number;
  /** Each round's leg of each side, and B's api CPU per entry and rate as a share of A's. */
  rounds: Array<{ a: Leg; b: Leg; cpuRatio: number | null; rateRatio: number }>;
}

/** `clients` closed loops posting deposits, each under its own key, to `apis` for `seconds`: the leg's figures. */
function depositLeg(
  agent: http.Agent,
  server: pg.Client,
  database: TestDatabase,
  apis: RunningApi[],
  key: string,
  { clients, seconds }: { clients: number; seconds: number },
): Promise<Leg> {
  const pids = apis.flatMap((api) => (api.pid === undefined ? [] : [api.pid]));
  const postDeposit = (client: number, i: number) => {
    const api = apis[client % apis.length]!;
    return post(
      agent,
      `${api.baseUrl}/v1/transactions`,
      api.adminToken,
      benchDeposit(`${key}-${client}-${i}`, client * 7 + i),
    );
  };
  return load('book', clients, seconds, postDeposit, () => backendsOf(server, database.name), pids);
}

/** A's and B's legs of one round, and B's api CPU per entry and rate as a share of A's. */
const roundOf = (a: Leg, b: Leg): AbResult['rounds'][number] => ({
  a,
  b,
  cpuRatio: a.apiCpuMs && b.apiCpuMs !== null ? b.apiCpuMs / a.apiCpuMs : null,
  rateRatio: b.perSecond / Math.max(1, a.perSecond),
});

/**
 * Two variants of the api (two builds, Node flags, settings) on one book, taking turns: each round
 * runs a leg of `clients` closed loops of deposits against A, then against B (B first in every other
 * round), after a warm-up of each. On a shared machine whose load moves 2–5× within minutes, a
 * change worth a tenth of the api's CPU is invisible between two runs of `pnpm bench anchor`; side
 * by side, within seconds, each round's ratio is taken under one load. `together`: A and B run each
 * leg at once, half the clients each, so both see the same load at every instant (the load of
 * another's benchmark moves within a leg, too); their batchers then share the database, so the
 * rates are each half a book's, and the CPU per entry is what compares.
 */
export async function benchApiAb(
  database: TestDatabase,
  a: AbSide,
  b: AbSide,
  { clients = 16, seconds = 8, rounds = 8, bookSize = 10_000, together = false } = {},
): Promise<AbResult> {
  const seedSeconds = await seedBook(database, bookSize);
  const server = new pg.Client({ connectionString: TEST_SERVER_URL });
  await server.connect();
  const run = Date.now().toString(36);
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  let legs = 0;
  const half = Math.floor(clients / 2);
  const leg = (apis: RunningApi[], legSeconds: number, legClients = clients) => {
    legs += 1;
    return depositLeg(agent, server, database, apis, `ab-${run}-${legs}`, { clients: legClients, seconds: legSeconds });
  };
  const turns = async (apisA: RunningApi[], apisB: RunningApi[], r: number, legSeconds: number) => {
    if (together) return Promise.all([leg(apisA, legSeconds, half), leg(apisB, legSeconds, half)]);
    const [first, second] = r % 2 === 0 ? [apisA, apisB] : [apisB, apisA];
    const one = await leg(first, legSeconds);
    const two = await leg(second, legSeconds);
    return r % 2 === 0 ? [one, two] : [two, one];
  };
  try {
    return await withApis(
      database,
      a.processes,
      (apisA) =>
        withApis(
          database,
          b.processes,
          async (apisB) => {
            // Warm-up, not counted: the first requests compile the validators and plan the statements.
            await turns(apisA, apisB, 0, 2);
            const results: AbResult['rounds'] = [];
            for (let r = 0; r < rounds; r += 1) {
              const [legA, legB] = await turns(apisA, apisB, r, seconds);
              results.push(roundOf(legA!, legB!));
            }
            return { seedSeconds, rounds: results };
          },
          b.variant,
        ),
      a.variant,
    );
  } finally {
    agent.destroy();
    await server.end();
  }
}
