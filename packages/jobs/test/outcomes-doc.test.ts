import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { JOB_REASON_CODES, JOBS, RECORD_OUTCOMES, RECORD_REASON_CODES, RESULT_SCHEMAS } from '../src/testing.js';

/*
 * One outcome vocabulary, documented once (docs/outcomes.md): the journal's outcomes and
 * rejection codes are held to the doc by ledger-core's test; the outcomes only batch results
 * answer and the jobs' own reason codes by this one.
 */

const OUTCOMES_DOC = readFileSync(new URL('../../../docs/outcomes.md', import.meta.url), 'utf8');
const rowsNaming = (name: string) => OUTCOMES_DOC.split('\n').filter((line) => line.startsWith(`| \`${name}\` |`));

describe('the outcome vocabulary of every batch result', () => {
  it('documents each outcome and each of the jobs’ reason codes once, in docs/outcomes.md', () => {
    for (const name of [...RECORD_OUTCOMES, ...JOB_REASON_CODES]) expect(rowsNaming(name), name).to.have.length(1);
  });

  it('names no code twice: the jobs’ codes are not the journal’s', () => {
    expect(new Set(RECORD_REASON_CODES).size).to.equal(RECORD_REASON_CODES.length);
  });

  it('declares every job’s result as a schema the api documents by name', () => {
    for (const job of Object.values(JOBS)) expect(RESULT_SCHEMAS.get(job.result)?.id, job.kind).to.be.a('string');
  });
});
