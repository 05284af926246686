import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  publisher as nbkr,
  nbkrArchiveUrl,
  parseNbkrArchive,
  parseNbkrXml,
} from '../../src/sources/nbkr.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['nbkr_historical.yml', 'nbkr_live.yml'];

describe('nbkr on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('nbkr', {
      recordings: RECORDINGS,
      from: '2005-06-01',
      to: '2005-06-30',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // Archive: USD and EUR, 4 rates each in June 2005; daily.xml: 5 currencies (USD, EUR, CNY,
    // KZT, RUB); weekly.xml: 40 others (BYR, withdrawn in Belarus, is still listed and kept)
    await assertIngested(run, { stored: 53, symbols: 45 });
    assert.equal(run.replay.requests.length, 4);
    await assertSpots(run, [
      // archive 25.06.2005 USD 40,9614 KGS; 00:00 Bishkek (then UTC+6 in summer) is 18:00Z
      {
        date: '2005-06-25',
        base: 'USD',
        symbol: 'KGS',
        rate: '40.9614',
        decimals: 12,
        observationTime: '2005-06-24T18:00:00.000Z',
      },
      // EUR 49,4425 and USD 40,9614 KGS: USD per EUR is their ratio
      {
        date: '2005-06-25',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.207051028529',
        decimals: 12,
        observationTime: '2005-06-24T18:00:00.000Z',
      },
      // daily.xml of 24.05.2026: USD 87,4500 KGS; 00:00 Bishkek (UTC+6) is 18:00Z the day before
      {
        date: '2026-05-24',
        base: 'USD',
        symbol: 'KGS',
        rate: '87.45',
        decimals: 12,
        observationTime: '2026-05-23T18:00:00.000Z',
      },
      // weekly.xml of 23.05.2026: JPY nominal 10 at 5,4969 KGS
      {
        date: '2026-05-23',
        base: 'JPY',
        symbol: 'KGS',
        rate: '0.54969',
        decimals: 12,
        observationTime: '2026-05-22T18:00:00.000Z',
      },
    ]);
  });
});

describe('nbkr parsers on inline samples', () => {
  test('XML: decimal commas, Nominal moves the decimal point, missing Nominal is 1', () => {
    const extraction = parseNbkrXml(
      '<?xml version="1.0" encoding="windows-1251" ?>\n' +
        '<CurrencyRates Name="Weekly Exchange Rates" Date="10.01.2026">\n' +
        '<Currency ISOCode="IDR"><Nominal>10</Nominal><ValidFor>7</ValidFor><Value>0,0494</Value></Currency>\n' +
        '<Currency ISOCode="USD"><Value>87,45</Value></Currency>\n' +
        '<Currency ISOCode="EUR"><Nominal>1</Nominal><Value></Value></Currency>\n' +
        '</CurrencyRates>\n',
      nbkr,
    );
    assert.deepEqual(observationRows(extraction), [
      ['IDR', '2026-01-09T18:00:00.000Z', 1 / 0.00494],
      ['USD', '2026-01-09T18:00:00.000Z', 1 / 87.45],
    ]);
    assert.equal(extraction.dropped, 1);
  });

  test('archive table: rows marked by comments; unmarked rows dropped; cut short refused', () => {
    const table =
      '<table><tr><td><!--date-->02.07.2005<!--date--></td><td><!--value-->41,1<!--value--></td></tr>' +
      '<tr><td>no data</td></tr></table>';
    const extraction = parseNbkrArchive(table, 'USD', nbkr);
    assert.deepEqual(observationRows(extraction), [['USD', '2005-07-01T18:00:00.000Z', 1 / 41.1]]);
    assert.equal(extraction.dropped, 1);
    assert.throws(() => parseNbkrArchive(table.slice(0, -10), 'USD', nbkr), /cut short/);
    assert.throws(
      () => parseNbkrArchive('<!DOCTYPE html><html><body>Error</body></html>', 'USD', nbkr),
      /archive table/,
    );
    assert.throws(() => parseNbkrXml('<CurrencyRates Date="10.01.2026">', nbkr), /cut short/);
  });

  test('the archive is asked for one currency and one window', () => {
    assert.equal(
      nbkrArchiveUrl(15, { from: '2005-06-01', to: '2005-06-30' }),
      'https://www.nbkr.kg/index1.jsp?beg_day=01&beg_month=06&beg_year=2005&end_day=30&end_month=06&end_year=2005&item=1562&lang=ENG&valuta_id=15',
    );
  });
});
