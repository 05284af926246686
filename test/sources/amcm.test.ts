import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as amcm, parseAmcmJson } from '../../src/sources/amcm.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['amcm.yml'];

describe('amcm on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('amcm', {
      recordings: RECORDINGS,
      from: '2026-05-18',
      to: '2026-05-22',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 17 currencies x 5 days; the daily LIQ row (unit 0, a money-market figure) is dropped
    await assertIngested(run, { stored: 85, symbols: 17, dropped: 5 });
    assert.equal(run.report.requests, 1);
    await assertSpots(run, [
      // 2026-05-22 JPY unit 100 usdMean "5.0727"; 00:00 in Macau is 16:00Z the day before
      {
        date: '2026-05-22',
        base: 'JPY',
        symbol: 'MOP',
        rate: '0.050727',
        decimals: 12,
        observationTime: '2026-05-21T16:00:00.000Z',
      },
      // 2026-05-18 USD unit 1 usdMean "8.0643": on the UTC date of its observation time
      {
        date: '2026-05-17',
        base: 'USD',
        symbol: 'MOP',
        rate: '8.0643',
        decimals: 12,
        observationTime: '2026-05-17T16:00:00.000Z',
      },
      // 2026-05-22 USD "8.0705" and HKD "1.0300": 8.0705 / 1.03 HKD per USD
      {
        date: '2026-05-22',
        base: 'USD',
        symbol: 'HKD',
        rate: '7.8354368932',
        decimals: 10,
        observationTime: '2026-05-21T16:00:00.000Z',
      },
    ]);
  });
});

describe('amcm parser on inline samples', () => {
  const body = (rows: object[], code = 0) =>
    JSON.stringify({ message: 'OK', data: rows, code, type: 'Success' });

  test('MOP per `unit` units, by moving the decimal point; LIQ is dropped', () => {
    const extraction = parseAmcmJson(
      body([
        { date: '2024-01-02 00:00:00', currency: 'KRW', unit: 100.0, usdMean: '0.6200' },
        { date: '2024-01-02 00:00:00', currency: 'LIQ', unit: 0.0, usdMean: '0.0000' },
      ]),
      amcm,
    );
    assert.deepEqual(observationRows(extraction), [
      ['KRW', '2024-01-01T16:00:00.000Z', 1 / 0.0062],
    ]);
    assert.equal(extraction.dropped, 1);
  });

  test('a missing figure is dropped; an error answer or a cut-short body fails', () => {
    const missing = parseAmcmJson(
      body([{ date: '2024-01-02 00:00:00', currency: 'USD', unit: 1.0, usdMean: '' }]),
      amcm,
    );
    assert.equal(missing.observations.length, 0);
    assert.equal(missing.dropped, 1);
    assert.throws(() => parseAmcmJson(body([], 500), amcm), /code 0/);
    assert.throws(() => parseAmcmJson(body([]).slice(0, -10), amcm), /cut short/);
  });
});
