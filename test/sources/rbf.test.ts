import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { utils, write } from '@e965/xlsx';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as rbf, parseRbfWorkbook, rbfWorkbookUrl } from '../../src/sources/rbf.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['rbf.yml'];

describe('rbf on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('rbf', {
      recordings: RECORDINGS,
      from: '2026-05-18',
      to: '2026-05-22',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 8 columns (SDR, STG, YEN, CHF, A$, NZ$, US$, EURO) on the 5 recorded days
    await assertIngested(run, { stored: 40, symbols: 8 });
    assert.deepEqual(run.replay.requests, [
      '/statistics/economic-and-financial-statistics/',
      '/wp-content/uploads/2026/05/8.8-Exchange-Rates-Daily-9.xlsx',
    ]);
    // No documented time: 00:00 in Suva (UTC+12, no daylight saving now) is 12:00Z the day
    // before, the UTC date the date endpoint finds a day's rates under
    await assertSpots(run, [
      // 2026-05-18 (serial 46160) SDR 0.328656 per FJD
      {
        date: '2026-05-17',
        base: 'FJD',
        symbol: 'XDR',
        rate: '0.328656',
        observationTime: '2026-05-17T12:00:00.000Z',
      },
      // 2026-05-22 YEN 71.58 per FJD
      {
        date: '2026-05-21',
        base: 'FJD',
        symbol: 'JPY',
        rate: '71.58',
        observationTime: '2026-05-21T12:00:00.000Z',
      },
      // 2026-05-19: STG 0.3354, YEN 71.58 per FJD
      {
        date: '2026-05-18',
        base: 'GBP',
        symbol: 'JPY',
        rate: divideDecimals('71.58', '0.3354', 8),
        decimals: 8,
        observationTime: '2026-05-18T12:00:00.000Z',
      },
    ]);
  });
});

describe('rbf parser on inline samples', () => {
  const workbook = (rows: unknown[][]): Uint8Array => {
    const book = utils.book_new();
    utils.book_append_sheet(book, utils.aoa_to_sheet(rows), 'Exchange Rates');
    return write(book, { type: 'array', bookType: 'xlsx' }) as Uint8Array;
  };
  const header = ['Period', '     SDR', '    US$', 'GOLD'];

  test('units per FJD by column label; unknown columns and missing figures dropped', () => {
    const result = parseRbfWorkbook(
      workbook([['DAILY EXCHANGE RATES'], header, [], [46204, 0.3286, null, 1.5]]),
      rbf,
    );
    assert.deepEqual(observationRows(result), [['XDR', '2026-06-30T12:00:00.000Z', 0.3286]]);
    assert.equal(result.dropped, 2);
  });

  test('a sheet without its header or without rates is refused', () => {
    assert.throws(() => parseRbfWorkbook(workbook([['DAILY EXCHANGE RATES']]), rbf), /Period/);
    assert.throws(() => parseRbfWorkbook(workbook([header]), rbf), /no rates/);
  });

  test('the statistics page links the workbook', () => {
    assert.equal(
      rbfWorkbookUrl(
        '<a href="/wp-content/uploads/2026/06/8.8-Exchange-Rates-Daily-10.xlsx">x</a>',
      ),
      'https://www.rbf.gov.fj/wp-content/uploads/2026/06/8.8-Exchange-Rates-Daily-10.xlsx',
    );
    assert.equal(rbfWorkbookUrl('<a href="/annual-report.pdf">x</a>'), undefined);
  });
});
