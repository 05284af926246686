import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { utils, write } from '@e965/xlsx';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as cbs, cbsWorkbookUrl, parseCbsWorkbook } from '../../src/sources/cbs.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['cbs.yml'];

describe('cbs on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('cbs', {
      recordings: RECORDINGS,
      from: '2026-05-01',
      to: '2026-06-03',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    assert.deepEqual(run.replay.requests, [
      '/daily-exchange-rates',
      '/media/Historical-Daily-Rates-June032026.xlsx',
    ]);
    // 19 year sheets, 2008-2026: 34,754 daily figures of 8 currencies (CNY from 2016); the
    // 2015-06-30 row also stands, identical, in the 2013 and 2014 sheets. Dropped: 2,102 CNH
    // (offshore yuan, no ISO 4217 code), 2 CNY cells printed "n/a" in 2016, and the 16 figures
    // of the 8 currencies on 2026-01-12, which is listed twice with different figures (its 2 CNH
    // figures are among the 2,102).
    await assertIngested(run, { stored: 34754, symbols: 8, dropped: 2120 });
    await assertSpots(run, [
      // Sheet 2026, serial 46176 (2026-06-03): TALA/USD 0.36983. 00:00 in Apia (+13) is 11:00Z
      // the day before.
      {
        date: '2026-06-03',
        base: 'WST',
        symbol: 'USD',
        rate: '0.36983',
        observationTime: '2026-06-02T11:00:00.000Z',
      },
      // Same day: TALA/YEN 59.1373 against TALA/USD 0.36983
      {
        date: '2026-06-03',
        base: 'USD',
        symbol: 'JPY',
        rate: divideDecimals('59.1373', '0.36983', 10),
        decimals: 10,
        observationTime: '2026-06-02T11:00:00.000Z',
      },
      // Sheet 2015, serial 42017 (2015-01-13): TALA/NZD 0.52909. Samoa kept summer time (+14)
      // until 2021, so that midnight was 10:00Z on the 12th.
      {
        date: '2015-01-12',
        base: 'WST',
        symbol: 'NZD',
        rate: '0.52909',
        observationTime: '2015-01-12T10:00:00.000Z',
      },
      // Sheet 2015, serial 42199 (2015-07-14): TALA/GBP 0.24792, in winter (+13)
      {
        date: '2015-07-13',
        base: 'WST',
        symbol: 'GBP',
        rate: '0.24792',
        observationTime: '2015-07-13T11:00:00.000Z',
      },
    ]);
  });
});

describe('cbs parser on inline samples', () => {
  const workbook = (sheets: Record<string, unknown[][]>) => {
    const book = utils.book_new();
    for (const [name, rows] of Object.entries(sheets)) {
      utils.book_append_sheet(book, utils.aoa_to_sheet(rows), name);
    }
    return new Uint8Array(write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
  };

  test('labels either way round, averages and working columns left out, CNH and "n/a" dropped', () => {
    const bytes = workbook({
      '2010': [['JANUARY'], ['DATE', 'US/TALA', 'YEN/TALA'], [40547, 0.42358, 34.68475]],
      '2016': [
        ['JANUARY'],
        ['DATE', 'TALA/EURO', 'TALA/CNY', 'TALA/CNH'],
        [42373, 0.34, 'n/a', 2.6, null, 0.0223],
        ['Jan', 0.35, 2.7, 2.6],
      ],
    });
    const result = parseCbsWorkbook(bytes, cbs);
    assert.deepEqual(observationRows(result), [
      // 2011-01-04 at 00:00 in Apia, then east of the date line's other side (-10 in summer)
      ['USD', '2011-01-04T10:00:00.000Z', 0.42358],
      ['JPY', '2011-01-04T10:00:00.000Z', 34.68475],
      // 2016-01-04, summer time (+14)
      ['EUR', '2016-01-03T10:00:00.000Z', 0.34],
    ]);
    assert.equal(result.dropped, 2);
  });

  test('a day repeated with the same figure is one observation; with another, dropped', () => {
    const bytes = workbook({
      '2014': [
        ['DATE', 'TALA/USD'],
        [42185, 0.38996],
      ],
      '2015': [
        ['DATE', 'TALA/USD', 'TALA/GBP'],
        [42185, 0.38996, 0.2479],
        [42185, 0.38996, 0.25],
      ],
    });
    const result = parseCbsWorkbook(bytes, cbs);
    assert.deepEqual(observationRows(result), [['USD', '2015-06-29T11:00:00.000Z', 0.38996]]);
    assert.equal(result.dropped, 2);
  });

  test('a cut-short file or one without year sheets is refused; the page gives the link', () => {
    const bytes = workbook({
      '2026': [
        ['DATE', 'TALA/USD'],
        [46176, 0.36983],
      ],
    });
    assert.throws(() => parseCbsWorkbook(bytes.subarray(0, bytes.length - 300), cbs), /workbook/);
    assert.throws(
      () => parseCbsWorkbook(workbook({ Sheet1: [['x']] }), cbs),
      /no sheet named by a year/,
    );
    assert.equal(
      cbsWorkbookUrl(
        '<a href="/media/Historical-Daily-Rates-June032026.xlsx">Historical Daily Rates.</a>',
      ),
      'https://cbs.gov.ws/media/Historical-Daily-Rates-June032026.xlsx',
    );
    assert.throws(() => cbsWorkbookUrl('<html><body>Maintenance</body></html>'), /links no/);
  });
});
