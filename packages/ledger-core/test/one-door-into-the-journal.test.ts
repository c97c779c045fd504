import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Every write of journal lines goes through one door (ADR 0015): store/posting.ts's writeJournal,
 * the only caller of the statement that writes transactions and their lines (insertDrafts,
 * private to that module). Checked on the source of every package and app.
 */

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const POSTING = 'packages/ledger-core/src/store/posting.ts';

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourcesUnder(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Each source file of packages/*\/src and apps/*\/src, by its path from the repository's root. */
const SOURCES = new Map(
  ['packages', 'apps']
    .flatMap((top) => readdirSync(join(ROOT, top)).map((name) => join(ROOT, top, name, 'src')))
    .filter((src) => existsSync(src))
    .flatMap(sourcesUnder)
    .map((path) => [relative(ROOT, path), readFileSync(path, 'utf8')] as const),
);

/** Where `pattern` matches, as `path:line`. */
function occurrences(pattern: RegExp): string[] {
  return [...SOURCES].flatMap(([path, text]) =>
    text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${path}:${i + 1}`] : [])),
  );
}

describe('one door into the journal', function () {
  it('reads the source of the packages and apps', () => {
    expect(SOURCES.has(POSTING)).to.equal(true);
    expect(SOURCES.size).to.be.greaterThan(100);
  });

  it('calls insertDrafts from exactly one place, writeJournal in store/posting.ts', () => {
    const calls = occurrences(/(?<!function )\binsertDrafts\(/);
    expect(calls).to.have.length(1);
    expect(calls[0]).to.match(new RegExp(`^${POSTING}:`));
    const text = SOURCES.get(POSTING)!;
    const writeJournal = text.slice(text.indexOf('export async function writeJournal('));
    expect(writeJournal).to.match(/\binsertDrafts\(/);
  });

  it('keeps insertDrafts private to store/posting.ts', () => {
    expect(occurrences(/export[^\n]*\binsertDrafts\b/)).to.deep.equal([]);
    expect(occurrences(/\binsertDrafts\b/).every((at) => at.startsWith(`${POSTING}:`))).to.equal(true);
  });

  it('writes transactions and journal lines in store/posting.ts only (migrations aside)', () => {
    const inserts = occurrences(/INSERT INTO (journal_lines|transactions)\b/i).filter(
      (at) => !at.startsWith('packages/ledger-core/src/migrations/'),
    );
    expect(inserts.map((at) => at.split(':')[0])).to.deep.equal([POSTING, POSTING]);
  });
});
