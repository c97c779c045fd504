import { expect } from 'chai';
import { NO_UPSTREAMS } from '@ledger/upstream-clients';
import { DEFAULT_RECON_SETTINGS, OnDemandRuns } from '../src/index.js';
import { cleanBook } from './book.js';

type Book = Awaited<ReturnType<typeof cleanBook>>;

describe('reconciliation runs asked for on demand', function () {
  this.timeout(60_000);
  let book: Book;
  before(async () => {
    book = await cleanBook();
  });
  after(async () => book?.drop());
  const onDemand = (observe?: (results: ReadonlyArray<{ check_name: string; status: string }>) => void) =>
    new OnDemandRuns(
      { db: book.runtimeDb, book: 'ENTITY_UAE', settings: DEFAULT_RECON_SETTINGS, upstreams: NO_UPSTREAMS },
      observe,
    );
  const stored = async () => Number((await book.db('reconciliation_runs').count({ n: '*' }))[0]!.n);

  it('a request for the checks a run is running joins it and answers its run: one run stored, not one per request', async () => {
    const runs = onDemand();
    const before = await stored();
    const asked = [runs.run({ category: 'A' }), runs.run({ category: 'A' }), runs.run({ category: 'A' })];
    const answered = await Promise.all(asked);
    expect(new Set(answered.map((r) => r.run_id)).size).to.equal(1);
    expect(await stored()).to.equal(before + 1);
    // Finished, it is joined no more: the next request is a run of its own.
    expect((await runs.run({ category: 'A' })).run_id).to.not.equal(answered[0]!.run_id);
  });

  it('other checks, or a full sweep, are runs of their own, one after another; each run’s results are observed', async () => {
    const observed: string[] = [];
    const runs = onDemand((results) => observed.push(results.map((r) => r.check_name).join(',')));
    const [a, full, d] = await Promise.all([
      runs.run({ category: 'A' }),
      runs.run({ category: 'A', full: true }),
      runs.run({ category: 'D' }),
    ]);
    expect(new Set([a.run_id, full.run_id, d.run_id]).size).to.equal(3);
    expect(full.results.find((r) => r.check_name === 'journal_line_completeness')!.metrics).to.include({
      sweep: 'full',
    });
    // One at a time: each started after the one before it had finished.
    expect(full.started_at >= a.finished_at && d.started_at >= full.finished_at).to.equal(true);
    expect(observed).to.have.length(3);
  });

  it('closed (shutdown), a run waiting its turn is refused and nothing is stored', async () => {
    const runs = onDemand();
    const before = await stored();
    const first = runs.run({ category: 'A' });
    const waiting = runs.run({ category: 'B' });
    const closing = runs.close();
    const outcomes = await Promise.allSettled([first, waiting]);
    await closing;
    expect(runs.closed).to.equal(true);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected']);
    expect(await stored()).to.equal(before);
  });
});
