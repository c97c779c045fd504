// The console in a real Chromium (Debian's, driven by playwright-core) against the quickstart's
// stack: both books' real api, worker and recon processes on the demo data, 8 customers a book.
// Without Chromium (scripts/ensure-services.sh installs it where it can) the suite is pending.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
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

  it('sent no request anywhere but the books’ own origins', function () {
    const origins = new Set(requested.map((url) => new URL(url).origin));
    expect([...origins].sort()).to.deep.equal([uae.url, india.url].sort());
  });
});
