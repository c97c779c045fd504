// The console in a real Chromium (Debian's, driven by playwright-core) against the quickstart's
// stack: both books' real api, worker and recon processes on the demo data, 8 customers a book.
// Without Chromium (scripts/ensure-services.sh installs it where it can) the suite is pending.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startStack, type RunningBook, type Stack } from '@ledger/quickstart';
import { testStackOptions } from '@ledger/quickstart/testing';
import { money } from '../src/format.js';

const DIST = fileURLToPath(new URL('../dist/index.html', import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL('../test-results/', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The machine's network is closed: Chromium's own background calls are switched off. */
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const STEP_MS = 60_000;
/** axe-core, evaluated in the page (the console's CSP allows no injected script tag). */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** The main pages, each checked for accessibility. */
const MAIN_PAGES = [
  'firm',
  'transactions',
  'customers/UAE-000001',
  'cash-requests',
  'jobs',
  'reconciliation',
  'india',
  'india/lrs',
];

describe('the console in Chromium, on the demo data of both books', function () {
  let dir: string;
  let stack: Stack;
  let context: BrowserContext;
  let page: Page;
  const requested: string[] = [];
  let uae: RunningBook;
  let india: RunningBook;

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.warn(`    ${CHROMIUM} is missing (apt-get install -y chromium): the console's browser tests are pending`);
      this.skip();
    }
    if (!existsSync(DIST)) throw new Error(`${DIST} is missing: build the console first (pnpm build)`);
    const test = await testStackOptions('console', { customers: 8, onBookExit: () => {} });
    dir = test.dir;
    stack = await startStack(test.options);
    await stack.loadDemo();
    uae = stack.books.find((b) => b.label === 'UAE')!;
    india = stack.books.find((b) => b.label === 'India')!;
    context = await chromium.launchPersistentContext(join(dir, 'chromium'), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
    });
    context.setDefaultTimeout(STEP_MS);
    context.on('request', (request) => requested.push(request.url()));
    page = context.pages()[0] ?? (await context.newPage());
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async function () {
    await context?.close();
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  afterEach(async function () {
    const title = this.currentTest?.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
    if (page && title)
      await page.screenshot({ path: join(SCREENSHOTS, `${title}.png`), fullPage: true }).catch(() => {});
  });

  const signIn = async (book: RunningBook, admin: boolean) => {
    await page.goto(`${book.url}/console`);
    await page.getByLabel('Ledger token (reads)').fill(stack.secrets.LEDGER_TOKEN);
    if (admin) await page.getByLabel('Admin token (optional: writes and jobs)').fill(stack.secrets.LEDGER_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation').waitFor();
  };
  const go = (book: RunningBook, hash: string) => page.goto(`${book.url}/console/#/${hash}`);

  it('refuses a wrong token in words and stays on sign-in', async function () {
    await page.goto(`${uae.url}/console`);
    await page.getByLabel('Ledger token (reads)').fill('not-the-token-at-all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(await page.getByRole('alert').textContent()).to.match(/401 unauthorized/);
    expect(await page.getByRole('button', { name: 'Sign in' }).isVisible()).to.equal(true);
  });

  it('signs in with the read token alone: the book, its health, the other book’s console, no admin actions, the token in this tab only', async function () {
    await signIn(uae, false);
    const header = page.locator('header');
    await header.getByText('UAE book').waitFor();
    await page.getByTestId('health').getByText('ready').waitFor();
    expect(await header.getByRole('link', { name: 'Other book’s console' }).getAttribute('href')).to.equal(
      `${india.url}/console/`,
    );
    expect(await header.getByText('read only').isVisible()).to.equal(true);
    await go(uae, 'jobs');
    await page.getByText('Starting a job needs the admin token.').waitFor();
    expect(page.url()).not.to.contain(stack.secrets.LEDGER_TOKEN);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).to.equal('{}');
    expect(await context.cookies()).to.deep.equal([]);
  });

  it('an expired or changed token returns to sign-in, saying why', async function () {
    await page.evaluate(() =>
      sessionStorage.setItem('ledger-console-tokens', JSON.stringify({ ledger: 'a-token-no-longer-valid', admin: '' })),
    );
    await go(uae, 'firm');
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('alert').textContent()).to.contain('The API refused the token');
  });

  it('shows on the firm page the totals of /v1/firm/summary, the flows chart, the trial balance and the latest checks', async function () {
    await signIn(uae, true);
    await go(uae, 'firm');
    const summary = await uae.api.get<{
      total_deposits_usd: string;
      total_withdrawals_usd: string;
      transaction_count: number;
    }>('/v1/firm/summary');
    const cards = page.getByTestId('firm-cards');
    await cards.waitFor();
    const text = await cards.textContent();
    expect(text).to.contain(`Deposits (USD)${money(summary.total_deposits_usd)}`);
    expect(text).to.contain(`Withdrawals (USD)${money(summary.total_withdrawals_usd)}`);
    expect(text).to.contain(`Transactions${summary.transaction_count}`);
    await page.locator('.chart canvas').first().waitFor();
    expect(await page.getByTestId('trial-balance').locator('caption').textContent()).to.contain('(balanced)');
    await page.getByRole('link', { name: 'snapshot_reconcile' }).waitFor();
  });

  it('filters transactions by type and opens one with its journal lines', async function () {
    await go(uae, 'transactions');
    await page.getByRole('form', { name: 'Filters' }).getByLabel('Type').selectOption('deposit');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/txn_type=deposit/);
    const rows = page.getByTestId('transactions').locator('tbody tr');
    await rows.first().waitFor();
    const types = await rows.locator('td:nth-child(2)').allTextContents();
    expect(types.length).to.be.greaterThan(0);
    expect(new Set(types.map((t) => t.replace(' (reversed)', '')))).to.deep.equal(new Set(['deposit']));
    await rows.first().locator('a').first().click();
    await page.getByTestId('journal-lines').locator('tbody tr').nth(1).waitFor();
    expect(await page.locator('h2').textContent()).to.match(/^deposit of [\d,.]+ USD on \d{4}-\d{2}-\d{2}$/);
  });

  it('posts a manual deposit after previewing its lines, then reverses it after confirming', async function () {
    await go(uae, 'transactions');
    await page.getByText('Manual entry').click();
    const form = page.getByRole('form', { name: 'Manual entry' });
    await form.getByLabel('Customer').fill('UAE-000001');
    await form.getByLabel('Amount USD').fill('123.45');
    await form.getByLabel('Memo').fill('console test deposit');
    const preview = page.getByTestId('journal-lines');
    await preview.getByText('UAE-000001').first().waitFor();
    const previewed = (await preview.locator('tbody tr').allTextContents()).join('\n');
    expect(previewed).to.contain('123.45');
    await form.getByRole('button', { name: 'Post' }).click();
    await page.waitForURL(/#\/transactions\/[0-9a-f-]{36}$/);
    const txnId = page.url().split('/').pop()!;
    expect(await page.locator('h2').textContent()).to.match(/^deposit of 123\.45/);
    expect((await page.getByTestId('journal-lines').locator('tbody tr').allTextContents()).join('\n')).to.equal(
      previewed,
    );

    await page.getByRole('button', { name: 'Reverse…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm reversal' });
    expect(await dialog.textContent()).to.match(/a reversal of the deposit of 123\.45(0*) USD for UAE-000001/);
    await dialog.getByRole('button', { name: 'Post the reversal' }).click();
    await page.waitForURL((url) => /#\/transactions\/[0-9a-f-]{36}$/.test(url.hash) && !url.hash.endsWith(txnId));
    await page.getByText('Reverses').waitFor();
    const original = await uae.api.get<{ reversed_by_txn_id: string | null }>(`/v1/transactions/${txnId}`);
    expect(original.reversed_by_txn_id).to.equal(page.url().split('/').pop());
  });

  it('starts a job from the form its schema gives and shows its progress reach done', async function () {
    await go(uae, 'jobs');
    await page.getByRole('form', { name: 'Start a job' }).getByRole('combobox').first().selectOption('recost');
    await page.getByRole('button', { name: 'Start recost' }).click();
    const row = page.getByTestId('job-recost');
    await row.getByText('done').waitFor();
    expect(await row.locator('progress').getAttribute('value')).to.equal(
      await row.locator('progress').getAttribute('max'),
    );
  });

  it('finds a customer and shows their summary, portfolio, statement, equity curve, trial balance, dividends and orders', async function () {
    await go(uae, 'customers');
    await page.getByLabel('Search').fill('UAE-000001');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByTestId('customers').getByRole('link', { name: 'UAE-000001' }).click();
    await page.getByTestId('customer-cards').waitFor();
    const overview = await uae.api.get<{ summary: { total_usd: string } }>('/v1/customers/UAE-000001/overview');
    expect(await page.getByTestId('customer-cards').textContent()).to.contain(
      `Total (USD)${money(overview.summary.total_usd)}`,
    );
    await page.getByTestId('portfolio').locator('tbody tr').first().waitFor();
    await page.getByTestId('statement').getByText('Opening balance').waitFor();
    await page.getByTestId('orders').locator('tbody tr').first().waitFor();
    await page.getByTestId('dividends').waitFor();
    await page.locator('.chart canvas').first().waitFor();
  });

  it('opens the latest reconciliation run and follows the planted variance to its customer', async function () {
    // The newest run with variances: the recon process may have run a category without them since.
    const { items } = await uae.api.get<{ items: { run_id: string; variance_count: number }[] }>(
      '/v1/reconciliation/runs?limit=50',
    );
    const run = items.find((r) => r.variance_count > 0)!;
    await go(uae, 'reconciliation');
    await page.getByTestId('runs').locator(`a[href$="${run.run_id}"]`).click();
    await page.getByTestId('checks').waitFor();
    await page.getByTestId('variances').getByRole('link', { name: 'UAE-000007' }).first().click();
    await page.waitForURL(/#\/customers\/UAE-000007$/);
    await page.getByTestId('customer-cards').waitFor();
  });

  const cashRequests = () => page.getByTestId('cash-requests').locator('tbody tr');

  it('makes a cash request and finds it among the pending ones', async function () {
    await go(uae, 'cash-requests');
    await page.getByText('New cash request').click();
    const form = page.getByRole('form', { name: 'New cash request' });
    await form.getByLabel('Customer').fill('UAE-000002');
    await form.getByLabel('Amount').fill('40.00');
    await form.getByLabel('Reference').fill('console-wire-1');
    await form.getByRole('button', { name: 'Make the request' }).click();
    await cashRequests().filter({ hasText: 'console-wire-1' }).waitFor();
    await page.getByRole('form', { name: 'Filters' }).getByLabel('Status').selectOption('pending');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/status=pending/);
    await cashRequests().filter({ hasText: 'console-wire-1' }).waitFor();
    const statuses = await cashRequests().locator('td:nth-child(6) .status').allTextContents();
    expect(new Set(statuses)).to.deep.equal(new Set(['pending']));
  });

  it('confirms a pending cash request after a confirmation naming what it posts, and links the posted transaction', async function () {
    await cashRequests()
      .filter({ hasText: 'console-wire-1' })
      .getByRole('button', { name: /^Confirm the deposit/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Confirm cash request' });
    expect(await dialog.textContent()).to.match(/This posts the deposit of 40(\.0+)? USD for UAE-000002 today/);
    await dialog.getByRole('button', { name: 'Post and mark completed' }).click();
    await dialog.waitFor({ state: 'detached' });
    await go(uae, 'cash-requests?status=completed');
    const row = cashRequests().filter({ hasText: 'console-wire-1' });
    await row.getByRole('link', { name: 'transaction' }).click();
    await page.waitForURL(/#\/transactions\/[0-9a-f-]{36}$/);
    const { items } = await uae.api.get<{ items: { reference: string | null; txn_id: string | null }[] }>(
      '/v1/cash-requests?customer_id=UAE-000002&status=completed&limit=500',
    );
    expect(page.url().split('/').pop()).to.equal(items.find((r) => r.reference === 'console-wire-1')!.txn_id);
  });

  it('a cash request’s confirmation starts on Back, and Escape closes it changing nothing', async function () {
    await uae.api.post('/v1/cash-requests', {
      customer_id: 'UAE-000003',
      direction: 'deposit',
      amount: '15.00',
      currency: 'USD',
      reference: 'console-wire-2',
    });
    await go(uae, 'cash-requests?customer_id=UAE-000003');
    const row = cashRequests().filter({ hasText: 'console-wire-2' });
    await row.getByRole('button', { name: /^Cancel the deposit/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel cash request' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Back');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await row.locator('.status').textContent()).to.equal('pending');
  });

  it('fails a pending cash request with a reason, posting nothing', async function () {
    const row = cashRequests().filter({ hasText: 'console-wire-2' });
    await row.getByRole('button', { name: /^Fail the deposit/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Fail cash request' });
    expect(await dialog.textContent()).to.contain('nothing is posted');
    await dialog.getByLabel('Reason (optional)').fill('the bank returned it');
    await dialog.getByRole('button', { name: 'Mark failed' }).click();
    await row.getByText('the bank returned it').waitFor();
    expect(await row.locator('.status').textContent()).to.equal('failed');
    expect(await row.getByRole('button').count()).to.equal(0);
    expect(await row.getByRole('link', { name: 'transaction' }).count()).to.equal(0);
  });

  it('lists the book’s job runs from its database and filters them by job', async function () {
    await go(uae, 'jobs');
    const runs = page.getByTestId('job-runs').locator('tbody tr');
    await runs.first().waitFor();
    const { total } = await uae.api.get<{ total: number }>('/v1/jobs');
    expect(await page.locator('.pager').last().textContent()).to.contain(`of ${total}`);
    expect(await runs.locator('td:nth-child(2)').allTextContents()).to.include.members(['provision-uae', 'recost']);
    const filters = page.getByRole('form', { name: 'Job run filters' });
    await filters.getByLabel('Job').selectOption('recost');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/kind=recost/);
    // Some rows, every one a recost: an empty table while the filtered page loads is not the answer.
    await page.waitForFunction(() => {
      const kinds = [...document.querySelectorAll('[data-testid="job-runs"] tbody td:nth-child(2)')];
      return kinds.length > 0 && kinds.every((cell) => cell.textContent === 'recost');
    });
    expect(await runs.locator('td:nth-child(3)').allTextContents()).to.include('done');
  });

  it('says on the UAE book that the India reports answer there zero-valued', async function () {
    await go(uae, 'india');
    expect(await page.getByTestId('book-note').textContent()).to.contain('zero-valued');
    await page.getByTestId('india-reports').locator('tbody tr').first().waitFor();
  });

  it('the keyboard reaches the skip link first, and it and the navigation move focus to the page', async function () {
    await go(uae, 'firm');
    await page.reload();
    await page.locator('main h1').waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).to.equal('content');
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Jobs' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/jobs$/);
    await page.waitForFunction(() => document.activeElement?.id === 'content');
  });

  it('every main page has one h1, a name for every control, scoped table headers and no serious axe violations', async function () {
    for (const hash of MAIN_PAGES) {
      await go(uae, hash);
      await page.locator('main h1').waitFor();
      await page.waitForFunction(() => !document.querySelector('main')!.textContent!.includes('Loading…'));
      if ((await page.evaluate(() => typeof (window as { axe?: unknown }).axe)) === 'undefined')
        await page.evaluate(AXE);
      const found = await page.evaluate(async () => {
        const { axe } = window as unknown as {
          axe: {
            run: (
              context: never,
              options: object,
            ) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
          };
        };
        // Rows of a table are alike: its first three stand for the rest (axe's time grows with the page).
        const { violations } = await axe.run({ exclude: [['tbody tr:nth-child(n+4)']] } as never, {
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
          resultTypes: ['violations'],
          preload: false,
        });
        const controls = [...document.querySelectorAll<HTMLInputElement>('input, select, textarea')];
        return {
          h1: document.querySelectorAll('h1').length,
          unnamed: controls
            .filter(
              (c) => c.labels?.length === 0 && !c.getAttribute('aria-label') && !c.getAttribute('aria-labelledby'),
            )
            .map((c) => c.outerHTML),
          unscoped: document.querySelectorAll('thead th:not([scope])').length,
          serious: violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        };
      });
      expect(found, hash).to.deep.equal({ h1: 1, unnamed: [], unscoped: 0, serious: [] });
    }
  });

  it('shows the India book on its own console', async function () {
    await signIn(india, false);
    await page.locator('header').getByText('India book').waitFor();
    expect(
      await page.locator('header').getByRole('link', { name: 'Other book’s console' }).getAttribute('href'),
    ).to.equal(`${uae.url}/console/`);
    await page.getByTestId('firm-cards').waitFor();
    await go(india, 'transactions');
    await page.getByTestId('transactions').locator('tbody tr').first().waitFor();
  });

  it('lists the sixteen India reports with their parameters and shows one as readable tables', async function () {
    await go(india, 'india');
    const rows = page.getByTestId('india-reports').locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).to.equal(16);
    expect(await page.getByTestId('book-note').count()).to.equal(0);
    expect(await rows.filter({ hasText: 'GET /v1/india/schedule-fa' }).textContent()).to.contain('fy (required)');
    await rows.filter({ hasText: 'GET /v1/india/lrs' }).getByRole('link').click();
    await page.waitForURL(/#\/india\/lrs$/);
    const lrs = await india.api.get<{ fy: string; pans: unknown[] }>('/v1/india/lrs');
    const report = page.getByTestId('report');
    await report.locator('dl').first().waitFor();
    expect(await report.locator('dt', { hasText: /^fy$/ }).locator('+ dd').textContent()).to.equal(lrs.fy);
    if (lrs.pans.length > 0)
      expect(await report.locator('table', { hasText: 'pans' }).first().locator('tbody tr').count()).to.equal(
        lrs.pans.length,
      );
  });

  it('shows a customer’s India views on the customer page, the ledger against the live broker first, and links their India reports', async function () {
    const { items } = await india.api.get<{ items: { customer_id: string }[] }>('/v1/customers?limit=1');
    const id = items[0]!.customer_id;
    await go(india, `customers/${id}`);
    const views = page.getByRole('region', { name: 'India' });
    await views.getByTestId('report').waitFor();
    const recon = await india.api.get<{ status: string }>(`/v1/customers/${id}/ledger-recon`);
    expect(
      await views
        .getByTestId('report')
        .locator('dt', { hasText: /^status$/ })
        .locator('+ dd')
        .textContent(),
    ).to.equal(recon.status);
    expect(await views.getByRole('link', { name: 'capital-gains' }).getAttribute('href')).to.equal(
      `#/india/capital-gains?customer=${encodeURIComponent(id)}`,
    );
  });

  it('sent no request anywhere but the books’ own origins', function () {
    const origins = new Set(requested.map((url) => new URL(url).origin));
    expect([...origins].sort()).to.deep.equal([uae.url, india.url].sort());
  });
});
