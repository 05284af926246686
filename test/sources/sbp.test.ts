import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { utils, write } from '@e965/xlsx';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as sbp, parseSbpWorkbook } from '../../src/sources/sbp.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['sbp.yml'];

describe('sbp on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('sbp', {
      recordings: RECORDINGS,
      from: '2013-07-02',
      to: '2026-06-30',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // The archive: 23 currencies x 3190 dates (2 July 2013 to 30 June 2026). The current
    // month's file (April 2026, 22 dates) repeats the archive's figures, so it adds nothing.
    await assertIngested(run, { stored: 73370, symbols: 23 });
    assert.deepEqual(run.replay.requests, [
      '/assets/document/BFER_Daily.xlsx',
      '/assets/document/BFER_Daily_Arch.xlsx',
    ]);
    // Karachi (UTC+5, no daylight saving) documents no time for its daily average: 00:00
    // local is 19:00Z on the day before, the UTC date the date endpoint finds a day's rates under
    await assertSpots(run, [
      // archive, 2-Jul-13, U.S. Dollar 99.440147
      {
        date: '2013-07-01',
        base: 'USD',
        symbol: 'PKR',
        rate: '99.440147',
        decimals: 10,
        observationTime: '2013-07-01T19:00:00.000Z',
      },
      // current month, 1-Apr-26, Australian Dollar 192.929678
      {
        date: '2026-03-31',
        base: 'AUD',
        symbol: 'PKR',
        rate: '192.929678',
        decimals: 10,
        observationTime: '2026-03-31T19:00:00.000Z',
      },
      // archive, 30-Jun-26: Euro 317.6933, U.S. Dollar 278.4375
      {
        date: '2026-06-29',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('317.6933', '278.4375', 9),
        decimals: 9,
        observationTime: '2026-06-29T19:00:00.000Z',
      },
    ]);
  });

  test('a later run within the current month does not fetch the archive', async () => {
    const earlier = run.replay.requests.length;
    const report = await run.ingest({ from: '2026-04-01', to: '2026-04-30' });
    assert.equal(report.error, null);
    assert.deepEqual(run.replay.requests.slice(earlier), ['/assets/document/BFER_Daily.xlsx']);
  });
});

describe('sbp parser on inline samples', () => {
  const workbook = (rows: unknown[][]): Uint8Array => {
    const book = utils.book_new();
    utils.book_append_sheet(book, utils.aoa_to_sheet(rows), 'Sheet1');
    return write(book, { type: 'array', bookType: 'xlsx' }) as Uint8Array;
  };
  const header = ['Country / Monetary Union', 'Currency', 46204, 46205];

  test('PKR per unit from the cells, names in either spelling, Excel dates', () => {
    const result = parseSbpWorkbook(
      workbook([
        ["Daily Average Banks' Floating Exchange Rates"],
        header,
        ['Thailand', 'Thai Bhat', 8.574767, null],
      ]),
      sbp,
    );
    assert.deepEqual(observationRows(result), [['THB', '2026-06-30T19:00:00.000Z', 1 / 8.574767]]);
    // the empty cell of 2 July is a missing value
    assert.equal(result.dropped, 1);
    assert.equal(result.firstDate, '2026-07-01');
  });

  test('an unknown currency name is dropped and counted', () => {
    const result = parseSbpWorkbook(
      workbook([header, ['Nowhere', 'Nowhere Crown', 1.5, 1.6]]),
      sbp,
    );
    assert.equal(result.observations.length, 0);
    assert.equal(result.dropped, 2);
  });

  test('a sheet without its header or without rates is refused', () => {
    assert.throws(() => parseSbpWorkbook(workbook([['State Bank of Pakistan']]), sbp), /header/);
    assert.throws(() => parseSbpWorkbook(workbook([header]), sbp), /no rates/);
  });
});
