import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The docs (README.md, docs/**) name files and code of the repository; a rename or removal must
 * take the docs with it. Checked: every backticked repository path (`packages/…`, `apps/…`,
 * `docs/…`, …), every link to a local file, and every backticked `Class.member` whose class is
 * ours. Built output (`dist/`, what git ignores, e.g. test screenshots) and placeholders
 * (`<book>`, `*`) are not paths to check.
 */

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const TOP_LEVEL = ['packages', 'apps', 'docs', 'scripts', 'infra', 'bench', 'patches'];

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'dist' ? [] : filesUnder(path, keep);
    return keep(path) ? [path] : [];
  });
}

const DOCS = [join(ROOT, 'README.md'), ...filesUnder(join(ROOT, 'docs'), (path) => path.endsWith('.md'))];
/** The source the docs' symbols are looked up in: every package's and app's src/. */
const SOURCES = ['packages', 'apps'].flatMap((top) =>
  readdirSync(join(ROOT, top))
    .map((name) => join(ROOT, top, name, 'src'))
    .filter((src) => existsSync(src))
    .flatMap((src) => filesUnder(src, (path) => /\.tsx?$/.test(path)))
    .map((path) => readFileSync(path, 'utf8')),
);

/** The backticked spans of a page, fenced blocks left out (commands and examples, not references). */
function codeSpans(text: string): string[] {
  const prose = text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
}

/** A span that is one repository path: a known top-level folder first, no placeholder, not built output. */
function pathOf(span: string): string | null {
  const path = span.replace(/[#:].*$/, '').replace(/\/$/, '');
  if (!TOP_LEVEL.some((top) => path.startsWith(`${top}/`))) return null;
  if (!/^[\w./@-]+$/.test(path) || /(^|\/)(dist|node_modules)(\/|$)/.test(path)) return null;
  return path;
}

/** Whether git ignores `path` (output a run makes, absent from a checkout). */
function ignored(path: string): boolean {
  try {
    // As a file or a folder: a folder's pattern (`test-results/`) matches only the latter.
    execFileSync('git', ['check-ignore', path, `${path}/`], { cwd: ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const relativeLinks = (text: string): string[] =>
  [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^([a-z]+:|#)/i.test(target))
    .map((target) => decodeURIComponent(target.replace(/#.*$/, '')));

/** `Class.member` of a class, interface or object the source declares: the member must be in that file. */
function missingMember(span: string): string | null {
  const match = /^([A-Z][A-Za-z0-9]*)\.([a-z][A-Za-z0-9]*)(\(\))?$/.exec(span);
  if (!match) return null;
  const [, owner, member] = match as unknown as [string, string, string];
  if (owner in globalThis) return null;
  const declaring = SOURCES.filter((source) =>
    new RegExp(`\\b(class|interface|enum|namespace|const|type)\\s+${owner}\\b`).test(source),
  );
  const named = SOURCES.some((source) => new RegExp(`\\b${owner}\\b`).test(source));
  // A name the source never mentions is gone; one it imports from a library is not ours to check.
  if (!named) return `${span}: no ${owner} in the source`;
  if (declaring.length === 0) return null;
  return declaring.some((source) => new RegExp(`\\b${member}\\b`).test(source))
    ? null
    : `${span}: ${owner} has no ${member}`;
}

describe('the docs name what exists', () => {
  it('reads the README and every page of docs/', () => {
    expect(DOCS.map((path) => relative(ROOT, path))).to.include.members(['README.md', 'docs/architecture.md']);
  });

  it('every backticked repository path and every link to a local file exists', () => {
    const missing = DOCS.flatMap((doc) => {
      const text = readFileSync(doc, 'utf8');
      const paths = codeSpans(text)
        .map(pathOf)
        .filter((path) => path !== null)
        .filter((path) => !existsSync(join(ROOT, path)) && !ignored(path));
      const links = relativeLinks(text).filter((target) => !existsSync(resolve(dirname(doc), target)));
      return [...paths, ...links].map((path) => `${relative(ROOT, doc)}: ${path}`);
    });
    expect(missing).to.deep.equal([]);
  });

  it('docs/architecture.md names every package and app', () => {
    const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const all = ['packages', 'apps'].flatMap((top) =>
      readdirSync(join(ROOT, top), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, top, entry.name, 'package.json')))
        .map((entry) => `${top}/${entry.name}`),
    );
    expect(all).to.include.members(['packages/ledger-core', 'apps/api']);
    expect(all.filter((path) => !page.includes(`\`${path}\``))).to.deep.equal([]);
  });

  it('every backticked Class.member of the source exists', () => {
    const missing = DOCS.flatMap((doc) =>
      codeSpans(readFileSync(doc, 'utf8'))
        .map(missingMember)
        .filter((problem) => problem !== null)
        .map((problem) => `${relative(ROOT, doc)}: ${problem}`),
    );
    expect(missing).to.deep.equal([]);
  });

  it('its checks find what is gone (a check that cannot fail checks nothing)', () => {
    expect(pathOf('packages/jobs/test/faults.test.ts')).to.equal('packages/jobs/test/faults.test.ts');
    expect(existsSync(join(ROOT, 'packages/jobs/test/faults.test.ts'))).to.equal(false);
    expect(pathOf('packages/ledger-core/src/domain/dates.ts#L1')).to.equal('packages/ledger-core/src/domain/dates.ts');
    expect(pathOf('ledger_<book>_<checkout id>')).to.equal(null);
    expect(pathOf('packages/sandbox/dist/cli.js')).to.equal(null);
    expect(ignored('apps/console/test-results')).to.equal(true);
    expect(ignored('packages/jobs/test/faults.test.ts')).to.equal(false);
    expect(missingMember('CustomerBatch.post')).to.equal('CustomerBatch.post: no CustomerBatch in the source');
    expect(missingMember('PostingRun.postAll')).to.equal(null);
    expect(missingMember('PostingRun.postEverything')).to.equal(
      'PostingRun.postEverything: PostingRun has no postEverything',
    );
    expect(missingMember('Date.now')).to.equal(null);
    expect(statSync(join(ROOT, 'docs')).isDirectory()).to.equal(true);
  });
});
