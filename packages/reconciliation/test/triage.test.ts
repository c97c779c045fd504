import { NO_UPSTREAMS } from '@ledger/upstream-clients';
import { expect } from 'chai';
import { withActor } from '@ledger/core/runtime';
import {
  BOTH_BOOKS,
  DEFAULT_RECON_SETTINGS,
  getVariance,
  listVariances,
  runReconciliation,
  triageOfRun,
  triageVariance,
  variance,
  varianceCounts,
  type Check,
  type CheckOutcome,
  type Variance,
} from '../src/index.js';
import { cleanBook } from './book.js';

type Book = Awaited<ReturnType<typeof cleanBook>>;

/** A check that finds what the test says it finds this time. */
function scripted(name: string): Check & { next: CheckOutcome } {
  const check = {
    name,
    category: 'A' as const,
    books: BOTH_BOOKS,
    next: { status: 'ok', metrics: {}, variances: [] } as CheckOutcome,
    run: async () => check.next,
  };
  return check;
}
const warn = (...variances: Variance[]): CheckOutcome => ({ status: 'warn', metrics: {}, variances });
const ok: CheckOutcome = { status: 'ok', metrics: {}, variances: [] };
const shares = (customer: string, symbol: string, difference: string) =>
  variance({ customer_id: customer, symbol, expected: '10', difference, detail: { problem: 'shares_differ' } });

describe('variance triage', function () {
  this.timeout(60_000);
  let book: Book;
  const holdings = scripted('holdings_test');
  const other = scripted('other_test');
  before(async () => {
    book = await cleanBook();
  });
  after(async () => book?.drop());
  const run = (settings = DEFAULT_RECON_SETTINGS) =>
    runReconciliation(
      { db: book.runtimeDb, book: 'ENTITY_UAE', settings, upstreams: NO_UPSTREAMS },
      { checks: [holdings, other] },
    );
  const all = async () => (await listVariances(book.runtimeDb, {}, { limit: 500, offset: 0 })).items;
  const one = async (customer: string) => (await all()).find((v) => v.customer_id === customer)!;

  it('a variance seen by two runs is one variance, its figures the last seen, both runs its sightings', async () => {
    holdings.next = warn(shares('C-1', 'AAPL', '1'));
    const first = await run();
    holdings.next = warn(shares('C-1', 'AAPL', '2'));
    const second = await run();
    const [tracked] = await all();
    expect(tracked).to.include({
      check_name: 'holdings_test',
      customer_id: 'C-1',
      symbol: 'AAPL',
      kind: 'shares_differ',
      state: 'open',
      present: true,
      times_seen: 2,
      difference: '2',
      first_seen_run_id: first.run_id,
      last_seen_run_id: second.run_id,
    });
    const detail = (await getVariance(book.runtimeDb, tracked!.variance_id))!;
    expect(detail.runs.map((r) => [r.run_id, r.difference])).to.deep.equal([
      [second.run_id, '2'],
      [first.run_id, '1'],
    ]);
    expect(detail.history.map((e) => [e.action, e.state, e.run_id, e.actor])).to.deep.equal([
      ['opened', 'open', first.run_id, 'system'],
    ]);
    expect([...(await triageOfRun(book.runtimeDb, second.run_id)).entries()]).to.deep.equal([
      [0, { variance_id: tracked!.variance_id, state: 'open' }],
    ]);
  });

  it('operators acknowledge, assign, note and resolve, each an event with its actor; repeats change nothing', async () => {
    const { variance_id: id } = await one('C-1');
    const as = <T>(who: string, work: () => Promise<T>) => withActor(`api:${who}`, work);
    await as('ana', () => triageVariance(book.runtimeDb, id, { action: 'acknowledge' }));
    await as('ana', () => triageVariance(book.runtimeDb, id, { action: 'acknowledge' }));
    await as('ana', () => triageVariance(book.runtimeDb, id, { action: 'assign', assignee: 'bo' }));
    await as('bo', () => triageVariance(book.runtimeDb, id, { action: 'note', note: 'broker confirms 12' }));
    const resolved = await as('bo', () =>
      triageVariance(book.runtimeDb, id, { action: 'resolve', note: 'corporate action booked late' }),
    );
    expect(resolved).to.include({ state: 'resolved', assignee: 'bo', state_changed_by: 'api:bo' });
    expect(resolved.history.map((e) => [e.action, e.state, e.assignee, e.note, e.actor])).to.deep.equal([
      ['opened', 'open', null, null, 'system'],
      ['acknowledged', 'acknowledged', null, null, 'api:ana'],
      ['assigned', 'assigned', 'bo', null, 'api:ana'],
      ['noted', 'assigned', 'bo', 'broker confirms 12', 'api:bo'],
      ['resolved', 'resolved', 'bo', 'corporate action booked late', 'api:bo'],
    ]);
    const again = await triageVariance(book.runtimeDb, id, { action: 'resolve', note: 'again' });
    expect(again.history).to.have.length(5);
    for (const action of [{ action: 'acknowledge' as const }, { action: 'assign' as const, assignee: 'cy' }]) {
      const error = await triageVariance(book.runtimeDb, id, action).catch((e: unknown) => e);
      expect(error).to.include({ code: 'invalid_state_transition' });
    }
    const missing = await triageVariance(book.runtimeDb, 999_999, { action: 'acknowledge' }).catch((e: unknown) => e);
    expect(missing).to.include({ code: 'not_found' });
  });

  it('resolved by an operator while still found, it stays resolved; once gone and back, it reopens', async () => {
    await run();
    expect(await one('C-1')).to.include({ state: 'resolved', present: true, times_seen: 3 });
    holdings.next = ok;
    await run();
    expect(await one('C-1')).to.include({ state: 'resolved', present: false });
    holdings.next = warn(shares('C-1', 'AAPL', '3'));
    const back = await run();
    const reopened = (await getVariance(book.runtimeDb, (await one('C-1')).variance_id))!;
    expect(reopened).to.include({ state: 'open', assignee: null, present: true });
    expect(reopened.history.at(-1)).to.include({ action: 'reopened', state: 'open', run_id: back.run_id });
  });

  it('a variance a later run no longer finds resolves itself, naming that run', async () => {
    holdings.next = warn(shares('C-1', 'AAPL', '3'), shares('C-2', 'MSFT', '-1'));
    await run();
    holdings.next = warn(shares('C-2', 'MSFT', '-1'));
    const later = await run();
    const gone = (await getVariance(book.runtimeDb, (await one('C-1')).variance_id))!;
    expect(gone).to.include({ state: 'resolved', present: false });
    expect(gone.history.at(-1)).to.include({
      action: 'resolved',
      run_id: later.run_id,
      note: `no longer found by run ${later.run_id}`,
    });
    expect(await one('C-2')).to.include({ state: 'open', present: true });
    expect(await varianceCounts(book.runtimeDb, {})).to.deep.equal({
      unresolved: 1,
      by_state: { open: 1, acknowledged: 0, assigned: 0, resolved: 1 },
      by_check: [{ check_name: 'holdings_test', unresolved: 1 }],
    });
    expect((await varianceCounts(book.runtimeDb, { customer_id: 'C-1' })).unresolved).to.equal(0);
  });

  it('a run that could not look leaves variances as they were: a check that threw, one that warns with none, a customer unreachable, one cut at the cap', async () => {
    const stillOpen = async () => (await one('C-2')).state;
    holdings.run = async () => Promise.reject(new Error('boom'));
    await run();
    expect(await stillOpen()).to.equal('open');
    holdings.run = async () => holdings.next;
    holdings.next = { status: 'warn', metrics: { reason: 'usbroker is not configured' }, variances: [] };
    await run();
    expect(await stillOpen()).to.equal('open');
    holdings.next = warn(variance({ customer_id: 'C-2', detail: { problem: 'usbroker_unreachable' } }));
    await run();
    expect(await stillOpen()).to.equal('open');
    holdings.next = warn(shares('C-3', 'IBM', '1'));
    await run({ ...DEFAULT_RECON_SETTINGS, variancesPerCheckMax: 1 });
    expect(await stillOpen()).to.equal('open');
    holdings.next = ok;
    await run();
    expect((await one('C-3')).state).to.equal('resolved');
    expect(await stillOpen()).to.equal('resolved');
  });

  it('filters by state (unresolved: all but resolved), check, customer and run', async () => {
    holdings.next = warn(shares('C-2', 'MSFT', '-1'));
    const latest = await run();
    const ids = async (filter: Parameters<typeof listVariances>[1]) =>
      (await listVariances(book.runtimeDb, filter, { limit: 50, offset: 0 })).items.map((v) => v.customer_id);
    expect(await ids({ state: 'unresolved' })).to.deep.equal(['C-2']);
    // C-2's other variance (its upstream unreachable) is resolved.
    expect((await ids({ state: 'resolved' })).sort()).to.deep.equal(['C-1', 'C-2', 'C-3']);
    expect(await ids({ run_id: latest.run_id })).to.deep.equal(['C-2']);
    expect(await ids({ check_name: 'other_test' })).to.deep.equal([]);
    expect(await ids({ customer_id: 'C-3', state: 'resolved' })).to.deep.equal(['C-3']);
  });

  it('its history is insert-only and its identity never changes, even for the schema owner', async () => {
    const refused = async (sql: string) => {
      const error = (await book.db.raw(sql).catch((e: unknown) => e)) as { code?: string; constraint?: string };
      expect(error.code, sql).to.equal('42501');
    };
    await refused('UPDATE variance_triage_events SET note = $$x$$');
    await refused('DELETE FROM variance_triage_events');
    await refused('DELETE FROM variance_sightings');
    await refused('DELETE FROM variance_triage');
    await refused('TRUNCATE variance_triage_events CASCADE');
    await refused('UPDATE variance_triage SET customer_id = $$C-9$$');
    await refused('UPDATE variance_triage SET first_seen_at = now()');
  });
});
