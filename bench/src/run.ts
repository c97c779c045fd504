import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { createTestDatabase } from '@ledger/core/testing';
import { benchAnchor } from './anchor.js';
import { benchApiAb, type AbSide } from './api-ab.js';
import { benchBulkPosting } from './bulk.js';
import { benchCustomerViews } from './customer-views.js';
import { entry, fundingEntry } from './fixtures.js';
import { benchTaxPack } from './tax-pack.js';
import { benchIndiaLiveReports, benchIndiaReports, seedIndiaBook } from './india.js';
import { benchIndexes } from './indexes.js';
import { benchManualEntry } from './http.js';
import { benchPostingCosts } from './posting-costs.js';
import { benchRecon, benchReconUnderLoad, type TimedRun } from './recon.js';
import { benchRecost } from './recost.js';
import { benchReports, REPORTS } from './reports.js';
import { benchSyncRemit } from './remit.js';
import { benchSyncUaefeed } from './uaefeed.js';

/**
 * `pnpm bench`: (a) manual entry over HTTP, 16 clients for 15 s, for two mixes of entries; (b) bulk posting of 100k
 * transactions through the batch API, each customer's together (as the product's posters give
 * them); (c) recost of 100k pending trades and a full re-cost of the
 * same history; (d) the firm reports' latency on books of each size given (`bench reports
 * 10000,1000000`; `all` runs 10,000 only, the 1M book takes minutes to post); (e, `customers`, not
 * in `all`: minutes) one customer's views and the journal export in a book of 10,000 then 1,000,000
 * transactions. Each on a throwaway database. Targets on a 2-core machine: (a) ≥ 2,000
 * transactions/s, (b) ≥ 100,000 journal lines/s, (c) ≥ 20,000 trades/s each, (d) every report on
 * the largest book within 1.5× of the smallest, (e) view latency and the export's peak memory flat
 * from 10k to 1M; (f) sync-uaefeed over a sandbox of 500 customers × 100 records, ≥ 5,000
 * records/s end to end; (g, `recon [count]`, not in `all`: minutes) the A, B and D reconciliation
 * checks on a book of 1,000,000 transactions, a full sweep under 5 s (each check alone printed),
 * then an incremental run after 10,000 new transactions under 0.5 s (each check's share printed); (h, `india [customers] [live]`, not in
 * `all`: minutes) the India stored-data reports over 2,000 customers, 200,000 trades and 20,000
 * remittances, each under 1 s, then the live India reports against the sandbox over the same
 * customers, each under 5 s (`live`: the same book, the live reports only); (i, `costs [book]`, not in `all`) what bulk posting costs Postgres
 * part by part on a book of `book` transactions, beside raw COPY's CPU for the same lines. `bulk
 * [book]` posts its 100k on a book already holding `book` transactions; (j, `anchor [clients] [seconds]
 * [rounds] [book size] [api processes]`, not in `all`: minutes) manual
 * entry over HTTP against pgledger's create_transfer, alternating rounds, on a book already holding
 * 1,000,000 transactions: ≥ 1.0× with a p99 no worse than pgledger's; (k, `indexes [book size]`, not in
 * `all`: minutes) what each secondary index on transactions and journal_lines costs a posting, and
 * the reads it serves with and without it, on a book of 1,000,000 transactions; (l, `remit [customers]`)
 * sync-remit over a sandbox of 1,000 India customers × 100 records (~30,000 remittances), end to end
 * at ≥ 50% of bulk posting alone's rate; (m, `api-ab <A> <B> [rounds] [seconds] [together]`, not in
 * `all`) two variants of the api taking turns on one book (`together`: at once, half the clients
 * each), each side's api CPU per entry and rate, and B's as a share of A's; a side is a quoted list
 * of a build's main.js (default apps/api/dist/main.js; copy a build inside apps/api, where its
 * packages resolve), Node flags (`--max-semi-space-size=32`),
 * settings (`LOG_LEVEL=warn`) and a count of processes (`x2`), e.g. `api-ab '' 'x2'`; (n, `recon-load [book size]
 * [clients] [seconds]`, not in `all`: minutes) incremental A, B and D runs asked of the built api
 * (POST /v1/reconciliation/run), timed on the quiet book after 10,000 new transactions, then one
 * after another while `clients` clients post the mixed entries of (a), then once after.
 */
const which = process.argv[2] ?? 'all';
const round = (n: number) => Math.round(n).toLocaleString('en-US');

/** `count` throwaway databases at once (books compared side by side). As production runs: the processes and the bulk poster connect as a role that owns nothing. */
async function withDatabases<T>(
  count: number,
  run: (dbs: Array<Awaited<ReturnType<typeof createTestDatabase>>>) => Promise<T>,
): Promise<T> {
  const databases = [];
  try {
    for (let i = 0; i < count; i += 1) databases.push(await createTestDatabase({ poolMax: 4, runtimeRole: true }));
    return await run(databases);
  } finally {
    for (const database of databases) await database.drop();
  }
}

function withDatabase<T>(run: (db: Awaited<ReturnType<typeof createTestDatabase>>) => Promise<T>): Promise<T> {
  return withDatabases(1, ([database]) => run(database!));
}

/** Funding is what operators enter by hand most; the mix adds trades (6 lines), income and tax. */
const HTTP_SCENARIOS = [
  { name: 'funding entries (deposits and withdrawals)', entry: fundingEntry },
  { name: 'mixed entries (30% buys, 20% sells, funding, dividends, tax)', entry },
];

if (which === 'all' || which === 'http') {
  for (const scenario of HTTP_SCENARIOS) {
    const r = await withDatabase((db) => benchManualEntry(db, scenario));
    console.log(
      `manual entry over HTTP, ${r.scenario} (${r.connections} clients, ${r.seconds} s): ${round(r.transactionsPerSecond)} transactions/s, ` +
        `p50 ${r.latencyP50Ms} ms, p99 ${r.latencyP99Ms} ms, ${r.transactions} posted, ${r.non2xx} non-2xx, ${r.errors} errors, ` +
        `CPU per transaction: api ${r.apiCpuMsPerTransaction ?? '?'} ms, Postgres ${r.postgresCpuMsPerTransaction ?? '?'} ms ` +
        `(target ≥ 2,000/s)`,
    );
  }
}
if (which === 'all' || which === 'bulk') {
  const book = which === 'bulk' ? Number(process.argv[3] ?? '0') : 0;
  if (!Number.isSafeInteger(book) || book < 0)
    throw new Error(`the book size must be a whole number, e.g. 1000000: ${process.argv[3]}`);
  const r = await withDatabase((db) => benchBulkPosting(db, 100_000, 1_000, book));
  const perLine = (seconds: number | null) =>
    seconds === null ? 'unknown' : `${((seconds * 1e6) / r.journalLines).toFixed(1)} µs`;
  console.log(
    `bulk posting (${round(r.transactions)} transactions, ${round(r.journalLines)} journal lines, each customer's together, on a book of ${round(r.book)} transactions): ${r.seconds.toFixed(2)} s, ` +
      `${round(r.transactionsPerSecond)} transactions/s, ${round(r.journalLinesPerSecond)} journal lines/s (target ≥ 100,000 lines/s); ` +
      `CPU a line: Postgres ${perLine(r.postgresCpuSeconds)}, the poster ${perLine(r.ownCpuSeconds)}; ` +
      `re-run of the same batch answers all ${round(r.transactions)} duplicate in ${r.rerunSeconds.toFixed(2)} s; ` +
      `raw COPY of the same lines into a bare table here: ${round(r.rawCopyLinesPerSecond)} lines/s, so bulk posting runs at ` +
      `${((100 * r.journalLinesPerSecond) / r.rawCopyLinesPerSecond).toFixed(1)}% of it (target ≈ 25%)`,
  );
}
if (which === 'costs') {
  const book = Number(process.argv[3] ?? '100000');
  if (!Number.isSafeInteger(book) || book < 0)
    throw new Error(`the book size must be a whole number, e.g. 1000000: ${process.argv[3]}`);
  const r = await withDatabase((db) => benchPostingCosts(db, book));
  const perTransaction = r.rawCopyMicrosPerLine * r.linesPerTransaction;
  console.log(
    `what bulk posting costs Postgres, on a book of ${round(r.book)} transactions (batches of ${round(r.batch)}, ${r.linesPerTransaction.toFixed(2)} lines each; CPU of the posting backend): ` +
      `raw COPY of the same lines ${r.rawCopyMicrosPerLine.toFixed(2)} µs a line (median of the rounds; ${r.rawCopyRange.map((x) => x.toFixed(2)).join('–')}), ${perTransaction.toFixed(1)} µs a transaction ` +
      `(a quarter of its speed allows 4× its CPU per line on one core, 8× with bulk posting's two connections on both cores: ` +
      `${(4 * perTransaction).toFixed(1)}–${(8 * perTransaction).toFixed(1)} µs a transaction)`,
  );
  console.log(
    "| without | insert, µs / txn | commit check, µs / txn | total, µs / line | total ÷ raw COPY | raw COPY's CPU ÷ total | the same, round by round: median (lowest–highest) |\n|---|---|---|---|---|---|---|",
  );
  for (const p of r.parts) {
    const total = p.insertMicros + p.commitCheckMicros;
    console.log(
      `| ${p.part} | ${p.insertMicros.toFixed(1)} | ${p.commitCheckMicros.toFixed(1)} | ${(total / r.linesPerTransaction).toFixed(1)} | ` +
        `${(total / perTransaction).toFixed(1)}× | ${((100 * perTransaction) / total).toFixed(1)}% | ` +
        `${(100 * p.rawCopyShare.median).toFixed(1)}% (${(100 * p.rawCopyShare.low).toFixed(1)}–${(100 * p.rawCopyShare.high).toFixed(1)}%) |`,
    );
  }
}
if (which === 'all' || which === 'recost') {
  const r = await withDatabase((db) => benchRecost(db, 100_000));
  console.log(
    `recost (${round(r.trades)} pending trades over ${round(r.pairs)} customer-symbol pairs, posted in bulk): ` +
      `${r.firstSeconds.toFixed(2)} s, ${round(r.firstTradesPerSecond)} trades/s, ${round(r.derivations)} derivations posted ` +
      `(${round(r.derivationLines)} journal lines); ` +
      `full re-cost of the same history (every recosted_at nulled): ${r.fullRecostSeconds.toFixed(2)} s, ${round(r.fullRecostTradesPerSecond)} trades/s ` +
      `(target ≥ 20,000 trades/s each); bulk posting of the same derivations alone: ${r.derivationsAlonePostSeconds.toFixed(2)} s, ` +
      `i.e. at most ${round(r.derivationsAloneTradesPerSecond)} trades/s for a first recost ` +
      `(${round(r.derivationLines / r.derivationsAlonePostSeconds)} lines/s, ${((100 * r.derivationLines) / r.derivationsAlonePostSeconds / r.rawCopyLinesPerSecond).toFixed(1)}% of raw COPY); first recost at ` +
      `${Math.round((100 * r.firstTradesPerSecond) / r.derivationsAloneTradesPerSecond)}% of it; ` +
      (r.derivationsAlonePostgresCpuSeconds === null || r.firstPostgresCpuSeconds === null
        ? ''
        : `CPU of the first recost: Postgres ${r.firstPostgresCpuSeconds.toFixed(1)} s + recost ${r.firstRecostCpuSeconds.toFixed(1)} s, on ${r.cores} cores at least ` +
          `${((r.firstPostgresCpuSeconds + r.firstRecostCpuSeconds) / r.cores).toFixed(2)} s (it used the cores ` +
          `${Math.round((100 * (r.firstPostgresCpuSeconds + r.firstRecostCpuSeconds)) / r.cores / r.firstSeconds)}% of its time); Postgres CPU of posting ` +
          `its derivations alone ${r.derivationsAlonePostgresCpuSeconds.toFixed(1)} s, on ${r.cores} cores at least ${(r.derivationsAlonePostgresCpuSeconds / r.cores).toFixed(2)} s: ` +
          `at most ${round(r.trades / (r.derivationsAlonePostgresCpuSeconds / r.cores))} trades/s for any first recost here, however little else it did; ` +
          `with the poster's own ${r.derivationsAlonePosterCpuSeconds.toFixed(1)} s (encoding, judging: bulk posting's part in this process), at least ` +
          `${((r.derivationsAlonePostgresCpuSeconds + r.derivationsAlonePosterCpuSeconds) / r.cores).toFixed(2)} s: at most ` +
          `${round(r.trades / ((r.derivationsAlonePostgresCpuSeconds + r.derivationsAlonePosterCpuSeconds) / r.cores))} trades/s as bulk posting stands; `) +
      `raw COPY of the trades' journal lines into a bare table here: ${round(r.rawCopyLinesPerSecond)} lines/s`,
  );
}
if (which === 'all' || which === 'reports') {
  const sizes = (process.argv[3] ?? '10000').split(',').map(Number);
  if (sizes.some((n) => !Number.isSafeInteger(n) || n < 1))
    throw new Error(`book sizes must be whole numbers, e.g. 10000,1000000: ${process.argv[3]}`);
  const results = await withDatabases(sizes.length, (databases) => benchReports(databases, sizes));
  for (const r of results)
    console.log(`firm reports: ${round(r.transactions)} transactions posted in bulk in ${r.loadSeconds.toFixed(1)} s`);
  const [smallest] = results;
  const header = [
    'report',
    ...results.map((r) => `${round(r.transactions)} txns, median ms`),
    ...(results.length > 1 ? ['largest ÷ smallest (target ≤ 1.5)'] : []),
  ];
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const [name] of REPORTS) {
    const times = results.map((r) => r.medianMs.get(name) as number);
    const ratio =
      results.length > 1 ? [((times.at(-1) as number) / (smallest?.medianMs.get(name) as number)).toFixed(2)] : [];
    console.log(`| ${[name, ...times.map((t) => t.toFixed(1)), ...ratio].join(' | ')} |`);
  }
}
if (which === 'recon') {
  const count = Number(process.argv[3] ?? '1000000');
  if (!Number.isSafeInteger(count) || count < 1)
    throw new Error(`the book size must be a whole number, e.g. 1000000: ${process.argv[3]}`);
  const r = await withDatabase((db) => benchRecon(db, count));
  console.log(
    `reconciliation, A+B+D full sweep on a book of ${round(r.transactions)} transactions (posted in bulk in ${r.loadSeconds.toFixed(1)} s): ` +
      `${r.sweepSeconds.toFixed(2)} s (target < 5 s; yardstick, one sequential scan of journal_lines: ${r.yardstickSeconds.sweep.toFixed(2)} s; load average ${r.loadAverage.sweep.toFixed(2)}); each check alone: ` +
      r.checks.map((c) => `${c.name} ${c.seconds.toFixed(2)} s (${c.status})`).join(', ') +
      `; incremental, after ${round(r.newTransactions)} new transactions: ${r.incrementalSeconds.toFixed(2)} s (target < 0.5 s; ${r.incrementalStatus}; ` +
      `yardstick ${r.yardstickSeconds.incremental.toFixed(2)} s; load average ${r.loadAverage.incremental.toFixed(2)}); each check's share: ` +
      r.incrementalChecks.map((c) => `${c.name} ${c.seconds.toFixed(2)} s`).join(', '),
  );
}
if (which === 'recon-load') {
  const count = Number(process.argv[3] ?? '1000000');
  const clients = Number(process.argv[4] ?? '20');
  const seconds = Number(process.argv[5] ?? '60');
  for (const [name, n] of [
    ['book size', count],
    ['clients', clients],
    ['seconds', seconds],
  ] as const)
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`the ${name} must be a whole number: ${n}`);
  const r = await withDatabase((db) => benchReconUnderLoad(db, count, { clients, seconds }));
  const line = (t: TimedRun) =>
    `${t.seconds.toFixed(2)} s (${t.status}, ${round(t.newTransactions)} new transactions, load average ${t.loadAverage.toFixed(2)})`;
  const spread = (runs: TimedRun[]) => {
    const by = (pick: (t: TimedRun) => number) => runs.map(pick).sort((x, y) => x - y);
    const [took, fresh, load] = [by((t) => t.seconds), by((t) => t.newTransactions), by((t) => t.loadAverage)];
    const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)] ?? 0;
    return (
      `median ${median(took).toFixed(2)} s, slowest ${took.at(-1)!.toFixed(2)} s (${[...new Set(runs.map((t) => t.status))].join(', ')}); ` +
      `new transactions per run median ${round(median(fresh))}, most ${round(fresh.at(-1)!)}; load average ${load[0]!.toFixed(2)}–${load.at(-1)!.toFixed(2)}`
    );
  };
  console.log(
    `reconciliation on demand (POST /v1/reconciliation/run, A then B then D, incremental) on a book of ${round(r.transactions)} transactions: ` +
      `quiet, after 10,000 new: ${line(r.quiet)}; under ${r.clients} clients posting mixed entries for ${r.loadSecondsAsked} s ` +
      `(${round(r.posted)} posted, ${r.non2xx} non-2xx), ${r.loaded.length} runs one after another: ${spread(r.loaded)}; ` +
      `first run after the load: ${line(r.after)}; each check's share, quiet / slowest under load / after: ` +
      r.quiet.checks
        .map((c, i) => {
          const slowest = r.loaded.reduce((a, b) => (b.seconds > a.seconds ? b : a));
          return `${c.name} ${[r.quiet, slowest, r.after].map((t) => t.checks[i]!.seconds.toFixed(2)).join(' / ')} s`;
        })
        .join(', '),
  );
}
if (which === 'india') {
  const customers = Number(process.argv[3] ?? '2000');
  if (!Number.isSafeInteger(customers) || customers < 1)
    throw new Error(`the customer count must be a whole number, e.g. 2000: ${process.argv[3]}`);
  const part = process.argv[4] ?? 'all';
  if (part !== 'all' && part !== 'live') throw new Error(`the part is all or live: ${process.argv[4]}`);
  await withDatabase(async (db) => {
    if (part === 'live') {
      const started = process.hrtime.bigint();
      await seedIndiaBook(db, customers);
      const loadSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      console.log(`India book: ${round(customers)} customers loaded and recosted in ${loadSeconds.toFixed(1)} s`);
    } else {
      const r = await benchIndiaReports(db, customers);
      console.log(
        `India reports: ${round(r.customers)} customers, ${round(r.trades)} trades, ${round(r.remittances)} remittances loaded and recosted in ${r.loadSeconds.toFixed(1)} s`,
      );
      console.log(
        `stored-data reports (load average ${r.load[0].toFixed(1)} before, ${r.load[1].toFixed(1)} after); yardstick: SELECT count(*) over ${round(r.journalLines)} journal lines ${r.countMs.toFixed(0)} ms`,
      );
      console.log(
        `| report (${round(r.customers)} customers; a paged one, its first page) | median ms (target < 1,000) | ÷ count(*) |\n|---|---|---|`,
      );
      for (const [name, ms] of r.medianMs)
        console.log(`| ${name} | ${ms.toFixed(0)} | ${(ms / r.countMs).toFixed(1)} |`);
    }
    const live = await benchIndiaLiveReports(db, customers);
    console.log(
      `live reports against the sandbox (${round(live.customers)} customers, ${live.concurrency} at a time; load average ${live.load[0].toFixed(1)} before, ${live.load[1].toFixed(1)} after); ` +
        `yardstick: one broker account read per customer straight from the client, ${live.concurrency} at a time, ${live.brokerCallsMs.toFixed(0)} ms`,
    );
    console.log(
      '| report | median ms (target < 5,000) | ÷ broker reads alone | usbroker requests per customer | CPU ms per run: api, sandbox |\n|---|---|---|---|---|',
    );
    const cpu = (ms: number | null) => (ms === null ? '?' : round(ms));
    for (const [name, ms] of live.medianMs) {
      const used = live.cpuMs.get(name)!;
      console.log(
        `| ${name} | ${ms.toFixed(0)} | ${(ms / live.brokerCallsMs).toFixed(1)} | ${live.requestsPerCustomer.get(name)!.toFixed(2)} | ` +
          `${cpu(used.api)}, ${cpu(used.sandbox)} |`,
      );
    }
    const { compared, disagreements } = live.tieOuts;
    console.log(
      `tie-outs, report beside check on this book: ${round(compared.remittances)} remittances, ${round(compared.symbols)} symbols, ` +
        `${round(compared.customers)} customers compared; ${disagreements.length === 0 ? 'they agree' : `${disagreements.length} disagreements:\n  ${disagreements.slice(0, 5).join('\n  ')}`}`,
    );
  });
}
if (which === 'anchor') {
  const [clients = 16, seconds = 10, rounds = 3, bookSize = 1_000_000, apiProcesses = 1] = process.argv
    .slice(3)
    .map(Number);
  const r = await withDatabase((db) => benchAnchor(db, { clients, seconds, rounds, bookSize, apiProcesses }));
  const cpu = (ms: number | null) => (ms === null ? '?' : `${ms} ms`);
  console.log(
    `manual entry over HTTP (deposits) against pgledger create_transfer, ${clients} clients, ${seconds} s per leg, ` +
      `${apiProcesses} api process(es), on a book of ${round(r.bookTransactions)} transactions (seeded in ${r.seedSeconds.toFixed(0)} s):`,
  );
  console.log(
    '| round | book /s | p50 / p99 ms | CPU per entry: api, Postgres, client | pgledger /s | p50 / p99 ms | CPU per transfer: Postgres, client | ratio (target ≥ 1.0) | book: entries per commit |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [i, { book, pgledger, ratio, meanBatch }] of r.rounds.entries()) {
    console.log(
      `| ${i + 1} | ${round(book.perSecond)} | ${book.p50Ms} / ${book.p99Ms} | ${cpu(book.apiCpuMs)}, ${cpu(book.postgresCpuMs)}, ${cpu(book.clientCpuMs)} | ` +
        `${round(pgledger.perSecond)} | ${pgledger.p50Ms} / ${pgledger.p99Ms} | ${cpu(pgledger.postgresCpuMs)}, ${cpu(pgledger.clientCpuMs)} | ${ratio.toFixed(2)} | ${meanBatch.toFixed(1)} |` +
        (book.errors + pgledger.errors > 0 ? ` errors: book ${book.errors}, pgledger ${pgledger.errors}` : ''),
    );
  }
  const ratios = r.rounds.map((x) => x.ratio).sort((a, b) => a - b);
  console.log(
    `median ratio ${ratios[Math.floor(ratios.length / 2)]?.toFixed(2)}; load average at the end: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
  );
}
/** A side of `api-ab`, from its words (see above). */
function abSide(spec: string): AbSide {
  const side: AbSide = { variant: { nodeArgs: [], env: {} }, processes: 1 };
  for (const word of spec.split(' ').filter(Boolean)) {
    const processes = /^x(\d+)$/.exec(word);
    const setting = /^([A-Z_]+)=(.*)$/.exec(word);
    if (processes) side.processes = Number(processes[1]);
    else if (setting) side.variant.env![setting[1]!] = setting[2]!;
    else if (word.startsWith('--')) side.variant.nodeArgs!.push(word);
    else if (word.endsWith('.js')) side.variant.main = resolve(word);
    else throw new Error(`api-ab: not a main.js, Node flag, setting or process count: ${word}`);
  }
  return side;
}

if (which === 'api-ab') {
  const [a = '', b = '', rounds = '8', seconds = '8', mode = 'turns'] = process.argv.slice(3);
  const [clients, bookSize, together] = [16, 10_000, mode === 'together'];
  const before = loadavg();
  const r = await withDatabase((db) =>
    benchApiAb(db, abSide(a), abSide(b), {
      clients,
      rounds: Number(rounds),
      seconds: Number(seconds),
      bookSize,
      together,
    }),
  );
  console.log(
    `api A ('${a}') and B ('${b}') ${together ? `at once, ${clients / 2} clients each` : `taking turns, ${clients} clients`} posting deposits, ${seconds} s legs, on a book of ${round(bookSize)} transactions:`,
  );
  console.log(
    '| round | A /s | A p99 ms | A api CPU per entry | B /s | B p99 ms | B api CPU per entry | B ÷ A: CPU per entry, rate |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [i, { a: x, b: y, cpuRatio, rateRatio }] of r.rounds.entries()) {
    console.log(
      `| ${i + 1} | ${round(x.perSecond)} | ${x.p99Ms} | ${x.apiCpuMs ?? '?'} ms | ${round(y.perSecond)} | ${y.p99Ms} | ${y.apiCpuMs ?? '?'} ms | ` +
        `${cpuRatio?.toFixed(2) ?? '?'}, ${rateRatio.toFixed(2)} |`,
    );
  }
  const median = (xs: number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)];
  const cpuRatios = r.rounds.flatMap((x) => (x.cpuRatio === null ? [] : [x.cpuRatio]));
  console.log(
    `median B ÷ A: api CPU per entry ${median(cpuRatios)?.toFixed(2) ?? '?'}, rate ${median(r.rounds.map((x) => x.rateRatio))?.toFixed(2)}; ` +
      `load average ${before.map((x) => x.toFixed(1)).join(', ')} at the start, ${loadavg()
        .map((x) => x.toFixed(1))
        .join(', ')} at the end`,
  );
}
if (which === 'indexes') {
  const count = Number(process.argv[3] ?? '1000000');
  const r = await withDatabase((db) => benchIndexes(db, count));
  console.log(
    `indexes on a book of ${round(r.bookTransactions)} transactions (seeded in ${r.seedSeconds.toFixed(0)} s): posting a transaction with its lines ` +
      `costs the backend ${r.allIndexesUsPerTransaction} µs of CPU with every index; each index's share, and the reads it serves with and without it:`,
  );
  console.log(
    '| index | size MiB | µs per posting | read | with: ms, plan | without: ms, plan |\n|---|---|---|---|---|---|',
  );
  for (const index of r.indexes) {
    for (const read of index.reads) {
      console.log(
        `| ${index.index} | ${index.sizeMb} | ${index.costUsPerTransaction} | ${read.name} | ${read.withMs}, ${read.planWith} | ${read.withoutMs}, ${read.planWithout} |`,
      );
    }
  }
  console.log(
    `load average at the end: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
  );
}
if (which === 'customers') {
  const sizes = (process.argv[3] ?? '10000,1000000').split(',').map(Number);
  const measurements = await withDatabase((db) => benchCustomerViews(db, sizes));
  for (const m of measurements) {
    console.log(
      `book of ${round(m.transactions)} transactions (${round(m.journalLines)} journal lines): one customer's views (200 transactions), p50 / p95 ms: ` +
        m.views.map((v) => `${v.view} ${v.p50Ms} / ${v.p95Ms}`).join(', ') +
        `; journal export (ledger format): ${round(m.exportBytes / 1_048_576)} MiB in ${m.exportSeconds.toFixed(1)} s, ${round(m.exportLinesPerSecond)} journal lines/s, ` +
        `api resident memory ${round(m.apiRssBeforeMb)} MiB before, peak ${round(m.apiPeakRssMb)} MiB`,
    );
  }
}
if (which === 'all' || which === 'uaefeed') {
  const r = await withDatabase((db) => benchSyncUaefeed(db, 500, 100));
  console.log(
    `sync-uaefeed end to end against the sandbox (${round(r.customers)} customers, ${round(r.records)} records over HTTP: fetch, map, post in bulk): ` +
      `${r.seconds.toFixed(2)} s, ${round(r.recordsPerSecond)} records/s (target ≥ 5,000/s), ${round(r.posted)} posted (${round(r.postedPerSecond)}/s), ` +
      `${round(r.skipped)} skipped (rejected transfers, unfilled orders); then recost of its ${round(r.trades)} pending transactions: ${r.recostSeconds.toFixed(2)} s ` +
      `(with it: ${round(r.records / (r.seconds + r.recostSeconds))} records/s); yardsticks here: the same transactions through bulk posting alone ` +
      `${round(r.bulkOnlyPerSecond)}/s (the sync posts at ${Math.round((100 * r.postedPerSecond) / r.bulkOnlyPerSecond)}% of it), raw COPY of their journal lines into a bare table ${round(r.rawCopyLinesPerSecond)} lines/s`,
  );
}
if (which === 'tax-pack') {
  const customers = Number(process.argv[3] ?? '200');
  if (!Number.isInteger(customers) || customers < 1)
    throw new Error(`the customer count must be a whole number, e.g. 200: ${process.argv[3]}`);
  const r = await withDatabase((db) => benchTaxPack(db, customers));
  console.log(
    `tax pack per PAN (FY 2025-26) on the quickstart's India data set (${round(r.customers)} customers, ${round(r.pans)} PANs, synced and recosted in ${r.loadSeconds.toFixed(1)} s): ` +
      `packs holding ${round(r.held.transfers)} transfers, ${round(r.held.dividends)} dividends, ${round(r.held.tcsLines)} remittances, ${round(r.held.openLots)} open lots; ` +
      `median ${r.medianMs.toFixed(0)} ms, p95 ${r.p95Ms.toFixed(0)} ms, slowest ${r.maxMs.toFixed(0)} ms (target < 1,000 ms; load average ${r.load[0].toFixed(1)} before, ${r.load[1].toFixed(1)} after)`,
  );
}
if (which === 'all' || which === 'remit') {
  const customers = Number(process.argv[3] ?? '1000');
  if (!Number.isInteger(customers) || customers < 1)
    throw new Error(`the customer count must be a whole number, e.g. 1000: ${process.argv[3]}`);
  const r = await withDatabase((db) => benchSyncRemit(db, customers, 100));
  console.log(
    `sync-remit end to end against the sandbox (${round(r.customers)} India customers, ${round(r.remittances)} remittances over HTTP: orders, payments, quotes, settlements read; rows written; accruals and settlements posted in bulk): ` +
      `${r.seconds.toFixed(2)} s, ${round(r.remittancesPerSecond)} remittances/s, ${round(r.posted)} posted (${round(r.postedPerSecond)}/s); ` +
      `yardstick here: the same postings through bulk posting alone ${round(r.bulkOnlyPerSecond)}/s (the sync posts at ${Math.round((100 * r.postedPerSecond) / r.bulkOnlyPerSecond)}% of it; target ≥ 50%)`,
  );
}
