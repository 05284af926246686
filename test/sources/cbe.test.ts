import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { utils, write } from '@e965/xlsx';
import { divideDecimals, meanOfDecimals } from '../../src/exact-decimal.js';
import {
  publisher as cbe,
  cbeRequestBody,
  parseCbeForm,
  parseCbeXlsx,
} from '../../src/sources/cbe.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['cbe.yml'];

describe('cbe on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('cbe', {
      recordings: RECORDINGS,
      from: '2026-04-01',
      to: '2026-04-09',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // The page (for its form's token), then one spreadsheet for the window
    assert.deepEqual(run.replay.requests, [
      '/en/economic-research/statistics/cbe-exchange-rates/historical-data',
      '/api/statistics/GetHistoricalData',
    ]);
    // 126 rows: 18 currencies on 7 working days (Sunday to Thursday)
    await assertIngested(run, { stored: 126, symbols: 18 });
    await assertSpots(run, [
      // 09/04/2026 US Dollar buy 53.0734 sell 53.2067; 00:00 in Cairo before the summer
      // time (from 24 April 2026) is 22:00Z the day before
      {
        date: '2026-04-09',
        base: 'USD',
        symbol: 'EGP',
        rate: meanOfDecimals('53.0734', '53.2067'),
        decimals: 12,
        observationTime: '2026-04-08T22:00:00.000Z',
      },
      // 02/04/2026 Japanese Yen 100 buy 34.0006 sell 34.0875; the UTC date 1 April holds it
      {
        date: '2026-04-01',
        base: 'JPY',
        symbol: 'EGP',
        rate: '0.3404405',
        decimals: 12,
        observationTime: '2026-04-01T22:00:00.000Z',
      },
      // 02/04/2026 Kuwaiti Dinar 176.9271/177.4260 against Euro 62.5415/62.7083
      {
        date: '2026-04-01',
        base: 'KWD',
        symbol: 'EUR',
        rate: divideDecimals(
          meanOfDecimals('176.9271', '177.4260'),
          meanOfDecimals('62.5415', '62.7083'),
          10,
        ),
        decimals: 10,
        observationTime: '2026-04-01T22:00:00.000Z',
      },
    ]);
  });
});

describe('cbe parser on inline samples', () => {
  const sheet = (rows: unknown[][]) => {
    const book = utils.book_new();
    utils.book_append_sheet(book, utils.aoa_to_sheet(rows), 'Official Exchange Rates');
    return new Uint8Array(write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
  };
  const header = [[''], ['Date', 'Currency', 'Buy', 'Sell']];

  test('midpoint of buy and sell, per 100 yen; summer time moves the UTC hour', () => {
    const bytes = sheet([
      ...header,
      [46121, 'US Dollar', 53.0734, 53.2067],
      ['15/07/2025', 'Japanese Yen 100', '33.8259', '33.9159'],
    ]);
    assert.deepEqual(observationRows(parseCbeXlsx(bytes, cbe)), [
      ['USD', '2026-04-08T22:00:00.000Z', 1 / 53.14005],
      // Cairo keeps summer time (+03) in July
      ['JPY', '2025-07-14T21:00:00.000Z', 1 / 0.338709],
    ]);
  });

  test('unknown names and missing figures are dropped and counted', () => {
    const result = parseCbeXlsx(
      sheet([...header, [46121, 'Gold Ounce', 1, 2], [46121, 'Euro', 62.0322, '']]),
      cbe,
    );
    assert.equal(result.observations.length, 0);
    assert.equal(result.dropped, 2);
  });

  test('a cut-short file or a sheet of another shape is refused', () => {
    const bytes = sheet([...header, [46121, 'US Dollar', 53.0734, 53.2067]]);
    assert.throws(() => parseCbeXlsx(bytes.subarray(0, bytes.length - 200), cbe), /spreadsheet/);
    assert.throws(() => parseCbeXlsx(sheet([['Date', 'Rate']]), cbe), /header row/);
  });

  test('the form: token and hidden fields from the page, dates as dd/mm/yyyy, every option', () => {
    const html =
      '<form class="form" action="/api/statistics/GetHistoricalData" method="post" id="historicalDataForm">' +
      '<input name="__RequestVerificationToken" type="hidden" value="abc-1" />' +
      '<input id="uid" name="uid" type="hidden" value="u" />' +
      '<input name="LanguageName" type="hidden" value="en" />' +
      '<select id="multipleSelectID" name="SelectedSelectOptions" multiple="multiple">' +
      '<option value="US Dollar">US Dollar</option><option value="Japanese Yen 100">Japanese Yen 100</option>' +
      '</select></form>';
    assert.equal(
      cbeRequestBody(parseCbeForm(html), { from: '2026-04-01', to: '2026-04-09' }),
      '__RequestVerificationToken=abc-1&LanguageName=en&FromDateRaw=01%2F04%2F2026&ToDateRaw=09%2F04%2F2026' +
        '&SelectedSelectOptions=US+Dollar&SelectedSelectOptions=Japanese+Yen+100&SubmitAction=2',
    );
    assert.throws(
      () => parseCbeForm('<html><body>Access denied</body></html>'),
      /no historical-data form/,
    );
  });
});
