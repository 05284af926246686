import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { utils, write } from '@e965/xlsx';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as nrbt, parseNrbtWorkbook } from '../../src/sources/nrbt.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['nrbt.yml'];

describe('nrbt on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('nrbt', {
      recordings: RECORDINGS,
      from: '2017-01-03',
      to: '2026-11-20',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // MID blocks of 12 currencies: 3 days in sheet "2025 to 2026", 2 in "2023 to 2024", 4 in
    // "2017 to 2018" (holiday rows hold no figures; the other sheets' days are blank)
    await assertIngested(run, { stored: 108, symbols: 12 });
    // No documented time: 00:00 in Nuku'alofa, UTC+13 now (11:00Z the day before) and UTC+14
    // under the daylight saving time Tonga kept in the summer of 2016-2017 (10:00Z)
    await assertSpots(run, [
      // 2-Jan-25 MID USD 0.4106 per TOP
      {
        date: '2025-01-01',
        base: 'TOP',
        symbol: 'USD',
        rate: '0.4106',
        observationTime: '2025-01-01T11:00:00.000Z',
      },
      // 03-Jan-17 MID JPY 52.2927 per TOP
      {
        date: '2017-01-02',
        base: 'TOP',
        symbol: 'JPY',
        rate: '52.2927',
        observationTime: '2017-01-02T10:00:00.000Z',
      },
      // 6-Jan-25 MID AUD 0.6630, NZD 0.7255
      {
        date: '2025-01-05',
        base: 'AUD',
        symbol: 'NZD',
        rate: divideDecimals('0.7255', '0.663', 10),
        decimals: 10,
        observationTime: '2025-01-05T11:00:00.000Z',
      },
    ]);
  });
});

describe('nrbt parser on inline samples', () => {
  const workbook = (rows: unknown[][]): Uint8Array => {
    const book = utils.book_new();
    utils.book_append_sheet(book, utils.aoa_to_sheet(rows), '2025 to 2026');
    return write(book, { type: 'array', bookType: 'xlsx' }) as Uint8Array;
  };
  const head = [
    [null, 'AVERAGE EXCHANGE RATES\nBUY', null, null, 'AVERAGE EXCHANGE RATES\nMID', null],
    [null, 'USD', 'JPY', null, 'USD', 'JPY'],
  ];

  test('the MID block, units per TOP; holiday rows skipped', () => {
    const result = parseNrbtWorkbook(
      workbook([
        ...head,
        [46204, 'Public Holiday', null, null, 'Public Holiday', null],
        [46205, 0.42, 65.1, null, 0.41, 64.3751],
      ]),
      nrbt,
    );
    assert.deepEqual(observationRows(result), [
      ['USD', '2026-07-01T11:00:00.000Z', 0.41],
      ['JPY', '2026-07-01T11:00:00.000Z', 64.3751],
    ]);
    assert.equal(result.dropped, 0);
  });

  test('a missing figure or figures without a date are dropped and counted', () => {
    const result = parseNrbtWorkbook(
      workbook([...head, [46205, 0.42, 65.1, null, null, 64.3], ['later', 1, 1, null, 0.4, 64]]),
      nrbt,
    );
    assert.equal(result.observations.length, 1);
    assert.equal(result.dropped, 2);
  });

  test('a workbook without the MID block is refused', () => {
    assert.throws(
      () => parseNrbtWorkbook(workbook([['NATIONAL RESERVE BANK OF TONGA']]), nrbt),
      /MID/,
    );
  });
});
