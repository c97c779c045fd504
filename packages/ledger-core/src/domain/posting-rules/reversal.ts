import type { JournalLineDraft } from './types.js';

/** reversal: every line of the original with debit and credit swapped. */
export function reversingLines(original: JournalLineDraft[]): JournalLineDraft[] {
  return original.map((line) => ({ ...line, debit: line.credit, credit: line.debit }));
}
