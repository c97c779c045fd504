import { LedgerError } from '@ledger/core/posting';
import { expect } from 'chai';
import { parseIssuers } from '../src/index.js';

const HEADER = 'symbol,entity_name,address,zip_code,country,nature_of_entity,instrument_type';
const US = 'United States of America';

describe('the issuers file', () => {
  it('takes quoted fields with commas; a symbol named again: the later line stands, the earlier is named', () => {
    const { issuers, skipped } = parseIssuers(
      [
        HEADER,
        `AMZN,"Amazon.com, Inc.","410 Terry Avenue North, Seattle, Washington",98109-5210,${US},Company,share`,
        `AAPL,Apple Inc,"Cupertino, California",95014,${US},Company,share`,
        `AAPL,Apple Inc.,"One Apple Park Way, Cupertino, California",95014,${US},Company,share`,
      ].join('\n'),
    );
    expect(issuers).to.deep.equal([
      {
        symbol: 'AMZN',
        entityName: 'Amazon.com, Inc.',
        address: '410 Terry Avenue North, Seattle, Washington',
        zipCode: '98109-5210',
        country: US,
        natureOfEntity: 'Company',
        instrumentType: 'share',
      },
      {
        symbol: 'AAPL',
        entityName: 'Apple Inc.',
        address: 'One Apple Park Way, Cupertino, California',
        zipCode: '95014',
        country: US,
        natureOfEntity: 'Company',
        instrumentType: 'share',
      },
    ]);
    expect(skipped).to.deep.equal([{ line: 3, symbol: 'AAPL', reason: 'superseded_in_file' }]);
  });

  it('skips and names a line with a bad symbol, an empty field or one too long; columns in any order', () => {
    const { issuers, skipped } = parseIssuers(
      [
        'entity_name,symbol,address,zip_code,country,nature_of_entity,instrument_type',
        `Lower Case Inc.,lower,Somewhere,1,${US},Company,share`,
        `No Address Inc.,NOADDR,,1,${US},Company,share`,
        `Long Zip Inc.,LONGZIP,Somewhere,${'9'.repeat(21)},${US},Company,share`,
        `Fine Inc.,FINE,Somewhere,1,${US},Company,share`,
        `Bond Fund,BONDF,Somewhere,1,${US},Trust,bond`,
      ].join('\n'),
    );
    expect(issuers.map((i) => i.symbol)).to.deep.equal(['FINE']);
    expect(skipped).to.deep.equal([
      { line: 2, symbol: 'lower', reason: 'bad_symbol' },
      { line: 3, symbol: 'NOADDR', reason: 'missing_address' },
      { line: 4, symbol: 'LONGZIP', reason: 'too_long_zip_code' },
      { line: 6, symbol: 'BONDF', reason: 'bad_instrument_type' },
    ]);
  });

  it('refuses the whole file when the header lacks a column (rows or none), or it is not CSV: a validation error', () => {
    const refused = (csv: string) => {
      try {
        parseIssuers(csv);
      } catch (error) {
        expect(error).to.be.instanceOf(LedgerError);
        return (error as LedgerError).message;
      }
      throw new Error('not refused');
    };
    expect(
      refused(
        `symbol,entity_name,address,country,nature_of_entity,instrument_type\nAAPL,Apple Inc.,x,${US},Company,share`,
      ),
    ).to.equal('the issuers file lacks the column(s) zip_code');
    expect(refused('symbol,entity_name\n')).to.equal(
      'the issuers file lacks the column(s) address, zip_code, country, nature_of_entity, instrument_type',
    );
    expect(refused(`${HEADER}\nAAPL,"Apple Inc.,x,1,${US},Company,share`)).to.match(
      /^the issuers file is not valid CSV/,
    );
  });
});
