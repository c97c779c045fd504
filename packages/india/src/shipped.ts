import { readFile } from 'node:fs/promises';

/**
 * Files shipped with the package (packages/india/data), by the name a load job takes: a job
 * names one of these, never a path, so it cannot read any other file.
 */
export const SHIPPED_RATE_FILES = { 'sbi-usd-inr-rates': 'sbi-usd-inr-rates.csv' } as const;
export const SHIPPED_ISSUER_FILES = { 'us-issuers': 'us-issuers.csv' } as const;
export const SHIPPED_CII_FILES = { 'cost-inflation-index': 'cost-inflation-index.csv' } as const;

// src/ and dist/ are both one level below the package: data/ is beside them.
const shipped = (file: string) => readFile(new URL(`../data/${file}`, import.meta.url), 'utf8');

export const shippedRatesCsv = (name: keyof typeof SHIPPED_RATE_FILES) => shipped(SHIPPED_RATE_FILES[name]);
export const shippedIssuersCsv = (name: keyof typeof SHIPPED_ISSUER_FILES) => shipped(SHIPPED_ISSUER_FILES[name]);
export const shippedCiiCsv = (name: keyof typeof SHIPPED_CII_FILES) => shipped(SHIPPED_CII_FILES[name]);
