import { assert } from './errors.js';
import { Decimal } from './money.js';
import type { JournalLineDraft } from './posting-rules/types.js';

/*
 * Journal lines as one comparable key: two sets of lines are the same facts (account, debit,
 * credit, posting kind; amounts by value) exactly when their keys are equal. The store reads
 * stored lines in this very form (store/columns/journal-lines.ts, linesKeySql), so a re-sent
 * record or a derivation in effect is compared without its lines being parsed.
 *
 * Each line is `account|debit|credit|kind`: amounts in plain notation without trailing zeros
 * ("12.5", "0"), a kind as `<length in code points>:<kind>` (so no character of a kind can be
 * mistaken for a separator), no kind as "". Lines are sorted by code point (Postgres' "C"
 * collation on UTF-8) and joined by ";".
 */

const codePoints = (text: string) => Array.from(text).length;

/**
 * Code point order: what `COLLATE "C"` gives on UTF-8 text. UTF-16 order differs from it only
 * where a surrogate (a code point past U+FFFF) meets a unit from U+E000 up: those are moved.
 */
function byCodePoint(a: string, b: string): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}
const codePointRank = (unit: number) =>
  unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit;

const lineKey = (l: JournalLineDraft) =>
  `${l.accountCode}|${l.debit.toFixed()}|${l.credit.toFixed()}|${l.postingKind === null ? '' : `${codePoints(l.postingKind)}:${l.postingKind}`}`;

/** The key of some lines (see above). */
export function linesKey(lines: readonly JournalLineDraft[]): string {
  return lines.map(lineKey).sort(byCodePoint).join(';');
}

/** The lines a key names (linesKey's inverse, in the key's order). */
export function linesOfKey(key: string): JournalLineDraft[] {
  const lines: JournalLineDraft[] = [];
  let at = 0;
  const field = () => {
    const end = key.indexOf('|', at);
    assert(end >= 0, `a lines key is malformed at ${at}: ${key}`);
    const value = key.slice(at, end);
    at = end + 1;
    return value;
  };
  while (at < key.length) {
    const [accountCode, debit, credit] = [field(), field(), field()];
    let postingKind: string | null = null;
    if (at < key.length && key[at] !== ';') {
      const colon = key.indexOf(':', at);
      assert(colon > at, `a lines key is malformed at ${at}: ${key}`);
      const length = Number(key.slice(at, colon));
      postingKind = Array.from(key.slice(colon + 1))
        .slice(0, length)
        .join('');
      at = colon + 1 + postingKind.length;
    }
    assert(at === key.length || key[at] === ';', `a lines key is malformed at ${at}: ${key}`);
    at += 1;
    lines.push({ accountCode, debit: new Decimal(debit), credit: new Decimal(credit), postingKind });
  }
  return lines;
}
