import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { utils, write } from '@e965/xlsx';
import { divideDecimals, meanOfDecimals } from '../../src/exact-decimal.js';
import { publisher as cbi, cbiWorkbookUrl, parseCbiWorkbook } from '../../src/sources/cbi.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['cbi.yml'];

describe('cbi on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('cbi', {
      recordings: RECORDINGS,
      from: '2026-02-01',
      to: '2026-02-26',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    assert.deepEqual(run.replay.requests, [
      '/page/144',
      '/static/uploads/up/file-177909880482668.xlsx',
    ]);
    // Only the 2024 (January) and 2026 (January, February) sheets hold figures: 985 buy/sell
    // pairs of 18 currencies (QAR's columns are empty). Dropped: 60 gold prices (not stored),
    // on 1 January 2024 a CAD cell holding the holiday's name and an AED selling rate without
    // its buying rate, and SDR on 18 February 2026, buying 1790.711 above selling 180.486.
    await assertIngested(run, { stored: 985, symbols: 18, dropped: 63 });
    // Baghdad keeps +03 all year: 00:00 is 21:00Z the day before.
    await assertSpots(run, [
      // 2026 sheet, February, day 26: USD Buy ID 1300, Sell ID 1310
      {
        date: '2026-02-26',
        base: 'USD',
        symbol: 'IQD',
        rate: '1305',
        decimals: 12,
        observationTime: '2026-02-25T21:00:00.000Z',
      },
      // Same day: EUR 1535.82 / 1547.634 against USD
      {
        date: '2026-02-26',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals(meanOfDecimals('1535.82', '1547.634'), '1305', 10),
        decimals: 10,
        observationTime: '2026-02-25T21:00:00.000Z',
      },
      // 2024 sheet, January, day 11: S.FR 1528.872 / 1540.633; the UTC date 10 January holds it
      {
        date: '2024-01-10',
        base: 'CHF',
        symbol: 'IQD',
        rate: meanOfDecimals('1528.872', '1540.633'),
        decimals: 10,
        observationTime: '2024-01-10T21:00:00.000Z',
      },
    ]);
  });
});

describe('cbi parser on inline samples', () => {
  const workbook = (rows: unknown[][], name = '2024') => {
    const book = utils.book_new();
    utils.book_append_sheet(book, utils.aoa_to_sheet(rows), name);
    return new Uint8Array(write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
  };
  const header = [
    ['Daily Exchange Rate for Iraqi Dinar Per Major Currencies and Gold (buy, sell)'],
    [],
    ['Date', 'الدولار الأمريكي', null, 'الفرنك السويسري', null, 'الذهب للاونسة'],
    [null, 'USD', null, 'S.FR', null, 'Gold'],
    [2024, 'Buy ID', 'Sell ID', 'Buy ID', 'Sell ID'],
  ];

  test('midpoint of buy and sell; months follow the Average rows and the month labels', () => {
    const result = parseCbiWorkbook(
      workbook([
        ...header,
        ['Jan. 2024'],
        [1, 'عطلة رأس السنة'],
        ['2', 1300, 1310, 1428.31, 1439.297, 2676539.71],
        ['Average', 1300, 1310],
        [1, 1300, 1310],
        ['Mar.2024'],
        [4, 1300, 1310],
      ]),
      cbi,
    );
    assert.deepEqual(observationRows(result), [
      ['USD', '2024-01-01T21:00:00.000Z', 1 / 1305],
      ['CHF', '2024-01-01T21:00:00.000Z', 1 / 1433.8035],
      ['USD', '2024-01-31T21:00:00.000Z', 1 / 1305],
      ['USD', '2024-03-03T21:00:00.000Z', 1 / 1305],
    ]);
    // The gold price is counted, not stored
    assert.equal(result.dropped, 1);
  });

  test('half a quote or buying above selling is dropped and counted', () => {
    const result = parseCbiWorkbook(
      workbook([...header, ['Jan. 2024'], [2, 1300, null, 1790.711, 180.486]]),
      cbi,
    );
    assert.equal(result.observations.length, 0);
    assert.equal(result.dropped, 2);
    assert.match(result.dropReasons[1] ?? '', /buying 1790.711 above selling 180.486/);
  });

  test('a cut-short file, no year sheet or an impossible day is refused', () => {
    const bytes = workbook([...header, ['Jan. 2024'], [2, 1300, 1310]]);
    assert.throws(() => parseCbiWorkbook(bytes.subarray(0, bytes.length - 300), cbi), /workbook/);
    assert.throws(() => parseCbiWorkbook(workbook([['x']], 'Sheet1'), cbi), /no sheet named/);
    assert.throws(
      () => parseCbiWorkbook(workbook([...header, ['Feb.2024'], [30, 1300, 1310]]), cbi),
      /day 30 of month 2 is no date/,
    );
  });

  test('the page links the workbook of daily rates against the main currencies', () => {
    const html =
      '<a href="https://cbi.iq/static/uploads/up/a.xlsx">اسعار صرف الدينار تجاه الدولار الأمريكي</a>' +
      '<a href="https://cbi.iq/static/uploads/up/b.xlsx"><span>أسعار صرف الدينار العراقي اليومية تجاه العملات الرئيسية والذهب</span></a>';
    assert.equal(cbiWorkbookUrl(html), 'https://cbi.iq/static/uploads/up/b.xlsx');
    assert.throws(() => cbiWorkbookUrl('<html></html>'), /links no workbook/);
  });
});
