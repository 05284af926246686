import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as mas, masQuery, parseMasCsv, parseMasForm } from '../../src/sources/mas.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['mas.yml'];

describe('mas on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('mas', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-31',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 22 business days of March 2026 x 21 currencies, no blank cells.
    await assertIngested(run, { stored: 462, symbols: 21 });
    assert.deepEqual(run.replay.requests, [
      '/statistics/msb/ExchangeRates.aspx',
      '/statistics/msb/ExchangeRates.aspx',
    ]);
    // Daily figures are as of noon; Singapore has no DST, so noon is 04:00Z.
    await assertSpots(run, [
      // 2026,Mar,02: S$ Per Unit of US Dollar 1.2674
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'SGD',
        rate: '1.2674',
        decimals: 10,
        observationTime: '2026-03-02T04:00:00.000Z',
      },
      // ,,31: S$ Per 100 Units of Japanese Yen 0.8085
      {
        date: '2026-03-31',
        base: 'JPY',
        symbol: 'SGD',
        rate: '0.008085',
        decimals: 12,
        observationTime: '2026-03-31T04:00:00.000Z',
      },
      // ,,31: Euro 1.4811 against US Dollar 1.2913
      {
        date: '2026-03-31',
        base: 'USD',
        symbol: 'EUR',
        rate: divideDecimals('1.2913', '1.4811', 10),
        decimals: 10,
        observationTime: '2026-03-31T04:00:00.000Z',
      },
    ]);
  });
});

describe('mas parser on inline samples', () => {
  const file = (rows: string) =>
    'MAS: Financial Database - Exchange Rates\n\nExchange Rates (Daily)\nDec 2023 to Jan 2024\n\n\n' +
    'End of Period,,,S$ Per Unit of US Dollar,S$ Per 100 Units of Indonesian Rupiah,S$ Per Unit of Gold\n' +
    rows +
    '\n"* Yearly, monthly and weekly figures are end period values."\n' +
    '"* Daily figures are values as of noon."\n';

  test('per 1 or 100 units; year and month carried down; blanks skipped; unknown names dropped', () => {
    const text = file(
      '2023,Dec,29,1.3193,0.008571,\n2024,Jan,02,1.3250,,2700.5\n,,03,1.3301,0.0086,',
    );
    const result = parseMasCsv(text, mas);
    assert.deepEqual(observationRows(result), [
      ['USD', '2023-12-29T04:00:00.000Z', 1 / 1.3193],
      ['IDR', '2023-12-29T04:00:00.000Z', 1 / 0.00008571],
      ['USD', '2024-01-02T04:00:00.000Z', 1 / 1.325],
      ['USD', '2024-01-03T04:00:00.000Z', 1 / 1.3301],
      ['IDR', '2024-01-03T04:00:00.000Z', 1 / 0.000086],
    ]);
    assert.equal(result.dropped, 1);
    assert.match(
      result.dropReasons[0]!,
      /2024-01-02: unknown currency column 'S\$ Per Unit of Gold'/,
    );
  });

  test('cut-short files and other pages fail', () => {
    const text = file('2024,Jan,02,1.3250,0.0086,');
    assert.throws(() => parseMasCsv(text.slice(0, -60), mas), /cut short/);
    assert.throws(
      () => parseMasCsv(text.replace(',0.0086,', ',0.0086'), mas),
      /a row has 5 fields/,
    );
    assert.throws(() => parseMasCsv('Service unavailable\n', mas), /no "End of Period" header/);
  });

  test('the form posted back names its state, the months and every currency', () => {
    const form = parseMasForm(
      '<form><input type="hidden" name="__VIEWSTATE" value="a+b/c=" />' +
        '<input type="hidden" name="__VIEWSTATEGENERATOR" value="C335971F" />' +
        '<input type="hidden" name="__EVENTVALIDATION" value="e/v" />' +
        '<input type="checkbox" name="ctl00$ContentPlaceHolder1$EndOfPeriodPerUnitCheckBoxList$0" ></form>',
    );
    assert.equal(
      masQuery({ from: '2024-01-01', to: '2024-12-31' }, form),
      '__VIEWSTATE=a%2Bb%2Fc%3D&__VIEWSTATEGENERATOR=C335971F&__EVENTVALIDATION=e%2Fv' +
        '&ctl00%24ContentPlaceHolder1%24StartYearDropDownList=2024' +
        '&ctl00%24ContentPlaceHolder1%24EndYearDropDownList=2024' +
        '&ctl00%24ContentPlaceHolder1%24StartMonthDropDownList=1' +
        '&ctl00%24ContentPlaceHolder1%24EndMonthDropDownList=12' +
        '&ctl00%24ContentPlaceHolder1%24FrequencyDropDownList=D' +
        '&ctl00%24ContentPlaceHolder1%24DownloadButton=Download' +
        '&ctl00%24ContentPlaceHolder1%24EndOfPeriodPerUnitCheckBoxList%240=on',
    );
    assert.throws(() => parseMasForm('<html><body>Busy</body></html>'), /no __VIEWSTATE field/);
  });
});
