import { readFile } from 'node:fs/promises';

/**
 * Rate files shipped with the package (packages/india/data), by the name the load-fx-rates job
 * takes: a job names one of these, never a path, so it cannot read any other file.
 */
export const SHIPPED_RATE_FILES = { 'sbi-usd-inr-rates': 'sbi-usd-inr-rates.csv' } as const;

export async function shippedRatesCsv(name: keyof typeof SHIPPED_RATE_FILES): Promise<string> {
  // src/ and dist/ are both one level below the package: data/ is beside them.
  return readFile(new URL(`../data/${SHIPPED_RATE_FILES[name]}`, import.meta.url), 'utf8');
}
