import { readFileSync } from 'node:fs';
import { ENTERABLE_TXN_TYPES } from '@ledger/core/posting';
import { expect } from 'chai';
import { ENTRY_EXAMPLES } from '../src/features/transactions/examples.js';
import { apiDocument } from '../src/openapi/index.js';
import { startApi, type TestApi } from './support.js';

const POSTING_RULES_DOC = new URL('../../../docs/posting-rules.md', import.meta.url);

/** A journal line as the doc's tables show it and as the API answers it (its AED amount: null on a USD line). */
type Line = [accountCode: string, debit: string, credit: string, postingKind: string | null, aed: string | null];

interface DocExample {
  /** The `### heading` the example sits under. */
  section: string;
  /** The request body (a ```json block with a `txn_type`); null for a table without one (the reversal). */
  request: Record<string, unknown> | null;
  /** The table after the block. */
  lines: Line[];
}

const TABLE_HEADER = ['account', 'debit', 'credit', 'posting_kind'];
/** An AED example's table: each line's AED amount beside its USD (empty on a USD line). */
const AED_TABLE_HEADER = ['account', 'debit', 'credit', 'AED', 'posting_kind'];

const cells = (row: string): string[] =>
  row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());

/**
 * One table row: `| 1100 Omnibus cash | 100.00 | | deposit |` → ['1100', '100.00', '0.00', 'deposit', null];
 * with an AED column, `| 2020 Customer wallet (AED) | | 100.00 | 367.25 | deposit |` → [..., '367.25'].
 */
function tableLine(row: string, withAed: boolean): Line {
  const columns = cells(row);
  const [account = '', debit = '', credit = '', aed = '', postingKind = ''] = withAed
    ? columns
    : [columns[0], columns[1], columns[2], '', columns[3]];
  const code = /^(\d{4})\b/.exec(account)?.[1];
  if (code === undefined) throw new Error(`no account code in table row: ${row}`);
  return [
    code,
    debit === '' ? '0.00' : debit,
    credit === '' ? '0.00' : credit,
    postingKind === '' ? null : postingKind,
    aed === '' ? null : aed,
  ];
}

/**
 * The worked examples of docs/posting-rules.md: every ```json block with a `txn_type` and the
 * journal-line table that follows it (before the next block or heading), and the tables that
 * follow no request block (the reversal). A request block without its table fails here.
 */
function documentedExamples(markdown: string): DocExample[] {
  const rows = markdown.split('\n');
  const start = rows.findIndex((r) => r.trim() === '## Worked examples');
  if (start === -1) throw new Error('docs/posting-rules.md has no "## Worked examples" section');
  const examples: DocExample[] = [];
  let section = '';
  let pending: { section: string; request: Record<string, unknown> } | null = null;
  const missingTable = () => {
    if (pending) throw new Error(`the request block under "${pending.section}" is not followed by its table of lines`);
  };
  for (let i = start + 1; i < rows.length; i++) {
    const row = rows[i] ?? '';
    if (/^#{1,3} /.test(row)) {
      missingTable();
      section = row.replace(/^#+ /, '').trim();
    } else if (row.trim() === '```json') {
      missingTable();
      const body: string[] = [];
      for (i++; i < rows.length && rows[i]?.trim() !== '```'; i++) body.push(rows[i] ?? '');
      const parsed = JSON.parse(body.join('\n')) as Record<string, unknown>;
      if ('txn_type' in parsed) pending = { section, request: parsed };
    } else if (row.trim().startsWith('|')) {
      const header = cells(row);
      const table: string[] = [];
      for (i += 2; i < rows.length && rows[i]?.trim().startsWith('|'); i++) table.push(rows[i] ?? '');
      i--;
      const withAed = header.join() === AED_TABLE_HEADER.join();
      if (!withAed && header.join() !== TABLE_HEADER.join()) continue;
      examples.push({ section, request: pending?.request ?? null, lines: table.map((r) => tableLine(r, withAed)) });
      pending = null;
    }
  }
  missingTable();
  return examples;
}

/** `[account_code, debit, credit, posting_kind, native_amount]` of each journal line of an answer, in order. */
const linesOf = (journalLines: Array<Record<string, string | null>>): Line[] =>
  journalLines.map((l) => [
    l.account_code ?? '',
    l.debit ?? '',
    l.credit ?? '',
    l.posting_kind ?? null,
    l.native_amount ?? null,
  ]);

// A page that does not parse fails a test below (thrown here, mocha would hide the message).
let docExamples: DocExample[] = [];
let docParseError: unknown = null;
try {
  docExamples = documentedExamples(readFileSync(POSTING_RULES_DOC, 'utf8'));
} catch (error) {
  docParseError = error;
}
const requestExamples = docExamples.filter((e) => e.request !== null);

/**
 * Test name of a request example: its section, and when the section has several, the currency
 * (`deposit (AED)`) or, if that does not tell them apart, the example's number.
 */
function docExampleName(example: DocExample): string {
  const inSection = requestExamples.filter((e) => e.section === example.section);
  const currency = (e: DocExample) => String(e.request?.original_currency ?? 'USD');
  const byCurrency = new Set(inSection.map(currency)).size === inSection.length;
  const variant =
    inSection.length === 1
      ? ''
      : byCurrency
        ? ` (${currency(example)})`
        : ` (example ${inSection.indexOf(example) + 1} of ${inSection.length})`;
  return `${example.section}${variant}: 201, and the lines posted are the table’s`;
}

describe('documented examples', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
    expect((await api.put('/v1/customers/C-1', { name: 'First Customer' })).status).to.equal(201);
  });
  after(async () => {
    await api.close();
  });

  describe('docs/posting-rules.md: every request body posts the lines of the table after it', () => {
    it('parses: every request block is valid JSON followed by its table of lines', () => {
      if (docParseError) throw docParseError;
      expect(requestExamples).to.have.length.above(0);
    });

    it('has a worked example for every enterable txn_type', () => {
      const documented = new Set(requestExamples.map((e) => e.request?.txn_type));
      expect(ENTERABLE_TXN_TYPES.filter((t) => !documented.has(t))).to.deep.equal([]);
    });

    for (const example of requestExamples) {
      it(docExampleName(example), async () => {
        const reply = await api.post('/v1/transactions', example.request);
        expect(reply.status, reply.text).to.equal(201);
        expect(linesOf(reply.body.journal_lines)).to.deep.equal(example.lines);
      });
    }

    it('reversal: reversing the first deposit posts the lines of its table', async () => {
      const firstDeposit = requestExamples.find((e) => e.request?.txn_type === 'deposit');
      const reversal = docExamples.filter((e) => e.section === 'reversal');
      expect(reversal, 'one table under "reversal"').to.have.length(1);
      const posted = await api.post('/v1/transactions', firstDeposit?.request);
      expect(posted.status, posted.text).to.equal(201);
      const reply = await api.post(`/v1/transactions/${posted.body.txn_id}/reverse`, { txn_date: '2026-01-16' });
      expect(reply.status, reply.text).to.equal(201);
      expect(linesOf(reply.body.journal_lines)).to.deep.equal(reversal[0]?.lines);
    });
  });

  describe('OpenAPI: the named examples of the entry request body', () => {
    it('are on postTransaction and previewTransaction, one for every enterable txn_type', () => {
      const post = apiDocument.paths['/v1/transactions']?.post?.requestBody?.content['application/json'];
      const preview = apiDocument.paths['/v1/transactions/preview']?.post?.requestBody?.content['application/json'];
      for (const media of [post, preview]) expect(media).to.have.property('examples', ENTRY_EXAMPLES);
      const types = new Set(Object.values(ENTRY_EXAMPLES).map((e) => e.value.txn_type));
      expect(ENTERABLE_TXN_TYPES.filter((t) => !types.has(t))).to.deep.equal([]);
      for (const t of ENTERABLE_TXN_TYPES) expect(ENTRY_EXAMPLES[t]?.value.txn_type, t).to.equal(t);
    });

    for (const [name, example] of Object.entries(ENTRY_EXAMPLES)) {
      it(`${name}: preview answers 200 and posting 201 with the same lines`, async () => {
        const preview = await api.post('/v1/transactions/preview', example.value);
        expect(preview.status, preview.text).to.equal(200);
        const reply = await api.post('/v1/transactions', example.value);
        expect(reply.status, reply.text).to.equal(201);
        expect(reply.body).to.include({ txn_type: example.value.txn_type, source_txn_id: example.value.source_txn_id });
        expect(linesOf(reply.body.journal_lines)).to.deep.equal(linesOf(preview.body.journal_lines));
      });
    }
  });
});
