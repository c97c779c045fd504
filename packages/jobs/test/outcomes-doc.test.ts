import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import {
  CUSTOMER_FAILURE_CODES,
  JOB_REASON_CODES,
  JOBS,
  RECORD_OUTCOMES,
  RECORD_REASON_CODES,
  RESULT_SCHEMAS,
} from '../src/testing.js';

/*
 * One outcome vocabulary, documented once (docs/outcomes.md): the journal's outcomes and
 * rejection codes are held to the doc by ledger-core's test; the outcomes only batch results
 * answer, the jobs' own reason codes and the customer failure codes by this one.
 */

const OUTCOMES_DOC = readFileSync(new URL('../../../docs/outcomes.md', import.meta.url), 'utf8');
/** The doc's section under `## <title>`, up to the next one. */
const section = (title: string) => OUTCOMES_DOC.split('\n## ').find((part) => part.startsWith(`${title}\n`)) ?? '';
const rowsNaming = (name: string, title: string) =>
  section(title)
    .split('\n')
    .filter((line) => line.startsWith(`| \`${name}\` |`));

describe('the outcome vocabulary of every batch result', () => {
  it('documents each outcome and each of the jobs’ reason codes once, in docs/outcomes.md', () => {
    for (const name of RECORD_OUTCOMES) {
      const rows = [...rowsNaming(name, 'Outcomes'), ...rowsNaming(name, 'Every batch result: one vocabulary')];
      expect(rows, name).to.have.length(1);
    }
    for (const name of JOB_REASON_CODES) expect(rowsNaming(name, "The jobs' reason codes"), name).to.have.length(1);
  });

  it('documents each customer failure code once, in its own table, and no code it does not have', () => {
    for (const name of CUSTOMER_FAILURE_CODES) expect(rowsNaming(name, 'Customer failures'), name).to.have.length(1);
    const documented = section('Customer failures')
      .split('\n')
      .flatMap((line) => /^\| `([a-z_]+)` \|/.exec(line)?.[1] ?? []);
    expect(documented).to.deep.equal([...CUSTOMER_FAILURE_CODES]);
  });

  it('names no code twice: the jobs’ codes are not the journal’s', () => {
    expect(new Set(RECORD_REASON_CODES).size).to.equal(RECORD_REASON_CODES.length);
  });

  it('declares every job’s result as a schema the api documents by name', () => {
    for (const job of Object.values(JOBS)) expect(RESULT_SCHEMAS.get(job.result)?.id, job.kind).to.be.a('string');
  });
});
