import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as snb, parseSnbCube } from '../../src/sources/snb.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';
import { recordingBytes } from '../support/replay-server.js';

const RECORDINGS = ['snb_devkum.json', 'snb_devkua_en.json'];

describe('snb on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('snb', {
      recordings: RECORDINGS,
      from: '2024-08-01',
      to: '2026-07-31',
    });
  });
  after(() => run?.close());

  test('every recorded month-end rate stored', async () => {
    await assertIngested(run, { stored: 624, symbols: 26 }); // 26 month-end series x 24 months
  });

  test("month-end rates (not the averages) on the month's last weekday, per-100 quotes scaled", async () => {
    // January 2026 ends on a Saturday: the last fixing was Friday the 30th, 11:00 Zurich = 10:00Z.
    await assertSpots(run, [
      // {M1,JPY100} 2026-01: 0.49908 CHF per 100 JPY, so 0.0049908 per yen
      {
        date: '2026-01-31',
        base: 'JPY',
        symbol: 'CHF',
        rate: '0.0049908',
        decimals: 12,
        observationTime: '2026-01-30T10:00:00.000Z',
      },
      // {M1,EUR1} 2026-01: 0.91637 (the month's average, {M0,EUR1}, is 0.92732)
      {
        date: '2026-01-31',
        base: 'EUR',
        symbol: 'CHF',
        rate: '0.91637',
        decimals: 12,
        observationTime: '2026-01-30T10:00:00.000Z',
      },
      // {M1,USD1} 2026-07: 0.8064; July is summer time: 11:00 Zurich is 09:00Z on Friday the 31st
      {
        date: '2026-07-31',
        base: 'USD',
        symbol: 'CHF',
        rate: '0.8064',
        decimals: 12,
        observationTime: '2026-07-31T09:00:00.000Z',
      },
    ]);
  });

  test('the annual cube (devkua) holds averages only: no observation in it', () => {
    const result = parseSnbCube(recordingBytes('snb_devkua_en.json').toString(), snb);
    assert.equal(JSON.parse(recordingBytes('snb_devkua_en.json').toString()).timeseries.length, 26);
    assert.deepEqual(result, { observations: [], dropped: 0, dropReasons: [] });
  });
});

describe('snb parser on inline samples', () => {
  test('month-end series only, per-100 quotes scaled then inverted, float noise rounded away', () => {
    const cube = JSON.stringify({
      timeseries: [
        { metadata: { key: 'EPB@SNB.devkum{M0,USD1}' }, values: [{ date: '2024-06', value: 0.9 }] },
        {
          metadata: { key: 'EPB@SNB.devkum{M1,JPY100}' },
          values: [{ date: '2024-06', value: 0.5599999999999999 }],
        },
        {
          metadata: { key: 'EPB@SNB.devkum{M1,USD3M}' },
          values: [{ date: '2024-06', value: 0.89 }],
        },
      ],
    });
    // June 2024 ends on a Sunday: the month-end rate is Friday the 28th, 11:00 CEST.
    // 0.5599999999999999 per 100 is 0.56 per 100, 0.0056 per yen: the one division is 1/0.0056.
    assert.deepEqual(observationRows(parseSnbCube(cube, snb)), [
      ['JPY', '2024-06-28T09:00:00.000Z', 1 / 0.0056],
    ]);
    assert.notEqual(1 / 0.0056, 100 / 0.56); // what dividing by 100 as a double would give
    assert.throws(() => parseSnbCube('{"error":"unknown cube"}', snb), /no timeseries/);
  });
});
