import http from 'node:http';
import pg from 'pg';
import { TEST_SERVER_URL, type TestDatabase } from '@ledger/core/testing';
import { backendsOf, benchDeposit, load, post, withApis, type Leg } from './anchor.js';
import type { ApiVariant } from './http.js';
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

/**
 * Two variants of the api (two builds, Node flags, settings) on one book, taking turns: each round
 * runs a leg of `clients` closed loops of deposits against A, then against B (B first in every other
 * round), after a warm-up of each. On a shared machine whose load moves 2–5× within minutes, a
 * change worth a tenth of the api's CPU is invisible between two runs of `pnpm bench anchor`; side
 * by side, within seconds, each round's ratio is taken under one load.
 */
export async function benchApiAb(
  database: TestDatabase,
  a: AbSide,
  b: AbSide,
  { clients = 16, seconds = 8, rounds = 8, bookSize = 10_000 } = {},
): Promise<AbResult> {
  const seedSeconds = await seedBook(database, bookSize);
  const server = new pg.Client({ connectionString: TEST_SERVER_URL });
  await server.connect();
  const run = Date.now().toString(36);
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  let legs = 0;
  try {
    return await withApis(
      database,
      a.processes,
      (apisA) =>
        withApis(
          database,
          b.processes,
          async (apisB) => {
            const leg = (apis: typeof apisA, legSeconds: number) => {
              legs += 1;
              const key = `ab-${run}-${legs}`;
              const pids = apis.flatMap((api) => (api.pid === undefined ? [] : [api.pid]));
              return load(
                'book',
                clients,
                legSeconds,
                (client, i) => {
                  const api = apis[client % apis.length]!;
                  return post(
                    agent,
                    `${api.baseUrl}/v1/transactions`,
                    api.adminToken,
                    benchDeposit(`${key}-${client}-${i}`, client * 7 + i),
                  );
                },
                () => backendsOf(server, database.name),
                pids,
              );
            };
            // Warm-up, not counted: the first requests compile the validators and plan the statements.
            await leg(apisA, 2);
            await leg(apisB, 2);
            const results: AbResult['rounds'] = [];
            for (let r = 0; r < rounds; r += 1) {
              const [first, second] = r % 2 === 0 ? [apisA, apisB] : [apisB, apisA];
              const one = await leg(first, seconds);
              const two = await leg(second, seconds);
              const [legA, legB] = r % 2 === 0 ? [one, two] : [two, one];
              results.push({
                a: legA,
                b: legB,
                cpuRatio: legA.apiCpuMs && legB.apiCpuMs !== null ? legB.apiCpuMs / legA.apiCpuMs : null,
                rateRatio: legB.perSecond / Math.max(1, legA.perSecond),
              });
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
