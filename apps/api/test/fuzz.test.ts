import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { Db } from '@ledger/core/store';
import { expect } from 'chai';
import { apiDocument } from '../src/openapi/index.js';
import { generate, varyHeaders, type PathFixture, type SemanticCase } from './fuzz/generators.js';
import { createRng, seedFrom } from './fuzz/prng.js';
import { fuzzableOperations, type FuzzOperation } from './fuzz/schema.js';
import { judge, pool, send, type FuzzCase, type FuzzReply } from './fuzz/send.js';
import { ADMIN_TOKEN, deposit, LEDGER_TOKEN, startApi, type TestApi } from './support.js';

/**
 * A seeded, bounded fuzz of bad input over every operation of the document that takes input
 * (bodies, query and path parameters): never a 5xx, always the error shape, nothing written.
 * Operations come from the document, so a new endpoint is fuzzed as soon as it is documented; at
 * most it needs one line below (a path parameter's fixture, a valid body, or an exclusion).
 *
 * Replay a failure with the seed it prints: `FUZZ_SEED=<seed> npx mocha test/fuzz.test.ts`.
 * `FUZZ_REQUESTS` raises the number of requests (never below 3,000); `FUZZ_FAILURES_FILE` names a
 * file to write every failure to, one JSON object per line.
 */
const SEED = seedFrom(process.env.FUZZ_SEED, 20_260_115);
const REQUESTS = Math.max(3_000, Number(process.env.FUZZ_REQUESTS ?? 4_000) || 0);
const CONCURRENCY = 8;
const BODY_LIMIT_BYTES = 1_048_576; // the api's default BODY_LIMIT_BYTES
const CUSTOMER = 'C-FUZZ';
/** Never created: a PUT to it that the api accepts would create it (and show up in the counts). */
const NEW_CUSTOMER = 'C-FUZZ-NEW';

/**
 * Operations without input worth fuzzing: the static documentation, console and queues board (not mounted
 * here); the queues board's session, which takes neither a body nor a parameter (queues.test.ts); and the
 * remit webhook, which takes no token (every unsigned body is 401, tested with its signature rules in
 * remit-webhook.test.ts).
 */
const EXCLUDED_OPERATIONS = [
  'getDocs',
  'getOpenApiDocument',
  'getConsole',
  'getQueuesBoard',
  'createQueuesSession',
  'endQueuesSession',
  'receiveRemitWebhook',
];

/** Operations that must be among the fuzzed ones (the set comes from the document). */
const EXPECTED_OPERATIONS = [
  'postTransaction',
  'previewTransaction',
  'reverseTransaction',
  'putCustomer',
  'listTransactions',
  'getTransactionCategories',
  'getTransactionGroups',
  'getTransaction',
  'listJournalLines',
  'getJournalGroups',
  'listPostings',
  'listCustomers',
  'createCashRequest',
  'listCashRequests',
  'getCashRequest',
  'confirmCashRequest',
  'failCashRequest',
  'cancelCashRequest',
];

/** What `before` set up: ids the fixtures point at. */
interface Setup {
  /** A reversal: reversing it is always a 409, so no variant of its id can write. */
  reversalId: string;
  /** A transaction not reversed: only the semantic case "dated before its original" targets it. */
  unreversedId: string;
  /** A cancelled cash request: confirm and fail are 409 (the semantic cases target it). */
  cancelledCashRequestId: string;
}

/** One line per path parameter name: the value fuzzed requests carry. */
const PATH_FIXTURES = (s: Setup): Record<string, PathFixture> => ({
  txn_id: { value: s.reversalId, variantsMayWrite: false },
  customer_id: { value: NEW_CUSTOMER, variantsMayWrite: true },
  job_id: { value: '0190c2d4-6c1e-7a2b-9f00-00000000f022', variantsMayWrite: false },
  // No such request: every action on it is 404 (a real one in a final state answers a repeat of its
  // own action 200, and the optional bodies of the actions make a body-less call a valid one).
  cash_request_id: { value: '0190c2d4-6c1e-7a2b-9f00-00000000ca5e', variantsMayWrite: false },
  // No such run: 404.
  run_id: { value: '0190c2d4-6c1e-7a2b-9f00-00000000ec01', variantsMayWrite: false },
  // No such exception: 404.
  exception_id: { value: '999999', variantsMayWrite: false },
  // No such variance: 404.
  variance_id: { value: '999999', variantsMayWrite: false },
  // A declaration of any well-formed PAN is stored.
  pan: { value: 'ABCDE1234F', variantsMayWrite: true },
});

/** One line per body schema (else its `examples` are used): valid bodies the fuzz mutates one field at a time. */
const VALID_BODIES: Record<string, Array<Record<string, unknown>>> = {
  EntryRequest: [
    deposit({ customer_id: CUSTOMER, memo: 'fuzz base', metadata: { origin: 'fuzz' } }),
    {
      txn_type: 'adjustment',
      source: 'manual',
      txn_date: '2026-01-20',
      amount_usd: '10.00',
      category: 'fuzz',
      lines: [
        { account_code: '1010', debit: '10.00', credit: '0', posting_kind: 'adjustment' },
        { account_code: '3000', debit: '0', credit: '10.00', posting_kind: null },
      ],
    },
    deposit({
      txn_type: 'buy_security',
      customer_id: CUSTOMER,
      symbol: 'AAPL',
      quantity: '2',
      amount_usd: '300.00',
      fee_usd: '1.00',
    }),
    deposit({ customer_id: CUSTOMER, original_currency: 'AED', original_amount: '367.25', amount_usd: '100.00' }),
  ],
  CustomerInput: [{ name: 'Fuzz Customer', email: 'fuzz@example.com', metadata: { tier: 'gold' } }],
  ReverseRequest: [{ memo: 'fuzz', txn_date: '2026-02-01' }],
  LrsPriorUsageInput: [{ fy: '2024-25', amount_usd: '100.00', amount_inr: '8300.00', note: 'fuzz' }],
  CashRequestInput: [
    {
      customer_id: CUSTOMER,
      direction: 'deposit',
      amount: '25.00',
      currency: 'USD',
      reference: 'fuzz-ref',
      memo: 'fuzz',
    },
    { customer_id: CUSTOMER, direction: 'withdrawal', amount: '1.00', currency: 'AED' },
  ],
};

const line = (account_code: string, debit: string, credit: string) => ({ account_code, debit, credit });
const adjustment = (lines: unknown[]) => ({
  txn_type: 'adjustment',
  source: 'manual',
  txn_date: '2026-01-20',
  amount_usd: '10.00',
  lines,
});
const aed = (original_amount: string, amount_usd: string) =>
  deposit({ customer_id: CUSTOMER, original_currency: 'AED', original_amount, amount_usd });

/** Entries the schema accepts but the ledger must refuse (4xx, nothing stored). */
const ENTRY_SEMANTIC: SemanticCase[] = [
  { name: 'unknown customer', body: deposit({ customer_id: 'C-FUZZ-UNKNOWN' }) },
  { name: 'customer required', body: deposit({ customer_id: null }) },
  {
    name: 'customer required',
    body: { txn_type: 'deposit', source: 'manual', txn_date: '2026-01-15', amount_usd: '1.00' },
  },
  {
    name: 'lines on a deposit',
    body: deposit({ customer_id: CUSTOMER, lines: [line('1010', '1.00', '0'), line('3000', '0', '1.00')] }),
  },
  {
    name: 'adjustment without lines',
    body: { txn_type: 'adjustment', source: 'manual', txn_date: '2026-01-20', amount_usd: '1.00' },
  },
  { name: 'unbalanced lines', body: adjustment([line('1010', '10.00', '0'), line('3000', '0', '9.99')]) },
  { name: 'unbalanced lines', body: adjustment([line('1010', '0.00000001', '0'), line('3000', '0', '0.00000002')]) },
  { name: 'unknown account', body: adjustment([line('1010', '10.00', '0'), line('9999', '0', '10.00')]) },
  {
    name: 'customer account without a customer',
    body: adjustment([line('4010', '10.00', '0'), line('2010', '0', '10.00')]),
  },
  { name: 'one line', body: adjustment([line('1010', '10.00', '0')]) },
  { name: 'both sides on a line', body: adjustment([line('1010', '10.00', '10.00'), line('3000', '10.00', '10.00')]) },
  { name: 'zero lines', body: adjustment([line('1010', '0', '0'), line('3000', '0', '0')]) },
  {
    name: 'huge amounts that cancel',
    body: adjustment([
      line('1010', '999999999999999999.99999999', '0'),
      line('3000', '0', '999999999999999999.99999999'),
      line('1010', '0', '0.00000001'),
    ]),
  },
  {
    name: 'too many lines',
    body: adjustment(
      Array.from({ length: 15_000 }, (_, i) => line('1010', i % 2 ? '0' : '1.00', i % 2 ? '1.00' : '0')),
    ),
  },
  { name: 'zero amount', body: deposit({ customer_id: CUSTOMER, amount_usd: '0' }) },
  { name: 'zero amount', body: deposit({ customer_id: CUSTOMER, amount_usd: '0.00000000' }) },
  {
    name: 'symbol required',
    body: deposit({ txn_type: 'buy_security', customer_id: CUSTOMER, quantity: '1', amount_usd: '10.00' }),
  },
  { name: 'currency without amount', body: deposit({ customer_id: CUSTOMER, original_currency: 'AED' }) },
  { name: 'amount without currency', body: deposit({ customer_id: CUSTOMER, original_amount: '367.25' }) },
  { name: 'AED zero', body: aed('0', '100.00') },
  { name: 'AED zero', body: aed('1.00', '0') },
  { name: 'AED absurd rate', body: aed('0.00000001', '100000000000') },
  { name: 'AED absurd rate', body: aed('0.00000001', '999999999999999999.99999999') },
  { name: 'upstream source', body: deposit({ customer_id: CUSTOMER, source: 'usbroker' }) },
  { name: 'AED off the peg', body: aed('367.25', '110.00') },
  { name: 'AED off the peg', body: deposit({ ...aed('367.25', '100.00'), fx_rate: '3.70' }) },
  { name: '1010 credited unconfirmed', body: adjustment([line('3000', '10.00', '0'), line('1010', '0', '10.00')]) },
  {
    name: 'wallet overdrawn',
    body: deposit({
      txn_type: 'buy_security',
      customer_id: CUSTOMER,
      symbol: 'AAPL',
      quantity: '1',
      amount_usd: '99999999.00',
    }),
  },
];

/** One line per operation with semantic cases. */
const SEMANTIC = (s: Setup): Record<string, SemanticCase[]> => ({
  postTransaction: [
    ...ENTRY_SEMANTIC,
    {
      name: 'idempotency conflict',
      body: deposit({ customer_id: CUSTOMER, source_txn_id: 'fuzz-original', amount_usd: '1.00' }),
    },
  ],
  previewTransaction: ENTRY_SEMANTIC,
  reverseTransaction: [
    { name: 'dated before its original', body: { txn_date: '2020-01-01' }, path: { txn_id: s.unreversedId } },
  ],
  createCashRequest: [
    {
      name: 'unknown customer',
      body: { customer_id: 'C-FUZZ-UNKNOWN', direction: 'deposit', amount: '1.00', currency: 'USD' },
    },
    {
      name: 'insufficient funds',
      body: { customer_id: CUSTOMER, direction: 'withdrawal', amount: '999999999.00', currency: 'USD' },
    },
    {
      name: 'insufficient funds',
      body: { customer_id: CUSTOMER, direction: 'withdrawal', amount: '1000.00', currency: 'AED' },
    },
    {
      name: 'AED under a cent',
      body: { customer_id: CUSTOMER, direction: 'deposit', amount: '0.01', currency: 'AED' },
    },
  ],
  confirmCashRequest: [
    { name: 'confirm a cancelled request', body: {}, path: { cash_request_id: s.cancelledCashRequestId } },
  ],
  failCashRequest: [
    { name: 'fail a cancelled request', body: { reason: 'fuzz' }, path: { cash_request_id: s.cancelledCashRequestId } },
  ],
});

interface Counts {
  transactions: number;
  journal_lines: number;
  customers: number;
  cash_requests: string;
  account_total_lines: number;
  /** Every customer with its updated_at: an accepted PUT to an existing id shows here. */
  customer_versions: string;
}

async function counts(db: Db): Promise<Counts> {
  const one = async (sql: string) => String(((await db.raw(sql)) as { rows: Array<{ v: unknown }> }).rows[0]?.v ?? '');
  return {
    transactions: Number(await one('SELECT count(*) AS v FROM transactions')),
    journal_lines: Number(await one('SELECT count(*) AS v FROM journal_lines')),
    customers: Number(await one('SELECT count(*) AS v FROM customers')),
    // Every request with its state and update stamp: one made or changed by the fuzz shows here.
    cash_requests: await one(
      "SELECT coalesce(string_agg(cash_request_id || '@' || status || '@' || updated_at, ',' ORDER BY cash_request_id), '') AS v FROM cash_requests",
    ),
    account_total_lines: Number(await one('SELECT coalesce(sum(line_count), 0) AS v FROM account_totals')),
    customer_versions: await one(
      "SELECT coalesce(string_agg(customer_id || '@' || updated_at, ',' ORDER BY customer_id), '') AS v FROM customers",
    ),
  };
}

interface Failure {
  c: FuzzCase;
  problem: string;
  reply?: FuzzReply;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text);

function errorCodeOf(reply: FuzzReply | undefined): string {
  if (!reply) return '-';
  try {
    return String((JSON.parse(reply.text) as { error?: { code?: unknown } }).error?.code ?? '-');
  } catch {
    return '-';
  }
}

/**
 * Distinct failures — one class per generator, answer (status, code) and problem, naming the
 * operations it hit — most frequent first, with one example each.
 */
function report(failures: Failure[], sent: number, seconds: number, limit = 20): string {
  const classes = new Map<string, Failure[]>();
  for (const f of failures) {
    const key = `${f.c.generator} | ${f.reply ? `${f.reply.status} ${errorCodeOf(f.reply)}` : 'no answer'} | ${f.problem}`;
    classes.set(key, [...(classes.get(key) ?? []), f]);
  }
  const sorted = [...classes.entries()].sort((a, b) => b[1].length - a[1].length);
  const describe = ([key, members]: [string, Failure[]]) => {
    const operations = [...new Set(members.map((m) => m.c.operationId))].join(', ');
    return `${key} ×${members.length} (${operations})`;
  };
  const lines = [
    `${failures.length} of ${sent} fuzz requests failed, in ${classes.size} distinct classes (seed ${SEED}; replay with FUZZ_SEED=${SEED}; ${seconds.toFixed(1)} s):`,
  ];
  for (const [i, entry] of sorted.slice(0, limit).entries()) {
    const { c, reply } = entry[1][0] as Failure;
    lines.push(
      `${i + 1}. ${describe(entry)}`,
      `   e.g. ${c.method} ${clip(c.path, 160)} [${clip(c.detail, 160)}]`,
      `   → ${reply ? `${reply.status} ${clip(reply.text, 300)}` : 'no answer'}`,
    );
  }
  if (sorted.length > limit) {
    lines.push(`… and ${sorted.length - limit} more classes:`);
    for (const entry of sorted.slice(limit)) lines.push(`   ${describe(entry)}`);
  }
  return lines.join('\n');
}

describe('fuzz: bad input over every operation that takes input', function () {
  this.timeout(180_000);
  let api: TestApi;
  let operations: FuzzOperation[];
  let before_: Counts;
  let after_: Counts;
  const failures: Failure[] = [];
  const perOperation = new Map<string, number>();
  let sent = 0;
  let structured = 0;
  let seconds = 0;

  before(async function () {
    // The hook sends every request (the tests judge them after): ~2 min alone, several times that on a busy machine.
    this.timeout(600_000);
    operations = fuzzableOperations(apiDocument, EXCLUDED_OPERATIONS);
    // No worker runs here: a synchronous job a valid call enqueues (recost) is answered 202 at once.
    api = await startApi({ env: { JOB_SYNC_WAIT_MS: '1' } });
    expect((await api.put(`/v1/customers/${CUSTOMER}`, { name: 'Fuzz' })).status).to.equal(201);
    const original = await api.post(
      '/v1/transactions',
      deposit({ customer_id: CUSTOMER, source_txn_id: 'fuzz-original' }),
    );
    expect(original.status, original.text).to.equal(201);
    const reversal = await api.post(`/v1/transactions/${original.body.txn_id}/reverse`, {});
    expect(reversal.status, reversal.text).to.equal(201);
    const unreversed = await api.post(
      '/v1/transactions',
      deposit({ customer_id: CUSTOMER, source_txn_id: 'fuzz-unreversed' }),
    );
    expect(unreversed.status, unreversed.text).to.equal(201);
    // A manual buy takes the funds check: the wallet covers the valid buy below.
    const funds = await api.post('/v1/transactions', deposit({ customer_id: CUSTOMER, amount_usd: '1000.00' }));
    expect(funds.status, funds.text).to.equal(201);
    const cashRequest = await api.post('/v1/cash-requests', {
      customer_id: CUSTOMER,
      direction: 'deposit',
      amount: '5.00',
      currency: 'USD',
    });
    expect(cashRequest.status, cashRequest.text).to.equal(201);
    const cancelled = await api.post(`/v1/cash-requests/${cashRequest.body.cash_request_id}/cancel`, {});
    expect(cancelled.status, cancelled.text).to.equal(200);
    const setup: Setup = {
      reversalId: reversal.body.txn_id as string,
      unreversedId: unreversed.body.txn_id as string,
      cancelledCashRequestId: cashRequest.body.cash_request_id as string,
    };
    // The bases really are valid, so one-field mutations test that field (preview stores nothing).
    for (const body of VALID_BODIES.EntryRequest ?? []) {
      const preview = await api.post('/v1/transactions/preview', body);
      expect(preview.status, `valid base ${JSON.stringify(body)}: ${preview.text}`).to.equal(200);
    }

    const rng = createRng(SEED);
    const generated = generate(
      {
        doc: apiDocument,
        rng,
        tokens: { admin: ADMIN_TOKEN, ledger: LEDGER_TOKEN },
        pathFixtures: PATH_FIXTURES(setup),
        validBodies: VALID_BODIES,
        semantic: SEMANTIC(setup),
        bodyLimitBytes: BODY_LIMIT_BYTES,
      },
      operations,
    );
    // Every group is sampled (mutations of one field: a few values each), the rest fills up to REQUESTS.
    const chosen: FuzzCase[] = [];
    const leftover: FuzzCase[] = [];
    for (const [key, group] of generated.groups) {
      const generator = key.split(' :: ')[1] ?? '';
      const cap = generator.startsWith('body /') ? 4 : /^query (?!limit|offset)/.test(generator) ? 10 : group.length;
      // Odd-but-arguable values (an uppercase uuid, limit=010) are few and find the most: all of them go.
      const odd = group.filter((c) => c.expect === 'no-5xx');
      const shuffled = rng.shuffle(group.filter((c) => c.expect === 'reject'));
      chosen.push(...odd, ...shuffled.slice(0, cap));
      leftover.push(...shuffled.slice(cap));
    }
    structured = chosen.length;
    const extra = rng.shuffle(leftover);
    while (chosen.length < REQUESTS) {
      const next = extra.length > 0 && rng.chance(0.7) ? extra.pop() : generated.randomCase();
      if (next) chosen.push(next);
    }
    const cases = rng.shuffle(chosen).map((c) => varyHeaders(c, rng, LEDGER_TOKEN));

    before_ = await counts(api.db);
    const base = new URL(api.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const started = performance.now();
    await pool(cases, CONCURRENCY, async (c) => {
      perOperation.set(c.operationId, (perOperation.get(c.operationId) ?? 0) + 1);
      try {
        const reply = await send(base, agent, c);
        const problem = judge(c, reply);
        if (problem) failures.push({ c, problem, reply });
      } catch (error) {
        failures.push({ c, problem: `no answer: ${(error as Error).message}` });
      }
      sent++;
    });
    seconds = (performance.now() - started) / 1000;
    agent.destroy();
    after_ = await counts(api.db);
    if (process.env.FUZZ_FAILURES_FILE) {
      const rows = failures.map(({ c, problem, reply }) => ({
        operation: c.operationId,
        generator: c.generator,
        detail: c.detail,
        request: `${c.method} ${clip(c.path, 300)}`,
        problem,
        status: reply?.status,
        body: reply ? clip(reply.text, 500) : undefined,
      }));
      writeFileSync(process.env.FUZZ_FAILURES_FILE, rows.map((row) => JSON.stringify(row)).join('\n'));
    }
    console.log(
      `      fuzz: seed ${SEED}, ${sent} requests (${structured} from every generator, the rest drawn at random) ` +
        `over ${perOperation.size} operations in ${seconds.toFixed(1)} s`,
    );
  });

  after(async () => {
    await api?.close();
  });

  it('derives the operations from the document, the known ones included', () => {
    const ids = operations.map((op) => op.operationId);
    expect(ids).to.include.members(EXPECTED_OPERATIONS);
    for (const op of operations) expect(perOperation.get(op.operationId) ?? 0, op.operationId).to.be.above(10);
  });

  it(`sends at least 3,000 bad requests: none answers 5xx or 2xx, every 4xx has the error shape`, () => {
    expect(sent).to.be.at.least(3_000);
    if (failures.length > 0) expect.fail(report(failures, sent, seconds));
  });

  it('stores nothing: transactions, journal lines, account totals and customers unchanged', () => {
    expect(after_, `row counts after the fuzz (seed ${SEED})`).to.deep.equal(before_);
  });
});
